package store

import (
	"errors"
	"fmt"
)

// Schema versions and rolling deploys. Each store numbers its schema's
// versions; a program knows the newest version it can write (its own). A
// migration records, beside its version, the oldest program version that
// still works with the schema it makes ("compatible from"). From this
// release on, a migration must keep the previous release working: it only
// adds (tables, nullable or defaulted columns, indexes), and anything it
// replaces is dropped one release later. So during a rolling deploy, or
// after a rollback, the previous binary keeps serving on the migrated
// database instead of crash-looping.
var (
	// ErrSchemaOld: the database's schema is older than the program's,
	// and the program was told not to migrate it.
	ErrSchemaOld = errors.New("store: the database schema is older than this program's: run textanalysis migrate")
	// ErrSchemaNew: the database's schema is newer than the program's and
	// not compatible with it.
	ErrSchemaNew = errors.New("store: the database schema is newer than this program can use")
)

// CheckSchema says whether a program whose newest schema version is mine
// may use a database at version db, whose migration recorded compat as
// the oldest compatible program version (0 when none was recorded: only
// a program of that very version or newer). migrated is false when the
// program must not migrate the database itself.
func CheckSchema(db, compat, mine int, migrated bool) error {
	if compat <= 0 {
		compat = db
	}
	switch {
	case db > mine && compat > mine:
		return fmt.Errorf("%w (database %d, compatible from %d; this program %d)", ErrSchemaNew, db, compat, mine)
	case db < mine && !migrated:
		return fmt.Errorf("%w (database %d, this program %d)", ErrSchemaOld, db, mine)
	}
	return nil
}
