package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/textanalysis/go-textanalysis/server"
	"github.com/textanalysis/go-textanalysis/server/access"
)

// dbFlag names the store of the keys and usage commands. A PostgreSQL URL
// comes from the environment only, so that its password stays out of the
// process list and the shell history.
func dbFlag() cli.Flag {
	return &cli.StringFlag{Name: "db", Usage: "the store: a SQLite `FILE` (default: $TEXTANALYSIS_DATABASE_URL, as serve reads it, else ./" + server.DefaultDatabase + "); PostgreSQL through TEXTANALYSIS_DATABASE_URL only"}
}

// storeURL is the store the command works on: --db, else
// TEXTANALYSIS_DATABASE_URL, else "" (server.DefaultDatabase).
func storeURL(c *cli.Context) (string, error) {
	db := c.String("db")
	if db == "" {
		return os.Getenv("TEXTANALYSIS_DATABASE_URL"), nil
	}
	if strings.Contains(db, "://") && !strings.HasPrefix(db, "sqlite://") {
		return "", usagef("--db takes a SQLite file; give a PostgreSQL URL in TEXTANALYSIS_DATABASE_URL, which keeps its password out of the process list")
	}
	return db, nil
}

// sqlitePath is the file a SQLite store URL names, or "" for another kind
// of store.
func sqlitePath(url string) string {
	switch {
	case url == "":
		return server.DefaultDatabase
	case strings.HasPrefix(url, "sqlite://"):
		return strings.TrimPrefix(url, "sqlite://")
	case strings.HasPrefix(url, "sqlite:"):
		return strings.TrimPrefix(url, "sqlite:")
	case strings.Contains(url, "://"):
		return ""
	}
	return url
}

// openGate opens the store the command names (--db, else the environment
// serve reads) and a gate on it. The store is safe to share with a running
// server. A SQLite file that is not there yet is created only when create
// is true, with a warning on standard error: run in another folder than the
// server, a command would otherwise work on a new, empty store and find or
// change nothing the server sees. The gate's developer URL, for claim
// links, is developerURL().
func openGate(c *cli.Context, create bool) (*access.Gate, func(), error) {
	url, err := storeURL(c)
	if err != nil {
		return nil, nil, err
	}
	var created string
	if path := sqlitePath(url); path != "" {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			abs, _ := filepath.Abs(path)
			if !create {
				return nil, nil, usagef("no store at %s: run where the server runs, or name its store with --db FILE or TEXTANALYSIS_DATABASE_URL", abs)
			}
			created = abs
		}
	}
	st, err := server.OpenStore(c.Context, url)
	if err != nil {
		return nil, nil, err
	}
	if created != "" {
		fmt.Fprintf(c.App.ErrWriter, "textanalysis: warning: created a new, empty store at %s; a server elsewhere will not see this key (name its store with --db FILE or TEXTANALYSIS_DATABASE_URL)\n", created)
	}
	g, err := access.New(context.WithoutCancel(c.Context), access.Config{Store: st, DeveloperURL: developerURL()})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return g, func() { st.Close() }, nil
}

// developerURL is the developer site's address as serve works it out from
// the same environment: TEXTANALYSIS_DEVELOPER_URL, else
// TEXTANALYSIS_BASE_URL + /developer, else the local address.
func developerURL() string {
	if u := os.Getenv("TEXTANALYSIS_DEVELOPER_URL"); u != "" {
		return strings.TrimRight(u, "/")
	}
	base := strings.TrimRight(os.Getenv("TEXTANALYSIS_BASE_URL"), "/")
	if base == "" {
		addr := os.Getenv("TEXTANALYSIS_ADDR")
		if addr == "" {
			addr = server.DefaultAddr
		}
		base = server.LocalURL(addr)
	}
	return base + "/developer"
}
