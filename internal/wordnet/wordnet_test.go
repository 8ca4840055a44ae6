package wordnet

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEachLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.noun")
	require.NoError(t, os.WriteFile(path, []byte(
		"  1 This software and database is being provided to you, the LICENSEE, by\n"+
			"  2 Princeton University under the following license.\n"+
			"00001740 03 n 01 entity 0 003 ~ 00001930 n 0000 | that which exists\n"+
			"00001930 03 n 01 physical_entity 0 002 @ 00001740 n 0000 | an entity that has physical existence\n"), 0o644))

	tests := []struct {
		name    string
		stopAt  int // fn fails on this line (1-based); 0 never
		want    []string
		wantErr bool
	}{
		{"every line after the licence", 0, []string{"00001740", "00001930"}, false},
		{"stops at the first error", 1, []string{"00001740"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := EachLine(path, func(line string) error {
				got = append(got, line[:8])
				if len(got) == tt.stopAt {
					return errors.New("stop")
				}
				return nil
			})
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantErr, err != nil)
		})
	}
}

func TestEachLineMissingFile(t *testing.T) {
	err := EachLine(filepath.Join(t.TempDir(), "none"), func(string) error { return nil })
	assert.ErrorIs(t, err, os.ErrNotExist)
}
