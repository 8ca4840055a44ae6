package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckSchema(t *testing.T) {
	tests := []struct {
		name             string
		db, compat, mine int
		migrate          bool
		want             error
	}{
		{"same", 3, 3, 3, false, nil},
		{"older, migrating", 2, 2, 3, true, nil},
		{"older, not migrating", 2, 2, 3, false, ErrSchemaOld},
		{"newer and compatible (N-1)", 4, 3, 3, false, nil},
		{"newer, not compatible", 5, 4, 3, false, ErrSchemaNew},
		{"newer, nothing recorded", 4, 0, 3, true, ErrSchemaNew},
		{"empty database, migrating", 0, 0, 3, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckSchema(tt.db, tt.compat, tt.mine, tt.migrate)
			if tt.want == nil {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, tt.want)
		})
	}
}
