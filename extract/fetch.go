package extract

import (
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"

	"github.com/andybalholm/brotli"
)

// FromURL fetches rawURL and extracts its main text, as [FromHTML] does.
//
// It returns a *URLError when the URL is unacceptable (not http or https,
// malformed, or reaching an address that is not allowed; the latter wraps
// ErrBlockedAddress) and a *FetchError when the page could not be fetched
// (a deadline, Options.Timeout's or ctx's, is cause "timeout"; a page over
// Options.MaxNodes is cause "too_complex" and wraps ErrTooComplex). When
// ctx is canceled, or its deadline passes while the page is being
// extracted, the error wraps ctx's error and is neither. Plain-text
// pages are returned as they are. Each call uses its own connection: no
// state is shared between calls.
func FromURL(ctx context.Context, rawURL string, opts Options) (*Page, error) {
	return fromURL(ctx, rawURL, opts, nil)
}

// fromURL is FromURL with a replaceable address guard (tests use it to
// treat one loopback server as public); nil means checkAddr.
func fromURL(ctx context.Context, rawURL string, opts Options, guard func(netip.AddrPort) error) (*Page, error) {
	u, err := checkURL(rawURL)
	if err != nil {
		return nil, err
	}
	if guard == nil {
		guard = func(ap netip.AddrPort) error { return checkAddr(ap.Addr(), opts.AllowPrivate) }
	}
	body, finalURL, contentType, err := fetch(ctx, u, opts, guard)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	release, err := admit(ctx, len(body))
	if err != nil {
		return nil, err
	}
	defer release()
	text := decodeBytes(body, contentType)
	var p *Page
	if mt, _, _ := mime.ParseMediaType(contentType); mt == "text/plain" {
		p = fromPlainText(string(text))
	} else if p, err = extractBytes(text, newWork(ctx, opts)); err != nil {
		if errors.Is(err, ErrTooComplex) {
			return nil, &FetchError{URL: finalURL, Cause: CauseTooComplex, Err: err}
		}
		return nil, err
	}
	p.URL = rawURL
	p.FinalURL = finalURL
	return p, nil
}

// checkURL accepts absolute http and https URLs with a host and rewrites
// legacy numeric IPv4 spellings ("0x7f.1") to their dotted form, so that the
// address check sees what a resolver would.
func checkURL(rawURL string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return nil, &URLError{URL: rawURL, Reason: "the URL is malformed", Err: redactErr(err)}
	}
	if err := checkParsedURL(u, rawURL); err != nil {
		return nil, err
	}
	return u, nil
}

func checkParsedURL(u *url.URL, raw string) error {
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return &URLError{URL: raw, Reason: "only http and https URLs are allowed"}
	}
	host := u.Hostname()
	if host == "" {
		return &URLError{URL: raw, Reason: "the URL has no host"}
	}
	if _, err := netip.ParseAddr(host); err != nil {
		if a, ok := parseLegacyIPv4(host); ok {
			port := u.Port()
			u.Host = a.String()
			if port != "" {
				u.Host = net.JoinHostPort(a.String(), port)
			}
		}
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			return &URLError{URL: raw, Reason: "the URL has an invalid port"}
		}
	}
	return nil
}

// errTooManyRedirects is returned from CheckRedirect.
var errTooManyRedirects = errors.New("too many redirects")

func newClient(opts Options, guard func(netip.AddrPort) error) *http.Client {
	dialer := &net.Dialer{
		Timeout:   opts.timeout(),
		KeepAlive: -1,
		// The guard runs after name resolution, on the address actually
		// dialled, for every connection: DNS rebinding and redirects to a
		// private address are both caught here.
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return &blockedError{reason: "unparsable address " + address}
			}
			return guard(ap)
		},
	}
	tr := &http.Transport{
		Proxy:                  nil, // a proxy would dial on our behalf, past the guard
		DialContext:            dialer.DialContext,
		TLSHandshakeTimeout:    opts.timeout(),
		ResponseHeaderTimeout:  opts.timeout(),
		DisableCompression:     true, // we ask for and decode gzip, deflate and br ourselves
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: 64 << 10,
		ForceAttemptHTTP2:      true,
	}
	maxRedirects := opts.maxRedirects()
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return errTooManyRedirects
			}
			return checkParsedURL(req.URL, req.URL.String())
		},
	}
}

