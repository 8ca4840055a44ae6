package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// SchemaHooks reach one fresh, empty database of a store for
// [SchemaCompat].
type SchemaHooks struct {
	Open          Opener // migrates
	OpenNoMigrate Opener // checks only
	Migrate       func(ctx context.Context) (from, to int, err error)
	// Record records a schema version as a later release's migration
	// would, with the oldest program version compatible with it, directly
	// in the database (schema_version and schema_compat).
	Record func(ctx context.Context, version, compatibleFrom int) error
	// Version is the store's newest schema version.
	Version int
}

// SchemaCompat checks migration as its own step and the N-1 rule (see
// [store.CheckSchema]): a program that must not migrate refuses an older
// schema; migrate brings it up once; a newer schema that declares this
// program compatible is used as it is, one that does not is refused.
func SchemaCompat(t *testing.T, h SchemaHooks) {
	ctx := t.Context()
	_, err := h.OpenNoMigrate(ctx)
	require.ErrorIs(t, err, store.ErrSchemaOld, "an empty database is not migrated by serve --no-migrate")

	from, to, err := h.Migrate(ctx)
	require.NoError(t, err)
	assert.Equal(t, [2]int{0, h.Version}, [2]int{from, to})
	from, to, err = h.Migrate(ctx)
	require.NoError(t, err)
	assert.Equal(t, [2]int{h.Version, h.Version}, [2]int{from, to}, "migrating twice changes nothing")

	st, err := h.OpenNoMigrate(ctx)
	require.NoError(t, err)
	require.NoError(t, st.Close())

	// The next release's schema, compatible with this program (N-1).
	next := h.Version + 1
	require.NoError(t, h.Record(ctx, next, h.Version))
	for _, open := range []Opener{h.Open, h.OpenNoMigrate} {
		st, err := open(ctx)
		require.NoError(t, err, "the previous binary keeps working on a compatible newer schema")
		a, err := st.CreateAccount(ctx, store.Account{Plan: store.PlanFree})
		require.NoError(t, err)
		_, ok, err := st.Consume(ctx, a.ID, nov, 10)
		require.NoError(t, err)
		assert.True(t, ok)
		require.NoError(t, st.Close())
	}

	// Two releases on: not compatible any more.
	require.NoError(t, h.Record(ctx, next+1, next))
	_, err = h.Open(ctx)
	assert.ErrorIs(t, err, store.ErrSchemaNew)
	_, err = h.OpenNoMigrate(ctx)
	assert.ErrorIs(t, err, store.ErrSchemaNew)
}
