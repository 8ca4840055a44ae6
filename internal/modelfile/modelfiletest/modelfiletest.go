package modelfiletest

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// DamagedFails checks that read accepts data, a whole model file, and
// fails on it cut short (a hundred cuts, and every cut of its last 32
// bytes: the gzip trailer and the end of the last section) and on it with
// a wrong gzip checksum.
func DamagedFails(t *testing.T, data []byte, read func([]byte) error) {
	t.Helper()
	if err := read(data); err != nil {
		t.Fatalf("the whole file: %v", err)
	}
	for n := 0; n < len(data); n += max(1, min(len(data)/100, len(data)-n-32)) {
		assert.Error(t, read(data[:n]), "the first %d of %d bytes", n, len(data))
	}
	bad := bytes.Clone(data)
	bad[len(bad)-5] ^= 0xff // the gzip trailer's checksum
	assert.Error(t, read(bad), "a wrong gzip checksum")
}
