package server

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/mail"
)

// Config configures a Server. The zero value serves on ":8080" with the
// documented limits.
type Config struct {
	// Addr is the listen address; "" means ":8080".
	Addr string
	// BaseURL is the public address of the API, used in docs and links;
	// "" means LocalURL(Addr). Links never come from a request's Host
	// header, which a client chooses.
	BaseURL string
	// AdminAddr is the listen address of the operator endpoints
	// (/metrics, /healthz, /readyz), which the public address does not
	// serve; "" means DefaultAdminAddr, on loopback, and "off" serves
	// them nowhere. ListenAndServe opens it; AdminHandler serves it for
	// those who listen themselves.
	AdminAddr string
	// MCPAllowedOrigins are the web origins (scheme://host[:port]) whose
	// pages may call the MCP endpoint besides the API's own (the origin of
	// BaseURL, or of LocalURL(Addr) on this machine); a request with any
	// other Origin header gets 403. "*" allows every origin. Clients that
	// send no Origin, which is every client but a browser, are not
	// affected.
	MCPAllowedOrigins []string
	// MaxBodyBytes caps a POST body; 0 means 1 MiB. Larger bodies get 413.
	MaxBodyBytes int64
	// RequestTimeout caps the work of one request; 0 means 30 s. The
	// analysis is cancelled when it runs out (504).
	RequestTimeout time.Duration
	// ReadHeaderTimeout is how long a client may take to send its request
	// headers; 0 means 10 s. A slow client is cut off after it.
	ReadHeaderTimeout time.Duration
	// ShutdownTimeout is how long ListenAndServe lets in-flight requests
	// finish after its context ends; 0 means 15 s.
	ShutdownTimeout time.Duration
	// DrainDelay is how long ListenAndServe keeps serving, with /readyz
	// answering 503, after its context ends and before the graceful
	// shutdown starts: time for a load balancer to stop sending new
	// requests. 0 means none (/readyz still turns 503 first).
	DrainDelay time.Duration
	// Logger receives one line per request; nil discards.
	Logger *slog.Logger
	// Gate checks keys and meters the operations. nil serves without keys
	// and without the developer site, for local development and embedding;
	// the serve command always sets one.
	Gate *access.Gate
	// DeveloperURL is the developer site's public address; "" means
	// BaseURL + "/developer". The site is served under /developer either way.
	DeveloperURL string
	// Mail sends the developer site's e-mails; nil writes them to Logger
	// with keys redacted.
	Mail mail.Sender
	// TrustedProxies are the peers whose X-Forwarded-For is believed when
	// counting trial keys and mails per client address; nil trusts none. Connections
	// from them are not counted against MaxConnsPerAddr: behind a reverse
	// proxy every connection comes from the proxy.
	TrustedProxies []netip.Prefix
	// MaxConns caps the open connections of Serve, idle keep-alive ones
	// included; 0 means DefaultMaxConns, negative means no cap. A
	// connection past it is closed as soon as it is accepted.
	MaxConns int
	// MaxConnsPerAddr caps the open connections from one client address
	// (IPv4 address, or IPv6 /64) in Serve; 0 means DefaultMaxConnsPerAddr,
	// negative means no cap. Addresses in TrustedProxies are exempt. A
	// connection past it is closed as soon as it is accepted.
	MaxConnsPerAddr int
	// MaxWork caps the weight of the analysis work in flight in this
	// process; 0 means DefaultMaxWork, negative means no cap. A request
	// weighs 2,000 plus the bytes of its query or body, at most the longest
	// text accepted (100,000 by default); one that fetches a page weighs
	// 2,000 while it fetches (see MaxFetches), then a third of the page's
	// bytes more (plus 100,000 for qa) while it extracts and answers. Past
	// the cap a request waits up to MaxWorkWait, then gets 503 with
	// Retry-After, without being counted against its key's allowance; a
	// fetched page waits for room until the request's deadline (504).
	MaxWork int64
	// MaxFetches caps the requests of this process that fetch a page at
	// once (/text, qa with url); 0 means DefaultMaxFetches (16), negative
	// means no cap. Past it a request waits up to MaxWorkWait, then gets
	// 503 with Retry-After, uncounted. A fetched page is then weighed
	// under MaxWork by its size before it is extracted.
	MaxFetches int
	// MaxBodyBuffer caps the bytes of POST bodies of analysis requests
	// that this process reads and holds at once, by their declared length
	// (the body cap when they declare none); 0 means DefaultMaxBodyBuffer
	// (64 MiB), negative means no cap. Past it a request waits up to
	// MaxWorkWait, then gets 503 with Retry-After, uncounted.
	MaxBodyBuffer int64
	// MaxWorkWait is how long a request may wait for room under MaxWork; 0
	// means DefaultMaxWorkWait (1 s), negative means not at all.
	MaxWorkWait time.Duration
	// OperatorEmail receives the developer site's requests for Pay as you
	// go or a higher cap; "" writes them to Logger (account and request
	// IDs only).
	OperatorEmail string
}

// Defaults for the zero fields of Config.
const (
	DefaultAddr            = ":8080"
	DefaultAdminAddr       = "127.0.0.1:9090"
	DefaultMaxBodyBytes    = 1 << 20
	DefaultRequestTimeout  = 30 * time.Second
	DefaultShutdownTimeout = 15 * time.Second
	DefaultMaxConns        = 1024
	DefaultMaxConnsPerAddr = 64
)

// Validate reports a configuration that cannot work.
func (c Config) Validate() error {
	var errs []error
	if c.MaxBodyBytes < 0 {
		errs = append(errs, errors.New("server: MaxBodyBytes must not be negative"))
	}
	if c.RequestTimeout < 0 {
		errs = append(errs, errors.New("server: RequestTimeout must not be negative"))
	}
	for name, v := range map[string]string{"BaseURL": c.BaseURL, "DeveloperURL": c.DeveloperURL} {
		if v == "" {
			continue
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("server: %s %q is not an absolute http(s) URL", name, v))
		}
	}
	if c.OperatorEmail != "" {
		if _, err := access.NormalizeEmail(c.OperatorEmail); err != nil {
			errs = append(errs, fmt.Errorf("server: OperatorEmail %q is not an e-mail address", c.OperatorEmail))
		}
	}
	return errors.Join(errs...)
}

func (c Config) withDefaults() Config {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	if c.ReadHeaderTimeout == 0 {
		c.ReadHeaderTimeout = 10 * time.Second
	}
	if c.ShutdownTimeout == 0 {
		c.ShutdownTimeout = DefaultShutdownTimeout
	}
	if c.MaxConns == 0 {
		c.MaxConns = DefaultMaxConns
	}
	if c.MaxConnsPerAddr == 0 {
		c.MaxConnsPerAddr = DefaultMaxConnsPerAddr
	}
	if c.MaxWork == 0 {
		c.MaxWork = DefaultMaxWork
	}
	if c.MaxBodyBuffer == 0 {
		c.MaxBodyBuffer = DefaultMaxBodyBuffer
	}
	if c.MaxFetches == 0 {
		c.MaxFetches = DefaultMaxFetches
	}
	if c.MaxWorkWait == 0 {
		c.MaxWorkWait = DefaultMaxWorkWait
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.AdminAddr == "" {
		c.AdminAddr = DefaultAdminAddr
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	c.DeveloperURL = strings.TrimRight(c.DeveloperURL, "/")
	return c
}
