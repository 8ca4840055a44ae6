package server

import (
	"context"
	"fmt"
	"strings"

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
	switch {
	case url == "":
		return sqlite.Open(ctx, DefaultDatabase)
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		st, err := postgres.Open(ctx, url)
		if err != nil {
			// The URL may hold a password: name only the kind of store.
			return nil, fmt.Errorf("server: open PostgreSQL store: %w", err)
		}
		return st, nil
	case strings.HasPrefix(url, "sqlite://"):
		return sqlite.Open(ctx, strings.TrimPrefix(url, "sqlite://"))
	case strings.HasPrefix(url, "sqlite:"):
		return sqlite.Open(ctx, strings.TrimPrefix(url, "sqlite:"))
	case strings.Contains(url, "://"):
		return nil, fmt.Errorf("server: unsupported database URL scheme %q (postgres:// or a SQLite path)", url[:strings.Index(url, "://")])
	}
	return sqlite.Open(ctx, url)
}
