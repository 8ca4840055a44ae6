package developer_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/developer"
	"github.com/textanalysis/go-textanalysis/server/mail"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// inbox records the mail the site sends.
type inbox struct {
	mu   sync.Mutex
	msgs []mail.Message
}

func (b *inbox) Send(_ context.Context, m mail.Message) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.msgs = append(b.msgs, m)
	return nil
}

func (b *inbox) last(t *testing.T) mail.Message {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	require.NotEmpty(t, b.msgs)
	return b.msgs[len(b.msgs)-1]
}

type site struct {
	*httptest.Server
	gate  *access.Gate
	inbox *inbox
}

func newSite(t *testing.T, proxies ...netip.Prefix) *site {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "dev.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	gate, err := access.New(context.Background(), access.Config{Store: st, DeveloperURL: "https://dev.example.com"})
	require.NoError(t, err)
	box := &inbox{}
	s, err := developer.New(developer.Config{
		Gate: gate, Mail: box, BaseURL: "https://api.example.com", SiteURL: "https://dev.example.com", MCPURL: "https://api.example.com/mcp",
		OpenAPI: []byte(`{"openapi":"3.0.2"}`), TrustedProxies: proxies,
	})
	require.NoError(t, err)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &site{Server: ts, gate: gate, inbox: box}
}

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	res, err := http.Get(u)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b)
}

func postForm(t *testing.T, u string, form url.Values) (int, string, http.Header) {
	t.Helper()
	res, err := http.PostForm(u, form)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b), res.Header
}

var keyRE = regexp.MustCompile(`ta_(live|trial)_[0-9A-Za-z]{32}`)

func TestSignUpShowsAndMailsAKey(t *testing.T) {
	s := newSite(t)
	status, body := get(t, s.URL+"/")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `name="email"`)

	status, body, header := postForm(t, s.URL+"/signup", url.Values{"email": {"Ada@Example.com"}})
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "no-store", header.Get("Cache-Control"))
	shown := keyRE.FindString(body)
	require.NotEmpty(t, shown, "the key is shown at once")
	m := s.inbox.last(t)
	assert.Equal(t, "ada@example.com", m.To)
	assert.Contains(t, m.Body, shown, "and e-mailed")

	d, err := s.gate.Admit(context.Background(), shown)
	require.NoError(t, err)
	assert.False(t, d.Refused())
	assert.Equal(t, store.PlanFree, d.Account.Plan)

	// The same address again: a key by mail only, never on the page.
	status, body, _ = postForm(t, s.URL+"/signup", url.Values{"email": {"ada@example.com"}})
	require.Equal(t, http.StatusOK, status)
	assert.Empty(t, keyRE.FindString(body))
	again := keyRE.FindString(s.inbox.last(t).Body)
	assert.NotEmpty(t, again)
	assert.NotEqual(t, shown, again)
}

func TestSignUpRejectsBadAddressesAndEscapes(t *testing.T) {
	s := newSite(t)
	status, body, _ := postForm(t, s.URL+"/signup", url.Values{"email": {`"><script>alert(1)</script>`}})
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	assert.NotContains(t, body, "<script>alert(1)")
	assert.Contains(t, body, "&lt;script&gt;")
}

func TestTrialClaimFlow(t *testing.T) {
	s := newSite(t)
	res, err := http.Post(s.URL+"/trial", "", nil)
	require.NoError(t, err)
	var trial map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&trial))
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	key := trial["key"].(string)
	claimURL := trial["claim_url"].(string)
	require.True(t, strings.HasPrefix(claimURL, "https://dev.example.com/claim?"), claimURL)

	// Open the claim page on the test server.
	local := s.URL + strings.TrimPrefix(claimURL, "https://dev.example.com")
	status, body := get(t, local)
	require.Equal(t, http.StatusOK, status)
	u, _ := url.Parse(claimURL)
	status, _ = get(t, s.URL+"/claim?key="+u.Query().Get("key")+"&sig=00000000000000000000000000000000")
	assert.Equal(t, http.StatusNotFound, status, "a forged signature")
	assert.Contains(t, body, `name="sig"`)

	status, _, _ = postForm(t, s.URL+"/claim", url.Values{"key": {u.Query().Get("key")}, "sig": {u.Query().Get("sig")}, "email": {"grace@example.com"}})
	require.Equal(t, http.StatusOK, status)
	m := s.inbox.last(t)
	assert.Equal(t, "grace@example.com", m.To)
	link := regexp.MustCompile(`https://dev.example.com/confirm\?token=[0-9a-f]+`).FindString(m.Body)
	require.NotEmpty(t, link)

	status, body = get(t, s.URL+strings.TrimPrefix(link, "https://dev.example.com"))
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "grace@example.com")

	d, err := s.gate.Admit(context.Background(), key)
	require.NoError(t, err)
	require.False(t, d.Refused())
	assert.Equal(t, store.PlanFree, d.Account.Plan, "the same key, now on the Free plan")
	assert.Equal(t, int64(access.DefaultFreeAllowance-1), d.Remaining)

	status, _ = get(t, s.URL+strings.TrimPrefix(link, "https://dev.example.com"))
	assert.Equal(t, http.StatusNotFound, status, "a confirmation link works once")
}

func TestTrustedProxies(t *testing.T) {
	// The test client connects from 127.0.0.1; when that is a trusted
	// proxy, X-Forwarded-For names the client and each gets its own limit.
	s := newSite(t, netip.MustParsePrefix("127.0.0.0/8"))
	post := func(xff string) int {
		req, _ := http.NewRequest("POST", s.URL+"/trial", nil)
		req.Header.Set("X-Forwarded-For", xff)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}
	for range 3 {
		assert.Equal(t, http.StatusOK, post("198.51.100.1"))
	}
	assert.Equal(t, http.StatusTooManyRequests, post("198.51.100.1"))
	assert.Equal(t, http.StatusOK, post("198.51.100.2"))
	// A client cannot hide behind a spoofed first hop: the right-most
	// untrusted address counts.
	assert.Equal(t, http.StatusTooManyRequests, post("203.0.113.9, 198.51.100.1"))
}

func TestOpenAPI(t *testing.T) {
	s := newSite(t)
	status, body := get(t, s.URL+"/openapi.json")
	assert.Equal(t, http.StatusOK, status)
	assert.JSONEq(t, `{"openapi":"3.0.2"}`, body)
}
