package extract

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// blockedPrefixes are the ranges a fetch may never reach, with the reason
// shown to the user. Order matters only for the reason text.
var blockedPrefixes = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified or this-network address"},
	{netip.MustParsePrefix("::/128"), "unspecified address"},
	{netip.MustParsePrefix("169.254.169.254/32"), "cloud metadata address"},
	{netip.MustParsePrefix("fd00:ec2::254/128"), "cloud metadata address"},
	{netip.MustParsePrefix("100.100.100.200/32"), "cloud metadata address"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private network"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private network"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private network"},
	{netip.MustParsePrefix("fc00::/7"), "private network"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared address space (carrier-grade NAT)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local address"},
	{netip.MustParsePrefix("fe80::/10"), "link-local address"},
	{netip.MustParsePrefix("fec0::/10"), "site-local address"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast address"},
	{netip.MustParsePrefix("ff00::/8"), "multicast address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignment"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation address"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking network"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved address"},
	{netip.MustParsePrefix("100::/64"), "discard-only address"},
}

// blockedReason says why addr may not be reached, or "" when it may.
// IPv4 addresses embedded in IPv6 (mapped, NAT64, 6to4, IPv4-compatible)
// are checked as the IPv4 address they carry.
func blockedReason(addr netip.Addr) string {
	addr = addr.WithZone("")
	if addr.Is4In6() {
		addr = addr.Unmap()
	}
	if addr.Is6() {
		b := addr.As16()
		var v4 netip.Addr
		switch {
		case netip.MustParsePrefix("64:ff9b::/96").Contains(addr), netip.MustParsePrefix("64:ff9b:1::/48").Contains(addr):
			v4 = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		case netip.MustParsePrefix("2002::/16").Contains(addr):
			v4 = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
		case addr == netip.IPv6Loopback() || addr == netip.IPv6Unspecified():
			// ::1 and :: are in ::/96 but are themselves, not 0.0.0.1 and
			// 0.0.0.0: the table below names them.
		case netip.MustParsePrefix("::/96").Contains(addr):
			// IPv4-compatible (deprecated) addresses, ::a.b.c.d.
			v4 = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		}
		if v4.IsValid() {
			if r := blockedReason(v4); r != "" {
				return r
			}
		}
	}
	for _, p := range blockedPrefixes {
		if p.prefix.Contains(addr) {
			return p.reason
		}
	}
	if addr == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return "broadcast address"
	}
	return ""
}

// parseLegacyIPv4 reads the spellings of an IPv4 address that inet_aton and
// browsers accept but netip does not: "2130706433", "0x7f.1", "0177.0.0.1".
// ok is false when host is not such a spelling.
func parseLegacyIPv4(host string) (netip.Addr, bool) {
	if host == "" || strings.HasSuffix(host, "..") {
		return netip.Addr{}, false
	}
	host = strings.TrimSuffix(host, ".")
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" {
			return netip.Addr{}, false
		}
		base := 10
		switch {
		case len(p) > 1 && (p[:2] == "0x" || p[:2] == "0X"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		n, err := strconv.ParseUint(p, base, 64)
		if err != nil {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	last := nums[len(nums)-1]
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
	}
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	var v uint32
	for i, n := range nums[:len(nums)-1] {
		v |= uint32(n) << (24 - 8*i)
	}
	v |= uint32(last)
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// checkAddr returns an error wrapping ErrBlockedAddress when addr may not be
// reached and private addresses are not allowed.
func checkAddr(addr netip.Addr, allowPrivate bool) error {
	if allowPrivate {
		return nil
	}
	if r := blockedReason(addr); r != "" {
		return &blockedError{addr: addr.WithZone("").Unmap(), reason: r}
	}
	return nil
}

type blockedError struct {
	addr   netip.Addr
	reason string
}

func (e *blockedError) Error() string {
	return fmt.Sprintf("the address %s is not allowed: %s", e.addr, e.reason)
}

func (e *blockedError) Unwrap() error { return ErrBlockedAddress }
