package extract

import "time"

// Defaults used when the corresponding [Options] field is zero.
const (
	DefaultMaxBytes     int64         = 5 << 20
	DefaultTimeout      time.Duration = 10 * time.Second
	DefaultMaxRedirects int           = 10
	DefaultUserAgent    string        = "go-textanalysis/0.1 (+https://github.com/textanalysis/go-textanalysis)"
)

// Options tune fetching and extraction. The zero value works.
type Options struct {
	// MaxBytes caps the page size, after decompression. Zero means
	// DefaultMaxBytes (5 MiB). A larger page is a *FetchError with cause
	// "too_large" from FromURL; FromHTML reads at most MaxBytes and ignores
	// the rest.
	MaxBytes int64
	// Timeout bounds the whole fetch, redirects included. Zero means
	// DefaultTimeout (10 s).
	Timeout time.Duration
	// MaxRedirects caps how many redirects FromURL follows. Zero means
	// DefaultMaxRedirects (10); a negative value follows none.
	MaxRedirects int
	// AllowPrivate lets FromURL reach loopback, private, link-local and other
	// non-public addresses. False (the zero value) refuses them; set it only
	// in tests.
	AllowPrivate bool
	// UserAgent is sent with every request. Empty means DefaultUserAgent.
	UserAgent string
	// MaxNodes is the work budget for extracting one page: how many
	// elements and runs of text its tree may have (the contents of
	// script, style and svg elements and comments are not counted).
	// Extraction takes time and memory linear in it, about 150 bytes per
	// node. A page with more is ErrTooComplex. Zero means DefaultMaxNodes
	// (1,000,000), which real pages up to 5 MiB stay well below; a
	// negative value means no limit.
	MaxNodes int
}

func (o Options) maxBytes() int64 {
	if o.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

func (o Options) maxNodes() int {
	if o.MaxNodes == 0 {
		return DefaultMaxNodes
	}
	return o.MaxNodes
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

func (o Options) maxRedirects() int {
	switch {
	case o.MaxRedirects == 0:
		return DefaultMaxRedirects
	case o.MaxRedirects < 0:
		return 0
	}
	return o.MaxRedirects
}

func (o Options) userAgent() string {
	if o.UserAgent == "" {
		return DefaultUserAgent
	}
	return o.UserAgent
}
