package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeConn is a connection from a given address that records Close.
type fakeConn struct {
	net.Conn
	remote net.Addr
	mu     sync.Mutex
	closed int
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.remote }
func (c *fakeConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed++
	return nil
}

func (c *fakeConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed > 0
}

// fakeListener hands out queued connections, then io.EOF.
type fakeListener struct {
	net.Listener
	conns chan net.Conn
}

func (l *fakeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	default:
		return nil, io.EOF
	}
}

func from(addr string) *fakeConn {
	if ap, err := netip.ParseAddrPort(addr); err == nil {
		return &fakeConn{remote: net.TCPAddrFromAddrPort(ap)}
	}
	return &fakeConn{remote: &net.UnixAddr{Name: addr, Net: "unix"}}
}

func TestConnLimits(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	tests := []struct {
		name           string
		total, perAddr int
		addrs          []string
		wantAdmitted   []bool
	}{
		{"per IPv4 address", 100, 2,
			[]string{"192.0.2.1:1000", "192.0.2.1:1001", "192.0.2.1:1002", "192.0.2.2:1000"},
			[]bool{true, true, false, true}},
		{"IPv6 counted by /64", 100, 2,
			[]string{"[2001:db8::1]:1", "[2001:db8::ffff]:1", "[2001:db8::2]:1", "[2001:db8:0:1::1]:1"},
			[]bool{true, true, false, true}},
		{"IPv4-mapped IPv6 is the IPv4 address", 100, 1,
			[]string{"192.0.2.1:1", "[::ffff:192.0.2.1]:2"},
			[]bool{true, false}},
		{"trusted proxies are exempt", 100, 1,
			[]string{"10.1.2.3:1", "10.1.2.3:2", "10.1.2.3:3", "192.0.2.1:1", "192.0.2.1:2"},
			[]bool{true, true, true, true, false}},
		{"total", 3, 10,
			[]string{"192.0.2.1:1", "192.0.2.2:1", "10.0.0.1:1", "192.0.2.3:1"},
			[]bool{true, true, true, false}},
		{"not an IP address: the total only", 2, 1,
			[]string{"@sock", "@sock", "@sock"},
			[]bool{true, true, false}},
		{"no per-address cap", 100, -1,
			[]string{"192.0.2.1:1", "192.0.2.1:2", "192.0.2.1:3"},
			[]bool{true, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fl := &fakeListener{conns: make(chan net.Conn, len(tt.addrs))}
			var conns []*fakeConn
			for _, a := range tt.addrs {
				c := from(a)
				conns = append(conns, c)
				fl.conns <- c
			}
			ln := limitConns(fl, tt.total, tt.perAddr, trusted)
			var admitted []net.Conn
			for {
				c, err := ln.Accept()
				if err != nil {
					break
				}
				admitted = append(admitted, c)
			}
			got := make([]bool, len(conns))
			for i, c := range conns {
				got[i] = !c.isClosed()
			}
			assert.Equal(t, tt.wantAdmitted, got, "admitted connections stay open, the rest are closed at once")
			for _, c := range admitted {
				require.NoError(t, c.Close())
			}
		})
	}
}

// Closing a connection gives its place back, once however often it is
// closed.
func TestConnLimitsRelease(t *testing.T) {
	fl := &fakeListener{conns: make(chan net.Conn, 4)}
	ln := limitConns(fl, 10, 1, nil)
	a, b, c := from("192.0.2.1:1"), from("192.0.2.1:2"), from("192.0.2.1:3")
	fl.conns <- a
	first, err := ln.Accept()
	require.NoError(t, err)
	require.NoError(t, first.Close())
	require.NoError(t, first.Close())
	fl.conns <- b
	second, err := ln.Accept()
	require.NoError(t, err, "the place was given back")
	fl.conns <- c
	_, err = ln.Accept()
	require.ErrorIs(t, err, io.EOF, "one place, not two")
	assert.True(t, c.isClosed())
	require.NoError(t, second.Close())
	assert.Same(t, ln, limitConns(ln, -1, -1, nil).(*connLimiter), "no caps: unwrapped")
}

// Through Serve: a client past its per-address cap is cut off at once,
// while another address still gets in. Linux routes all of 127/8 to
// loopback, so 127.0.0.2 is another client.
func TestServeCapsConnectionsPerAddress(t *testing.T) {
	base, _, _ := serveOnLoopback(t, Config{MaxConnsPerAddr: 2})
	addr := strings.TrimPrefix(base, "http://")
	dial := func(local string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 2 * time.Second}
		c, err := d.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		return c
	}
	get := func(c net.Conn) (string, error) {
		require.NoError(t, c.SetDeadline(time.Now().Add(5*time.Second)))
		if _, err := fmt.Fprint(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			return "", err
		}
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return "", err
		}
		defer res.Body.Close()
		return res.Status, nil
	}
	held := []net.Conn{dial("127.0.0.1"), dial("127.0.0.1")}
	for _, c := range held {
		status, err := get(c)
		require.NoError(t, err)
		require.Equal(t, "200 OK", status)
	}
	_, err := get(dial("127.0.0.1"))
	assert.Error(t, err, "the third connection from one address is closed")
	status, err := get(dial("127.0.0.2"))
	require.NoError(t, err, "another address gets in")
	assert.Equal(t, "200 OK", status)
	// Once a connection closes, its address may open another.
	require.NoError(t, held[0].Close())
	require.Eventually(t, func() bool {
		c := dial("127.0.0.1")
		defer c.Close()
		status, err := get(c)
		return err == nil && status == "200 OK"
	}, 5*time.Second, 50*time.Millisecond)
}

// Headers past 64 KiB are a 431; a GET with a 60 KiB URL is served.
func TestHeaderLimit(t *testing.T) {
	base, _, _ := serveOnLoopback(t, Config{})
	req, err := http.NewRequest("GET", base+"/healthz", nil)
	require.NoError(t, err)
	req.Header.Set("X-Padding", strings.Repeat("x", 100<<10))
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, res.StatusCode)

	text := strings.Repeat("word+", 60<<10/5)
	res, err = http.Get(base + "/sentiment?text=" + text)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)

	res, err = http.Get(base + "/sentiment?text=" + text + text)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, res.StatusCode, "a longer GET text is refused")
}
