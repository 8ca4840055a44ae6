package extract

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"
)

const testArticle = `<html lang="en"><head><title>Test page</title></head><body><article>
<p>The committee met on Thursday and agreed, after a long debate, to keep the library open on Sundays.</p>
<p>Funding for the extra hours comes from the town's cultural budget, which grows by four percent next year.</p>
</article></body></html>`

// serve starts a test server answering every request with h.
func serve(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func htmlHandler(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}
}

func TestFromURLBlocksAddresses(t *testing.T) {
	// None of these may be dialled. The guard refuses before connecting, so
	// the addresses need not exist.
	tests := []struct {
		name string
		url  string
	}{
		{"loopback", "http://127.0.0.1/"},
		{"loopback range", "http://127.5.6.7:8080/"},
		{"loopback ipv6", "http://[::1]/"},
		{"localhost name", "http://localhost/"},
		{"unspecified", "http://0.0.0.0/"},
		{"private 10", "http://10.1.2.3/"},
		{"private 172", "http://172.16.0.1/"},
		{"private 192", "http://192.168.1.1/"},
		{"private ipv6", "http://[fd12:3456::1]/"},
		{"carrier nat", "http://100.64.0.1/"},
		{"link-local", "http://169.254.10.10/"},
		{"link-local ipv6", "http://[fe80::1]/"},
		{"cloud metadata", "http://169.254.169.254/latest/meta-data/"},
		{"aws metadata ipv6", "http://[fd00:ec2::254]/"},
		{"ipv4-mapped ipv6", "http://[::ffff:127.0.0.1]/"},
		{"ipv4-mapped hex", "http://[::ffff:7f00:1]/"},
		{"ipv4-mapped metadata", "http://[::ffff:169.254.169.254]/"},
		{"nat64 private", "http://[64:ff9b::a00:1]/"},
		{"6to4 loopback", "http://[2002:7f00:1::]/"},
		{"decimal", "http://2130706433/"},
		{"octal", "http://0177.0.0.1/"},
		{"hex", "http://0x7f000001/"},
		{"hex dotted", "http://0x7f.0.0.1/"},
		{"short form", "http://127.1/"},
		{"decimal metadata", "http://2852039166/"},
		{"multicast", "http://224.0.0.1/"},
		{"broadcast", "http://255.255.255.255/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromURL(t.Context(), tt.url, Options{Timeout: 2 * time.Second})
			var uerr *URLError
			require.ErrorAs(t, err, &uerr)
			assert.ErrorIs(t, err, ErrBlockedAddress)
			assert.Contains(t, uerr.Reason, "is not allowed")
		})
	}
}

func TestFromURLSchemes(t *testing.T) {
	tests := []struct {
		name, url, reason string
	}{
		{"file", "file:///etc/passwd", "only http and https URLs are allowed"},
		{"ftp", "ftp://example.com/x", "only http and https URLs are allowed"},
		{"gopher", "gopher://example.com:70/", "only http and https URLs are allowed"},
		{"javascript", "javascript:alert(1)", "only http and https URLs are allowed"},
		{"data", "data:text/html,<p>hi", "only http and https URLs are allowed"},
		{"relative", "/just/a/path", "only http and https URLs are allowed"},
		{"no host", "http:///path", "the URL has no host"},
		{"bad port", "http://example.com:99999/", "the URL has an invalid port"},
		{"malformed", "http://[::1", "the URL is malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromURL(t.Context(), tt.url, Options{})
			var uerr *URLError
			require.ErrorAs(t, err, &uerr)
			assert.Equal(t, tt.reason, uerr.Reason)
			assert.NotErrorIs(t, err, ErrBlockedAddress)
		})
	}
}

// publicGuard treats only the given test server as public, the way the real
// guard treats an Internet address; everything else gets the real check.
func publicGuard(t testing.TB, srv *httptest.Server) func(netip.AddrPort) error {
	t.Helper()
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	public := netip.MustParseAddrPort(u.Host)
	return func(ap netip.AddrPort) error {
		if ap == public {
			return nil
		}
		return checkAddr(ap.Addr(), false)
	}
}

