package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/textanalysis/go-textanalysis/server"
)

func migrateCommand() *cli.Command {
	return &cli.Command{
		Name:  "migrate",
		Usage: "bring the database's schema to this program's version, as its own deployment step",
		Description: `Migrates the database TEXTANALYSIS_DATABASE_URL names (as for serve) and
exits. Run it once per release, before the new servers start; servers
started with --migrate=false then only check the schema. A release's
migrations keep the previous release working, so servers of the old and the
new version can serve side by side during a rolling deploy, and a rollback
to the previous release needs no schema change. Running it twice, or from
several machines at once, is harmless.`,
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "timeout", Value: 5 * time.Minute, Usage: "give up after `DURATION` (locks held by other sessions, a database that does not answer)"},
		},
		Action: func(c *cli.Context) error {
			ctx, cancel := context.WithTimeout(c.Context, c.Duration("timeout"))
			defer cancel()
			from, to, err := server.MigrateStore(ctx, os.Getenv("TEXTANALYSIS_DATABASE_URL"))
			if err != nil {
				return err
			}
			if from == to {
				fmt.Fprintf(c.App.Writer, "schema at version %d: nothing to do\n", to)
				return nil
			}
			fmt.Fprintf(c.App.Writer, "schema migrated from version %d to %d\n", from, to)
			return nil
		},
	}
}
