package server

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The request line and headers may take MaxHeaderBytes in all, the limit
// the docs and GET / state; a byte more is 431.
func TestHeaderLimitIsTheStatedOne(t *testing.T) {
	base, _, _ := serveOnLoopback(t, Config{AdminAddr: "off"})
	send := func(total int) int {
		t.Helper()
		conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		require.NoError(t, err)
		defer conn.Close()
		head := "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: "
		tail := "\r\n\r\n"
		pad := total - len(head) - len(tail)
		_, err = fmt.Fprint(conn, head+strings.Repeat("a", pad)+tail)
		require.NoError(t, err)
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}
	assert.Equal(t, http.StatusOK, send(MaxHeaderBytes-64), "a little under the limit")
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, send(MaxHeaderBytes+1024), "1 KiB over the stated limit")
}