func TestFromURLRedirectToPrivate(t *testing.T) {
	var reached atomic.Bool
	secret := serve(t, func(w http.ResponseWriter, r *http.Request) {
		reached.Store(true)
		fmt.Fprint(w, "<p>internal secret</p>")
	})
	targets := map[string]string{
		"loopback server": secret.URL + "/admin",
		"localhost name":  strings.Replace(secret.URL, "127.0.0.1", "localhost", 1),
		"metadata":        "http://169.254.169.254/latest/meta-data/",
		"decimal":         "http://2130706433:" + secret.URL[strings.LastIndex(secret.URL, ":")+1:] + "/",
		"file scheme":     "file:///etc/passwd",
	}
	for name, target := range targets {
		t.Run(name, func(t *testing.T) {
			front := serve(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target, http.StatusFound)
			})
			_, err := fromURL(t.Context(), front.URL, Options{Timeout: 2 * time.Second}, publicGuard(t, front))
			var uerr *URLError
			require.ErrorAs(t, err, &uerr)
			if name != "file scheme" {
				assert.ErrorIs(t, err, ErrBlockedAddress)
			}
			assert.False(t, reached.Load(), "the private server was reached")
		})
	}
}

func TestFromURLPublicGuardAllowsPage(t *testing.T) {
	srv := serve(t, htmlHandler(testArticle))
	p, err := fromURL(t.Context(), srv.URL+"/a", Options{}, publicGuard(t, srv))
	require.NoError(t, err)
	assert.Contains(t, p.Text, "The committee met on Thursday")
	_, err = FromURL(t.Context(), srv.URL+"/a", Options{})
	assert.ErrorIs(t, err, ErrBlockedAddress, "the real guard refuses loopback")
}

func TestFromURLFetchErrors(t *testing.T) {
	big := strings.Repeat("<p>filler text for a large page</p>\n", 200) // about 7 KiB
	redirectLoop := func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop?"+r.URL.RawQuery+"x", http.StatusFound)
	}
	tests := []struct {
		name    string
		handler http.HandlerFunc
		opts    Options
		cause   string
		status  int
	}{
		{"not found", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "gone", http.StatusNotFound) }, Options{}, CauseStatus, 404},
		{"server error", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", http.StatusBadGateway) }, Options{}, CauseStatus, 502},
		{"image", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("\x89PNG\r\n\x1a\n"))
		}, Options{}, CauseContentType, 0},
		{"pdf", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte("%PDF-1.4"))
		}, Options{}, CauseContentType, 0},
		{"untyped binary", func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil
			w.Write([]byte("\x00\x01\x02\x03binary\x00\x00"))
		}, Options{}, CauseContentType, 0},
		{"too large with length", htmlHandler(big), Options{MaxBytes: 1024}, CauseTooLarge, 0},
		{"too large chunked", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			for range 10 {
				fmt.Fprint(w, big[:1000])
				w.(http.Flusher).Flush()
			}
		}, Options{MaxBytes: 4096}, CauseTooLarge, 0},
		{"gzip bomb", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			zw.Write(bytes.Repeat([]byte(" "), 1<<20))
			zw.Close()
		}, Options{MaxBytes: 64 << 10}, CauseTooLarge, 0},
		{"slow", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		}, Options{Timeout: 200 * time.Millisecond}, CauseTimeout, 0},
		{"slow body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<p>start")
			w.(http.Flusher).Flush()
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		}, Options{Timeout: 200 * time.Millisecond}, CauseTimeout, 0},
		{"redirect loop", redirectLoop, Options{MaxRedirects: 3}, CauseRedirects, 0},
		{"no redirects allowed", redirectLoop, Options{MaxRedirects: -1}, CauseRedirects, 0},
		{"bad encoding", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "compress")
			fmt.Fprint(w, "x")
		}, Options{}, CauseRead, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, tt.handler)
			tt.opts.AllowPrivate = true
			_, err := FromURL(t.Context(), srv.URL+"/page", tt.opts)
			var ferr *FetchError
			require.ErrorAs(t, err, &ferr)
			assert.Equal(t, tt.cause, ferr.Cause, "error: %v", err)
			assert.Equal(t, tt.status, ferr.StatusCode)
			assert.True(t, strings.HasPrefix(err.Error(), "extract: "), err.Error())
		})
	}
}

