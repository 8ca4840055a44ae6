package access

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientKey is the context key of the client's address (WithClient).
type clientKey struct{}

// WithClient returns ctx carrying addr, the address of the client a
// request comes from ([ClientAddr]), which the gate's per-client limits
// read (see UnknownKeysPerSecond).
func WithClient(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, clientKey{}, addr)
}

// clientFrom returns the client's address ctx carries, counted as
// [ClientKey] does, or "" for none.
func clientFrom(ctx context.Context) string {
	addr, _ := ctx.Value(clientKey{}).(string)
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
