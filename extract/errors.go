package extract

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrBlockedAddress is wrapped by the *URLError returned when the dial-time
// guard refused an address (loopback, private, link-local, multicast,
// cloud metadata ...). Test for it with errors.Is.
var ErrBlockedAddress = errors.New("extract: address not allowed")

// A URLError reports a URL that is unacceptable in itself: a scheme other
// than http or https, a malformed URL, or a host that is (or resolves to, or
// redirects to) an address that is not allowed. A server answers it with 422.
//
// URL is kept whole for the caller; Error shows it without user
// information, query or fragment, so the text is safe to log.
type URLError struct {
	URL    string // the URL as given, or the redirect target at fault
	Reason string // a short sentence for a person
	Err    error  // the underlying error, if any
}

func (e *URLError) Error() string {
	return fmt.Sprintf("extract: url %q: %s", redactURL(e.URL), e.Reason)
}

func (e *URLError) Unwrap() error { return e.Err }

// Causes carried by [FetchError.Cause].
const (
	CauseDNS         = "dns"          // the host name did not resolve
	CauseConnect     = "connect"      // the connection was refused or reset
	CauseTimeout     = "timeout"      // Options.Timeout or the context ran out
	CauseTLS         = "tls"          // the TLS handshake or certificate failed
	CauseStatus      = "status"       // the server answered a status other than 2xx
	CauseContentType = "content_type" // the page is not HTML or text
	CauseTooLarge    = "too_large"    // the page exceeds Options.MaxBytes
	CauseRedirects   = "redirects"    // more than Options.MaxRedirects redirects
	CauseRead        = "read"         // the body could not be read or decoded
	CauseTooComplex  = "too_complex"  // the page exceeds Options.MaxNodes; wraps ErrTooComplex
)

// A FetchError reports a page that could not be fetched although its URL was
// acceptable. A server answers it with 502 and Cause as the machine code.
//
// URL is kept whole for the caller; Error shows it, and the URL in the
// underlying client error, without user information, query or fragment,
// so the text is safe to log.
type FetchError struct {
	URL        string // the URL being fetched when the error happened
	Cause      string // one of the Cause* constants
	StatusCode int    // the upstream status for CauseStatus, else 0
	Err        error  // the underlying error, if any
}

func (e *FetchError) Error() string {
	msg := fmt.Sprintf("extract: fetch %q: %s", redactURL(e.URL), e.Cause)
	if e.StatusCode != 0 {
		msg += fmt.Sprintf(" %d", e.StatusCode)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *FetchError) Unwrap() error { return e.Err }

// redactURL returns raw without the parts that commonly carry secrets: the
// user information (user:password@) becomes "[redacted]@", and the query
// and fragment become "?[redacted]" and "#[redacted]". Scheme, host, port
// and path are kept, so that the text still says which page failed. It
// works on text that does not parse as a URL too.
func redactURL(raw string) string {
	rest := raw
	var b strings.Builder
	if i := strings.Index(rest, "://"); i >= 0 && !strings.ContainsAny(rest[:i], "/?#") {
		b.WriteString(rest[:i+3])
		rest = rest[i+3:]
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
			b.WriteString("[redacted]")
			rest = rest[at:]
		}
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		b.WriteString(rest[:i])
		if rest[i] == '?' {
			b.WriteString("?[redacted]")
			rest = rest[i+1:]
			if j := strings.IndexByte(rest, '#'); j >= 0 {
				b.WriteString("#[redacted]")
			}
		} else {
			b.WriteString("#[redacted]")
		}
		return b.String()
	}
	b.WriteString(rest)
	return b.String()
}

// redactErr redacts the URL a *url.Error carries (net/http's client and
// url.Parse put the whole URL in their error text), so that the error can
// be wrapped and its text logged. It changes err in place and returns it.
func redactErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = redactURL(ue.URL)
	}
	return err
}