// fetch GETs u and returns the decompressed body (at most MaxBytes), the
// final URL and the Content-Type header.
func fetch(ctx context.Context, u *url.URL, opts Options, guard func(netip.AddrPort) error) (body []byte, finalURL, contentType string, err error) {
	ctx, cancel := context.WithTimeout(ctx, opts.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", "", &URLError{URL: u.String(), Reason: "the URL is malformed", Err: redactErr(err)}
	}
	req.Header.Set("User-Agent", opts.userAgent())
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1")
	req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	client := newClient(opts, guard)
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", "", classify(ctx, u.String(), err)
	}
	defer resp.Body.Close()
	finalURL = resp.Request.URL.String()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, finalURL, "", &FetchError{URL: finalURL, Cause: CauseStatus, StatusCode: resp.StatusCode,
			Err: fmt.Errorf("upstream answered %s", resp.Status)}
	}
	contentType = resp.Header.Get("Content-Type")
	if !acceptableType(contentType) {
		return nil, finalURL, "", &FetchError{URL: finalURL, Cause: CauseContentType,
			Err: fmt.Errorf("content type %q is not HTML or text", contentType)}
	}
	max := opts.maxBytes()
	if resp.ContentLength > max && resp.Header.Get("Content-Encoding") == "" {
		return nil, finalURL, "", &FetchError{URL: finalURL, Cause: CauseTooLarge,
			Err: fmt.Errorf("page has %d bytes, more than the limit of %d", resp.ContentLength, max)}
	}
	r, err := decompress(resp.Body, resp.Header.Get("Content-Encoding"))
	if err != nil {
		return nil, finalURL, "", &FetchError{URL: finalURL, Cause: CauseRead, Err: err}
	}
	body, err = io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		fe := classify(ctx, finalURL, err)
		if f, ok := fe.(*FetchError); ok && f.Cause == CauseConnect {
			f.Cause = CauseRead
		}
		return nil, finalURL, "", fe
	}
	if int64(len(body)) > max {
		return nil, finalURL, "", &FetchError{URL: finalURL, Cause: CauseTooLarge,
			Err: fmt.Errorf("page is larger than the limit of %d bytes", max)}
	}
	if contentType == "" || strings.HasPrefix(strings.ToLower(contentType), "application/octet-stream") {
		sniffed := http.DetectContentType(body)
		if !acceptableType(sniffed) || strings.HasPrefix(sniffed, "application/octet-stream") {
			return nil, finalURL, "", &FetchError{URL: finalURL, Cause: CauseContentType,
				Err: fmt.Errorf("content looks like %q, not HTML or text", sniffed)}
		}
	}
	return body, finalURL, contentType, nil
}

// acceptableType accepts HTML, XHTML and text, and an absent type (the
// body is sniffed later).
func acceptableType(ct string) bool {
	if strings.TrimSpace(ct) == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
	}
	switch mt {
	case "text/html", "application/xhtml+xml", "text/plain", "application/octet-stream":
		return true
	}
	return false
}

func decompress(r io.Reader, encoding string) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
		return r, nil
	case "gzip", "x-gzip":
		return gzip.NewReader(r)
	case "br":
		return brotli.NewReader(r), nil
	case "deflate":
		// "deflate" is zlib-wrapped by the RFC, raw deflate on some servers.
		br := &peekReader{r: r}
		head, err := br.peek(2)
		if err != nil {
			return nil, err
		}
		if len(head) == 2 && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
			return zlib.NewReader(br)
		}
		return flate.NewReader(br), nil
	}
	return nil, fmt.Errorf("unsupported content encoding %q", encoding)
}

// peekReader lets decompress look at the first bytes without losing them.
type peekReader struct {
	r    io.Reader
	head []byte
}

func (p *peekReader) peek(n int) ([]byte, error) {
	buf := make([]byte, n)
	m, err := io.ReadFull(p.r, buf)
	p.head = buf[:m]
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return p.head, err
}

func (p *peekReader) Read(b []byte) (int, error) {
	if len(p.head) > 0 {
		n := copy(b, p.head)
		p.head = p.head[n:]
		return n, nil
	}
	return p.r.Read(b)
}

// classify turns a client error into a *URLError or *FetchError.
func classify(ctx context.Context, rawURL string, err error) error {
	var uerr *URLError
	if errors.As(err, &uerr) {
		return uerr
	}
	var blocked *blockedError
	if errors.As(err, &blocked) {
		return &URLError{URL: rawURL, Reason: blocked.Error(), Err: blocked}
	}
	if ue := (*url.Error)(nil); errors.As(err, &ue) && ue.URL != "" {
		rawURL = ue.URL
		// The client's error text repeats the URL, query included; the
		// FetchError keeps it whole in its URL field instead.
		ue.URL = redactURL(ue.URL)
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("extract: fetch: %w", err)
	}
	fe := &FetchError{URL: rawURL, Err: err}
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	var netErr net.Error
	switch {
	case errors.Is(err, errTooManyRedirects):
		fe.Cause = CauseRedirects
	case errors.Is(err, context.DeadlineExceeded), ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		fe.Cause = CauseTimeout
	case errors.As(err, &dnsErr):
		fe.Cause = CauseDNS
	case errors.As(err, &certErr), errors.As(err, &recErr), errors.As(err, &unknownAuth),
		errors.As(err, &hostErr), errors.As(err, &invalidCert), strings.Contains(err.Error(), "tls: "):
		fe.Cause = CauseTLS
	case errors.As(err, &netErr) && netErr.Timeout():
		fe.Cause = CauseTimeout
	default:
		fe.Cause = CauseConnect
	}
	return fe
}

// fromPlainText makes a Page of a text/plain body.
func fromPlainText(text string) *Page {
	text = normalizeText(text)
	p := &Page{Text: text, WordCount: countWords(text)}
	p.Language = detectLanguage(text)
	return p
}
