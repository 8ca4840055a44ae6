package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// A Schema is a store's migrations: Migrations[i] takes the database from
// version i to i+1, and CompatibleFrom[i] is the oldest program version
// that works with version i+1 (see [store.CheckSchema]).
type Schema struct {
	Migrations     []string
	CompatibleFrom []int
	// Script runs one migration, a script of several statements, in the
	// transaction.
	Script func(ctx context.Context, script string) error
}

// Migrate reads the schema's version in tx, a transaction in which the
// caller made schema_version and schema_compat exist and holds whatever
// lock keeps other processes out, checks that this program may use it,
// and with apply brings it to the newest version, recording each
// migration. It returns the version before, and whether it wrote anything
// (then the caller commits).
func Migrate(ctx context.Context, tx DB, s Schema, apply bool) (version int, wrote bool, err error) {
	if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&version); err != nil {
		return version, false, tx.Wrap("migrate", err)
	}
	var compat int
	if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(compatible_from), 0) FROM schema_compat WHERE version = $1`, version).Scan(&compat); err != nil {
		return version, false, tx.Wrap("migrate", err)
	}
	if err := store.CheckSchema(version, compat, len(s.Migrations), apply); err != nil {
		return version, false, tx.Wrap("migrate", err)
	}
	if !apply || version >= len(s.Migrations) {
		return version, false, nil
	}
	for v := version; v < len(s.Migrations); v++ {
		op := fmt.Sprintf("migrate to version %d", v+1)
		if err := s.Script(ctx, s.Migrations[v]); err != nil {
			return version, false, tx.Wrap(op, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)`, v+1, NormTime(time.Now())); err != nil {
			return version, false, tx.Wrap(op, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_compat (version, compatible_from) VALUES ($1, $2)`, v+1, s.CompatibleFrom[v]); err != nil {
			return version, false, tx.Wrap(op, err)
		}
	}
	return version, true, nil
}