func TestFromURLConnectAndTLS(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	addr := closed.URL
	closed.Close()
	_, err := FromURL(t.Context(), addr, Options{AllowPrivate: true})
	var ferr *FetchError
	require.ErrorAs(t, err, &ferr)
	assert.Equal(t, CauseConnect, ferr.Cause)

	tlsSrv := httptest.NewUnstartedServer(htmlHandler(testArticle))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0)
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	_, err = FromURL(t.Context(), tlsSrv.URL, Options{AllowPrivate: true})
	require.ErrorAs(t, err, &ferr)
	assert.Equal(t, CauseTLS, ferr.Cause, "error: %v", err)
}

func TestFromURLDNS(t *testing.T) {
	_, err := FromURL(t.Context(), "http://no-such-host.invalid/", Options{Timeout: 3 * time.Second})
	var ferr *FetchError
	require.ErrorAs(t, err, &ferr)
	// Without a resolver the lookup may time out instead of failing.
	assert.Contains(t, []string{CauseDNS, CauseTimeout}, ferr.Cause, "error: %v", err)
}

func TestFromURLEncodingsAndCharsets(t *testing.T) {
	compress := map[string]func([]byte) []byte{
		"gzip": func(b []byte) []byte {
			var buf bytes.Buffer
			w := gzip.NewWriter(&buf)
			w.Write(b)
			w.Close()
			return buf.Bytes()
		},
		"deflate": func(b []byte) []byte {
			var buf bytes.Buffer
			w := zlib.NewWriter(&buf)
			w.Write(b)
			w.Close()
			return buf.Bytes()
		},
		"raw-deflate": func(b []byte) []byte {
			var buf bytes.Buffer
			w, _ := flate.NewWriter(&buf, flate.DefaultCompression)
			w.Write(b)
			w.Close()
			return buf.Bytes()
		},
		"br": func(b []byte) []byte {
			var buf bytes.Buffer
			w := brotli.NewWriter(&buf)
			w.Write(b)
			w.Close()
			return buf.Bytes()
		},
	}
	latin1, err := charmap.Windows1252.NewEncoder().String(
		`<html><body><article><p>Le café au lait est une boisson très populaire, servie le matin dans un grand bol.</p></article></body></html>`)
	require.NoError(t, err)
	late, err := charmap.ISO8859_2.NewEncoder().String(
		`<html><head><!--` + strings.Repeat(" padding", 300) + `--><meta charset="iso-8859-2"></head><body><article>` +
			`<p>Zażółć gęślą jaźń: to zdanie zawiera wszystkie polskie litery, a więc sprawdza kodowanie.</p></article></body></html>`)
	require.NoError(t, err)
	tests := []struct {
		name        string
		body        []byte
		contentType string
		encoding    string
		want        string
	}{
		{"gzip", []byte(testArticle), "text/html", "gzip", "The committee met"},
		{"deflate", []byte(testArticle), "text/html", "deflate", "The committee met"},
		{"raw deflate", []byte(testArticle), "text/html", "raw-deflate", "The committee met"},
		{"brotli", []byte(testArticle), "text/html", "br", "The committee met"},
		{"header charset", []byte(latin1), "text/html; charset=windows-1252", "", "Le café au lait"},
		{"undeclared latin1", []byte(latin1), "text/html", "", "Le café au lait"},
		{"meta charset after 1 KiB", []byte(late), "text/html", "", "Zażółć gęślą jaźń"},
		{"utf-8 despite header", []byte("<p>Grüße aus Köln, wo es heute regnet und die Straßen voller Menschen sind.</p>"), "text/html; charset=iso-8859-1", "", "Grüße aus Köln"},
		{"plain text", []byte("First paragraph of a plain text file.\n\nSecond   paragraph."), "text/plain; charset=utf-8", "", "First paragraph of a plain text file.\n\nSecond paragraph."},
		{"no content type", []byte(testArticle), "", "", "The committee met"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotAE string
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				gotAE = r.Header.Get("Accept-Encoding")
				body := tt.body
				if tt.encoding != "" {
					body = compress[tt.encoding](body)
					enc := tt.encoding
					if enc == "raw-deflate" {
						enc = "deflate"
					}
					w.Header().Set("Content-Encoding", enc)
				}
				if tt.contentType == "" {
					w.Header()["Content-Type"] = nil
				} else {
					w.Header().Set("Content-Type", tt.contentType)
				}
				w.Write(body)
			})
			p, err := FromURL(t.Context(), srv.URL+"/x", Options{AllowPrivate: true})
			require.NoError(t, err)
			assert.Contains(t, p.Text, tt.want)
			assert.Equal(t, "gzip, deflate, br", gotAE)
		})
	}
}

