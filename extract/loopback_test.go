package extract

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
)

// ::1 and :: lie in the IPv4-compatible range ::/96, but they are the IPv6
// loopback and unspecified addresses, and the refusal must say so.
func TestIPv6LoopbackIsNamedLoopback(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"::1", "loopback"},
		{"::", "unspecified address"},
		{"::7f00:1", "loopback"}, // ::127.0.0.1
		{"::a00:1", "private network"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			assert.Equal(t, tt.want, blockedReason(netip.MustParseAddr(tt.addr)))
		})
	}
}
