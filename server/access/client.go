package access

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientKey is the context key of the request's client (WithClient,
// WithRequestClient).
type clientKey struct{}

// A client is where a request comes from: an address, or the request
// and trusted proxies to read it from when it is first needed (most
// requests never need it: a cached key does not).
type client struct {
	addr    string
	r       *http.Request
	trusted []netip.Prefix
}

// WithClient returns ctx carrying addr, the address of the client a
// request comes from ([ClientAddr]), which the gate's per-client limits
// read (see UnknownKeysPerSecond).
func WithClient(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, clientKey{}, client{addr: addr})
}

// WithRequestClient is WithClient with the address read from r, as
// [ClientAddr] reads it, only when a limit needs it.
func WithRequestClient(ctx context.Context, r *http.Request, trusted []netip.Prefix) context.Context {
	return context.WithValue(ctx, clientKey{}, client{r: r, trusted: trusted})
}

// clientFrom returns the client's address ctx carries, counted as
// [ClientKey] does, or "" for none.
func clientFrom(ctx context.Context) string {
	c, _ := ctx.Value(clientKey{}).(client)
	addr := c.addr
	if addr == "" && c.r != nil {
		addr = ClientAddr(c.r, c.trusted)
	}
	if addr == "" {
		return ""
	}
	return ClientKey(addr)
}

// ClientAddr is the address a request comes from, for the per-address
// limits (which count an IPv6 address by its /64): the socket's peer, or,
// when the peer is one of the trusted proxies, the right-most
// X-Forwarded-For hop that is not one. A stranger cannot choose it by
// sending X-Forwarded-For itself.
func ClientAddr(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	if !isTrusted(peer, trusted) {
		return peer.Unmap().String()
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		for _, h := range strings.Split(v, ",") {
			hops = append(hops, strings.TrimSpace(h))
		}
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(hops[i])
		if err != nil {
			break
		}
		if !isTrusted(a, trusted) {
			return a.Unmap().String()
		}
	}
	return peer.Unmap().String()
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	a = a.Unmap()
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
