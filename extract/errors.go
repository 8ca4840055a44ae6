package extract

import (
	"errors"
	"fmt"
)

// ErrBlockedAddress is wrapped by the *URLError returned when the dial-time
// guard refused an address (loopback, private, link-local, multicast,
// cloud metadata ...). Test for it with errors.Is.
var ErrBlockedAddress = errors.New("extract: address not allowed")

// A URLError reports a URL that is unacceptable in itself: a scheme other
// than http or https, a malformed URL, or a host that is (or resolves to, or
// redirects to) an address that is not allowed. A server answers it with 422.
type URLError struct {
	URL    string // the URL as given, or the redirect target at fault
	Reason string // a short sentence for a person
	Err    error  // the underlying error, if any
}

func (e *URLError) Error() string {
	return fmt.Sprintf("extract: url %q: %s", e.URL, e.Reason)
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
type FetchError struct {
	URL        string // the URL being fetched when the error happened
	Cause      string // one of the Cause* constants
	StatusCode int    // the upstream status for CauseStatus, else 0
	Err        error  // the underlying error, if any
}

func (e *FetchError) Error() string {
	msg := fmt.Sprintf("extract: fetch %q: %s", e.URL, e.Cause)
	if e.StatusCode != 0 {
		msg += fmt.Sprintf(" %d", e.StatusCode)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *FetchError) Unwrap() error { return e.Err }
