package extract

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://example.com/a/b", "https://example.com/a/b"},
		{"https://user:pw@example.com/a?access_token=s3cret#frag", "https://[redacted]@example.com/a?[redacted]#[redacted]"},
		{"https://token@example.com", "https://[redacted]@example.com"},
		{"http://a@b@example.com:8080/p", "http://[redacted]@example.com:8080/p"},
		{"http://example.com/p?x=1", "http://example.com/p?[redacted]"},
		{"http://example.com/p#secret", "http://example.com/p#[redacted]"},
		{"http://example.com/p/@notuser?q", "http://example.com/p/@notuser?[redacted]"},
		{"example.com?token=1", "example.com?[redacted]"},
		{"ht!tp://u:p@[bad", "ht!tp://[redacted]@[bad"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, redactURL(tt.in))
		})
	}
}

// The error texts of fetches reach server logs: they must not carry the
// user information or query of the URL, whichever way the fetch failed.
func TestErrorTextsAreRedacted(t *testing.T) {
	const user, password, token = "alice", "pa55word", "tok3nvalue"
	failing := serve(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", http.StatusInternalServerError) })
	redirecting := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, failing.URL+"/next?access_token="+token, http.StatusFound)
	})
	slow := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	withSecrets := func(base string) string {
		u, err := url.Parse(base)
		require.NoError(t, err)
		u.User = url.UserPassword(user, password)
		u.Path = "/page"
		u.RawQuery = "access_token=" + token
		u.Fragment = token + "frag"
		return u.String()
	}
	tests := []struct {
		name string
		url  string
		opts Options
	}{
		{"upstream status", withSecrets(failing.URL), Options{AllowPrivate: true}},
		{"redirect to a failing page", withSecrets(redirecting.URL), Options{AllowPrivate: true}},
		{"connection refused", withSecrets(closed.URL), Options{AllowPrivate: true}},
		{"timeout", withSecrets(slow.URL), Options{AllowPrivate: true, Timeout: 100 * time.Millisecond}},
		{"too many redirects", withSecrets(redirecting.URL), Options{AllowPrivate: true, MaxRedirects: -1}},
		{"blocked address", withSecrets(failing.URL), Options{}},
		{"bad scheme", "ftp://" + user + ":" + password + "@example.com/?access_token=" + token, Options{}},
		{"malformed", "http://" + user + ":" + password + "@exa mple.com:99999/?access_token=" + token, Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromURL(t.Context(), tt.url, tt.opts)
			require.Error(t, err)
			text := err.Error()
			for _, secret := range []string{password, token, user + ":"} {
				assert.NotContains(t, text, secret)
			}
			for e := err; e != nil; {
				for _, secret := range []string{password, token} {
					assert.NotContains(t, e.Error(), secret, "wrapped %T", e)
				}
				u, ok := e.(interface{ Unwrap() error })
				if !ok {
					break
				}
				e = u.Unwrap()
			}
		})
	}
}

func TestFetchErrorKeepsTheURL(t *testing.T) {
	failing := serve(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", http.StatusInternalServerError) })
	raw := failing.URL + "/page?access_token=x"
	_, err := FromURL(t.Context(), raw, Options{AllowPrivate: true})
	var ferr *FetchError
	require.ErrorAs(t, err, &ferr)
	assert.Equal(t, raw, ferr.URL, "the caller still gets the URL whole")
	assert.NotContains(t, err.Error(), "access_token")
}

func FuzzRedactURL(f *testing.F) {
	for _, s := range []string{"https://u:p@h/p?q#f", "h?q", "#", "://@", "a://b@c@d/e?f?g#h#i"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := redactURL(in)
		if again := redactURL(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
		if i := strings.IndexAny(out, "?#"); i >= 0 {
			if tail := out[i:]; tail != "?[redacted]" && tail != "#[redacted]" && tail != "?[redacted]#[redacted]" {
				t.Fatalf("redactURL(%q) = %q keeps a query or fragment", in, out)
			}
		}
	})
}
