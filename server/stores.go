package server

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/postgres"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// DefaultDatabase is the SQLite file the service keeps its keys and counts
// in when no database URL is configured, in the working directory.
const DefaultDatabase = "textanalysis.db"

// OpenStore opens the store a database URL names: "" for DefaultDatabase,
// "postgres://…" (or "postgresql://…") for PostgreSQL, "sqlite:PATH" or a
// plain file path for SQLite. Migrations run before it returns.
func OpenStore(ctx context.Context, url string) (store.Store, error) {
	return openStore(ctx, url, storeOpeners{sqlite: func(ctx context.Context, p string) (store.Store, error) { return sqlite.Open(ctx, p) },
		postgres: func(ctx context.Context, u string) (store.Store, error) { return postgres.Open(ctx, u) }})
}

// OpenStoreNoMigrate is OpenStore for a deployment that migrates as its own
// step (MigrateStore): it changes no schema, and fails with
// store.ErrSchemaOld when the schema is older than this program's. A newer
// schema compatible with this program (the next release's) is used.
func OpenStoreNoMigrate(ctx context.Context, url string) (store.Store, error) {
	return openStore(ctx, url, storeOpeners{sqlite: func(ctx context.Context, p string) (store.Store, error) { return sqlite.OpenNoMigrate(ctx, p) },
		postgres: func(ctx context.Context, u string) (store.Store, error) { return postgres.OpenNoMigrate(ctx, u) }})
}

// MigrateStore brings the schema of the database a URL names (as for
// OpenStore) to this program's version, and returns the versions before
// and after.
func MigrateStore(ctx context.Context, url string) (from, to int, err error) {
	_, err = openStore(ctx, url, storeOpeners{
		sqlite: func(ctx context.Context, p string) (store.Store, error) {
			from, to, err = sqlite.Migrate(ctx, p)
			return nil, err
		},
		postgres: func(ctx context.Context, u string) (store.Store, error) {
			from, to, err = postgres.Migrate(ctx, u)
			return nil, err
		},
	})
	return from, to, err
}

type storeOpeners struct {
	sqlite, postgres func(ctx context.Context, s string) (store.Store, error)
}

func openStore(ctx context.Context, url string, open storeOpeners) (store.Store, error) {
	switch {
	case url == "":
		return open.sqlite(ctx, DefaultDatabase)
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		st, err := open.postgres(ctx, url)
		if err != nil {
			// The URL may hold a password: name only the kind of store.
			return nil, fmt.Errorf("server: open PostgreSQL store: %w", err)
		}
		return st, nil
	case strings.HasPrefix(url, "sqlite://"):
		return open.sqlite(ctx, strings.TrimPrefix(url, "sqlite://"))
	case strings.HasPrefix(url, "sqlite:"):
		return open.sqlite(ctx, strings.TrimPrefix(url, "sqlite:"))
	case strings.Contains(url, "://"):
		return nil, fmt.Errorf("server: unsupported database URL scheme %q (postgres:// or a SQLite path)", url[:strings.Index(url, "://")])
	}
	return open.sqlite(ctx, url)
}

// Defaults of [RunPurge].
const (
	// PurgeInterval is how often a server purges its store.
	PurgeInterval = time.Hour
	// PurgeJitter is the most a wait between purges is lengthened, at
	// random, so that processes started together on one PostgreSQL
	// database drift apart instead of purging in step.
	PurgeJitter = 10 * time.Minute
)

// PurgeOptions configures [RunPurge]. The zero value works.
type PurgeOptions struct {
	// Interval between purges; 0 means PurgeInterval.
	Interval time.Duration
	// Jitter, the most added to each wait at random; 0 means PurgeJitter,
	// and a negative value none.
	Jitter time.Duration
	// Now tells the time; nil means time.Now.
	Now func() time.Time
	// Logger receives one line per purge; nil discards.
	Logger *slog.Logger
}

// RunPurge purges st (see [store.Store.Purge]) at once, then after every
// Interval plus a random jitter, until ctx ends; it returns when a purge in
// progress has stopped. A failed purge is logged and tried again at the
// next tick. Several processes may purge one database at once.
func RunPurge(ctx context.Context, st store.Store, opts PurgeOptions) {
	if opts.Interval <= 0 {
		opts.Interval = PurgeInterval
	}
	if opts.Jitter == 0 {
		opts.Jitter = PurgeJitter
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	for {
		start := time.Now()
		ps, err := st.Purge(ctx, opts.Now())
		attrs := []any{
			slog.Int64("tokens", ps.Tokens), slog.Int64("counters", ps.Counters), slog.Int64("sessions", ps.Sessions),
			slog.Int64("trial_keys", ps.TrialKeys), slog.Int64("trial_accounts", ps.TrialAccounts),
			slog.Duration("took", time.Since(start)),
		}
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			log.Error("purge failed", append(attrs, slog.Any("error", err))...)
		case ps.Total() > 0:
			log.Info("purged expired rows", attrs...)
		default:
			log.Debug("purged expired rows", attrs...)
		}
		wait := opts.Interval
		if opts.Jitter > 0 {
			wait += rand.N(opts.Jitter)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}