func TestFromURLFollowsRedirect(t *testing.T) {
	var ua string
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		ua = r.Header.Get("User-Agent")
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		htmlHandler(testArticle)(w, r)
	})
	p, err := FromURL(t.Context(), srv.URL+"/old", Options{AllowPrivate: true, UserAgent: "tester/1"})
	require.NoError(t, err)
	assert.Equal(t, srv.URL+"/old", p.URL)
	assert.Equal(t, srv.URL+"/new", p.FinalURL)
	assert.Equal(t, "Test page", p.Title)
	assert.Equal(t, "en", p.Language)
	assert.Equal(t, "tester/1", ua)
}

func TestFromURLCanceled(t *testing.T) {
	srv := serve(t, htmlHandler(testArticle))
	ctx, cancel := contextWithCancel(t)
	cancel()
	_, err := FromURL(ctx, srv.URL, Options{AllowPrivate: true})
	require.Error(t, err)
	assert.True(t, errors.Is(err, errCanceled()), "error: %v", err)
}

func TestParseLegacyIPv4(t *testing.T) {
	tests := []struct {
		host string
		want string
		ok   bool
	}{
		{"2130706433", "127.0.0.1", true},
		{"0x7f000001", "127.0.0.1", true},
		{"0177.0.0.1", "127.0.0.1", true},
		{"0x7f.1", "127.0.0.1", true},
		{"127.1", "127.0.0.1", true},
		{"10.0x10.1", "10.16.0.1", true},
		{"1.2.3.4", "1.2.3.4", true},
		{"4294967296", "", false},
		{"1.2.3.256", "", false},
		{"example.com", "", false},
		{"1.2.3.4.5", "", false},
		{"08.1.1.1", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			a, ok := parseLegacyIPv4(tt.host)
			assert.Equal(t, tt.ok, ok)
			if ok {
				assert.Equal(t, tt.want, a.String())
			}
		})
	}
}

func TestBlockedReasonPublic(t *testing.T) {
	for _, s := range []string{"93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8", "172.32.0.1", "100.128.0.1"} {
		assert.Empty(t, blockedReason(netip.MustParseAddr(s)), s)
	}
}

func TestFromURLAsksAdmissionWithThePageSize(t *testing.T) {
	page := "<html><body><article><p>" + strings.Repeat("Admission weighs the page. ", 40) + "</p></article></body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, page)
	}))
	t.Cleanup(srv.Close)
	opts := Options{AllowPrivate: true}

	var asked, released int
	ctx := WithAdmission(t.Context(), func(ctx context.Context, n int) (func(), error) {
		asked = n
		return func() { released++ }, nil
	})
	p, err := FromURL(ctx, srv.URL, opts)
	require.NoError(t, err)
	assert.Contains(t, p.Text, "Admission weighs the page.")
	assert.Equal(t, len(page), asked, "admission sees the bytes read")
	assert.Equal(t, 1, released, "released once the extraction is done")

	busy := errors.New("busy")
	ctx = WithAdmission(t.Context(), func(context.Context, int) (func(), error) { return nil, busy })
	_, err = FromURL(ctx, srv.URL, opts)
	assert.ErrorIs(t, err, busy, "a refusal is returned as it is")
}
