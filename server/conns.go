package server

import (
	"net"
	"net/netip"
	"sync"
)

// limitConns wraps ln so that at most maxTotal connections are open at
// once, and at most maxPerAddr from one client address: an IPv4 address,
// or an IPv6 /64, which one subscriber usually holds whole. Connections
// from trusted (the reverse proxies in front of the server, through which
// every client comes) count towards the total only. A negative cap is no
// cap; with neither, ln is returned as it is.
//
// A connection past a cap is closed as soon as it is accepted, rather
// than left waiting: a total that held Accept back would let one client
// starve all the others, and a closed connection costs nothing.
func limitConns(ln net.Listener, maxTotal, maxPerAddr int, trusted []netip.Prefix) net.Listener {
	if maxTotal < 0 && maxPerAddr < 0 {
		return ln
	}
	return &connLimiter{Listener: ln, maxTotal: maxTotal, maxPerAddr: maxPerAddr, trusted: trusted, perAddr: map[netip.Addr]int{}}
}

type connLimiter struct {
	net.Listener
	maxTotal, maxPerAddr int
	trusted              []netip.Prefix

	mu      sync.Mutex
	total   int
	perAddr map[netip.Addr]int // by clientKey
}

// Accept returns the next connection within the caps, closing those past
// them.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key, perAddr := l.clientKey(c.RemoteAddr())
		if l.admit(key, perAddr) {
			return &limitedConn{Conn: c, release: func() { l.release(key, perAddr) }}, nil
		}
		_ = c.Close()
	}
}

// clientKey is what the per-address cap counts by, and whether it applies.
func (l *connLimiter) clientKey(a net.Addr) (netip.Addr, bool) {
	if l.maxPerAddr < 0 {
		return netip.Addr{}, false
	}
	var addr netip.Addr
	switch a := a.(type) {
	case *net.TCPAddr:
		addr, _ = netip.AddrFromSlice(a.IP)
	default:
		ap, err := netip.ParseAddrPort(a.String())
		if err != nil {
			return netip.Addr{}, false // not an IP connection: the total only
		}
		addr = ap.Addr()
	}
	addr = addr.Unmap()
	if !addr.IsValid() {
		return netip.Addr{}, false
	}
	for _, p := range l.trusted {
		if p.Contains(addr) {
			return netip.Addr{}, false
		}
	}
	if addr.Is6() {
		p, _ := addr.WithZone("").Prefix(64)
		addr = p.Addr()
	}
	return addr, true
}

func (l *connLimiter) admit(key netip.Addr, perAddr bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.maxTotal >= 0 && l.total >= l.maxTotal {
		return false
	}
	if perAddr && l.perAddr[key] >= l.maxPerAddr {
		return false
	}
	l.total++
	if perAddr {
		l.perAddr[key]++
	}
	return true
}

func (l *connLimiter) release(key netip.Addr, perAddr bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total--
	if perAddr {
		if l.perAddr[key]--; l.perAddr[key] <= 0 {
			delete(l.perAddr, key)
		}
	}
}

// limitedConn gives its place back once, on the first Close.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
