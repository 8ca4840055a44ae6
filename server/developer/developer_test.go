package developer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
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

func (b *inbox) all() []mail.Message {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]mail.Message(nil), b.msgs...)
}

// last returns the last message sent to an address.
func (b *inbox) last(t *testing.T, to string) mail.Message {
	t.Helper()
	msgs := b.all()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].To == to {
			return msgs[i]
		}
	}
	require.Failf(t, "no mail", "nothing was sent to %s", to)
	return mail.Message{}
}

const siteURL = "https://dev.example.com"

type site struct {
	*httptest.Server
	gate   *access.Gate
	st     store.Store
	inbox  *inbox
	worker *mail.Worker // with options.outbox
}

type options struct {
	proxies  []netip.Prefix
	gate     access.Config
	operator string
	// outbox puts mails in the store's outbox, as serve does; the test
	// runs the worker (site.worker) to deliver them to the inbox.
	outbox bool
}

func newSite(t *testing.T, opt options) *site {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "dev.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	cfg := opt.gate
	cfg.Store, cfg.DeveloperURL = st, siteURL
	gate, err := access.New(context.Background(), cfg)
	require.NoError(t, err)
	box := &inbox{}
	var sender mail.Sender = box
	var worker *mail.Worker
	if opt.outbox {
		worker = &mail.Worker{Queue: st, Sender: box}
		sender = worker.Outbox(0)
	}
	s, err := developer.New(developer.Config{
		Gate: gate, Mail: sender, BaseURL: "https://api.example.com", SiteURL: siteURL, MCPURL: "https://api.example.com/mcp",
		OpenAPI: []byte(`{"openapi":"3.0.2"}`), TrustedProxies: opt.proxies, OperatorEmail: opt.operator,
	})
	require.NoError(t, err)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &site{Server: ts, gate: gate, st: st, inbox: box, worker: worker}
}

// TestMailGoesThroughTheOutbox: with an outbox, as serve runs it, a
// sign-up's request only enqueues the mail and says it is on its way; the
// worker sends it; the caps per address are still applied when a request
// enqueues.
func TestMailGoesThroughTheOutbox(t *testing.T) {
	s := newSite(t, options{outbox: true})
	a := post(t, s.URL+"/signup", url.Values{"email": {"ada@example.com"}})
	require.Equal(t, http.StatusOK, a.status)
	assert.Contains(t, a.body, "We are sending a message to <strong>ada@example.com</strong>")
	assert.Empty(t, s.inbox.all(), "not sent inside the request")

	n, err := s.worker.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	m := s.inbox.last(t, "ada@example.com")
	assert.Contains(t, linkIn(t, m), "/signup/confirm?token=")

	for range access.DefaultMailsPerAddressDay + 2 {
		post(t, s.URL+"/signup", url.Values{"email": {"ada@example.com"}})
	}
	n, err = s.worker.RunOnce(t.Context())
	require.NoError(t, err)
	assert.Equal(t, access.DefaultMailsPerAddressDay-1, n, "the cap per address holds at enqueue")
	assert.Len(t, s.inbox.all(), access.DefaultMailsPerAddressDay)
}

// local turns a link of the public site into one of the test server.
func (s *site) local(link string) string {
	return s.URL + strings.TrimPrefix(link, siteURL)
}

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

type answer struct {
	status int
	body   string
	header http.Header
}

func do(t *testing.T, method, u string, form url.Values, header http.Header) answer {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	require.NoError(t, err)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := noRedirect.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return answer{res.StatusCode, string(b), res.Header}
}

func get(t *testing.T, u string, header ...string) answer {
	t.Helper()
	return do(t, http.MethodGet, u, nil, headers(header...))
}

func post(t *testing.T, u string, form url.Values, header ...string) answer {
	t.Helper()
	return do(t, http.MethodPost, u, form, headers(header...))
}

func headers(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

var (
	keyRE    = regexp.MustCompile(`ta_(live|trial)_[0-9A-Za-z]{32}`)
	linkRE   = regexp.MustCompile(regexp.QuoteMeta(siteURL) + `/\S+token=[0-9a-f]+`)
	actionRE = regexp.MustCompile(`<form method="post" action="([^"]+)">\s*<input type="hidden" name="token" value="([^"]+)">`)
)

// linkIn returns the one link with a token in a mail.
func linkIn(t *testing.T, m mail.Message) string {
	t.Helper()
	link := linkRE.FindString(m.Body)
	require.NotEmpty(t, link, "no link in %q", m.Body)
	return link
}

// press submits the button form of a confirmation page, with headers.
func (s *site) press(t *testing.T, page string, header ...string) answer {
	t.Helper()
	m := actionRE.FindStringSubmatch(page)
	require.NotNil(t, m, "no button form in the page:\n%s", page)
	return post(t, s.local(html.UnescapeString(m[1])), url.Values{"token": {html.UnescapeString(m[2])}}, header...)
}

// signUp runs the whole sign-up of an address and returns the key shown.
func (s *site) signUp(t *testing.T, email string, header ...string) string {
	t.Helper()
	a := post(t, s.URL+"/signup", url.Values{"email": {email}}, header...)
	require.Equal(t, http.StatusOK, a.status, a.body)
	norm, err := access.NormalizeEmail(email)
	require.NoError(t, err)
	page := get(t, s.local(linkIn(t, s.inbox.last(t, norm))))
	require.Equal(t, http.StatusOK, page.status, page.body)
	a = s.press(t, page.body)
	require.Equal(t, http.StatusOK, a.status, a.body)
	key := keyRE.FindString(a.body)
	require.NotEmpty(t, key)
	return key
}

// signIn runs the sign-in of an address and returns the session cookie.
func (s *site) signIn(t *testing.T, email string) *http.Cookie {
	t.Helper()
	a := post(t, s.URL+"/account/signin", url.Values{"email": {email}})
	require.Equal(t, http.StatusOK, a.status, a.body)
	page := get(t, s.local(linkIn(t, s.inbox.last(t, email))))
	require.Equal(t, http.StatusOK, page.status, page.body)
	a = s.press(t, page.body)
	require.Equal(t, http.StatusSeeOther, a.status, a.body)
	assert.Equal(t, siteURL+"/account", a.header.Get("Location"))
	res := http.Response{Header: a.header}
	for _, c := range res.Cookies() {
		if c.Name == developer.SessionCookie {
			return c
		}
	}
	require.Fail(t, "no session cookie")
	return nil
}

func (s *site) keys(t *testing.T) []store.Key {
	t.Helper()
	keys, err := s.st.ListKeys(context.Background(), 0)
	require.NoError(t, err)
	return keys
}

func (s *site) admit(t *testing.T, key string) access.Decision {
	t.Helper()
	d, err := s.gate.Admit(context.Background(), key)
	require.NoError(t, err)
	return d
}

func TestSignUpShowsTheKeyOnlyAfterConfirmation(t *testing.T) {
	s := newSite(t, options{})
	a := get(t, s.URL+"/")
	require.Equal(t, http.StatusOK, a.status)
	assert.Contains(t, a.body, `name="email"`)

	a = post(t, s.URL+"/signup", url.Values{"email": {"Ada@Example.com"}})
	require.Equal(t, http.StatusOK, a.status)
	assert.Empty(t, keyRE.FindString(a.body), "no key for whoever typed the address")
	m := s.inbox.last(t, "ada@example.com")
	assert.Empty(t, keyRE.FindString(m.Body), "no key in the confirmation mail")
	assert.Empty(t, s.keys(t), "no key exists before confirmation")
	_, err := s.st.AccountByEmail(context.Background(), "ada@example.com")
	assert.ErrorIs(t, err, store.ErrNotFound)

	// Following the link (as a mail scanner does) only shows a button.
	link := linkIn(t, m)
	for range 2 {
		page := get(t, s.local(link))
		require.Equal(t, http.StatusOK, page.status)
		assert.Contains(t, page.body, "<button")
		assert.Empty(t, keyRE.FindString(page.body))
	}
	assert.Empty(t, s.keys(t), "a GET changes nothing")

	page := get(t, s.local(link))
	a = s.press(t, page.body)
	require.Equal(t, http.StatusOK, a.status)
	assert.Equal(t, "no-store", a.header.Get("Cache-Control"))
	key := keyRE.FindString(a.body)
	require.NotEmpty(t, key, "the key is shown once, after the POST")
	d := s.admit(t, key)
	require.False(t, d.Refused())
	assert.Equal(t, store.PlanFree, d.Account.Plan)
	assert.True(t, d.Account.EmailConfirmed)

	// The notice names the key's prefix, never the key.
	notice := s.inbox.last(t, "ada@example.com")
	assert.NotContains(t, notice.Body, key)
	assert.Contains(t, notice.Body, access.PrefixOf(key))
	assert.Contains(t, notice.Body, siteURL+"/account")

	// The link works once.
	a = s.press(t, page.body)
	assert.Equal(t, http.StatusNotFound, a.status)
	assert.Empty(t, keyRE.FindString(a.body))
	assert.Len(t, s.keys(t), 1)
	assert.Equal(t, http.StatusNotFound, get(t, s.local(link)).status)
}

func TestSignUpRejectsBadAddressesAndEscapes(t *testing.T) {
	s := newSite(t, options{})
	a := post(t, s.URL+"/signup", url.Values{"email": {`"><script>alert(1)</script>`}})
	assert.Equal(t, http.StatusUnprocessableEntity, a.status)
	assert.NotContains(t, a.body, "<script>alert(1)")
	assert.Contains(t, a.body, "&lt;script&gt;")
	assert.Empty(t, s.inbox.all())
}

// TestSignUpAbuse replays the review: 30 sign-ups for variants of one
// mailbox, from one client and then from 30 clients.
func TestSignUpAbuse(t *testing.T) {
	dotted := []string{"a.buser", "ab.user", "a.b.u.s.e.r", "abus.er", "Abu.Ser"}
	variants := func(i int) string {
		switch i % 3 {
		case 0:
			return fmt.Sprintf("abuser+%d@gmail.com", i)
		case 1:
			return dotted[i%len(dotted)] + "@gmail.com"
		}
		return fmt.Sprintf("ABUSER+%d@GoogleMail.com", i)
	}
	distinct := func(i int) string { return fmt.Sprintf("user%d@example.com", i) }
	for _, tt := range []struct {
		name      string
		email     func(int) string
		clients   bool // each sign-up from its own client address
		wantMails int
	}{
		{"variants from one client", variants, false, access.DefaultMailsPerAddressDay},
		{"variants from thirty clients", variants, true, access.DefaultMailsPerAddressDay},
		{"thirty addresses from one client", distinct, false, access.DefaultMailsPerClientHour},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, options{proxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
			var refused int
			for i := range 30 {
				client := "198.51.100.1"
				if tt.clients {
					client = fmt.Sprintf("198.51.100.%d", i+1)
				}
				a := post(t, s.URL+"/signup", url.Values{"email": {tt.email(i)}}, "X-Forwarded-For", client)
				assert.Empty(t, keyRE.FindString(a.body))
				if a.status == http.StatusTooManyRequests {
					refused++
					assert.NotEmpty(t, a.header.Get("Retry-After"))
					assert.Contains(t, a.body, "No mail was sent")
					continue
				}
				require.Equal(t, http.StatusOK, a.status, a.body)
			}
			assert.Len(t, s.inbox.all(), tt.wantMails)
			assert.Equal(t, 30-tt.wantMails, refused)
			assert.Empty(t, s.keys(t), "no working key without confirmation")
		})
	}
}

func TestStrangerCannotPutAKeyInSomeoneElsesAccount(t *testing.T) {
	s := newSite(t, options{proxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	victimKey := s.signUp(t, "victim@example.com", "X-Forwarded-For", "192.0.2.1")
	before := s.keys(t)
	require.Len(t, before, 1)
	mailsBefore := len(s.inbox.all())

	// The attacker signs up with the victim's address: the page shows no
	// key, the only link goes to the victim's mailbox, and a guessed link
	// does nothing.
	a := post(t, s.URL+"/signup", url.Values{"email": {"victim@example.com"}}, "X-Forwarded-For", "203.0.113.66")
	require.Equal(t, http.StatusOK, a.status)
	assert.Empty(t, keyRE.FindString(a.body))
	for _, m := range s.inbox.all()[mailsBefore:] {
		assert.Equal(t, "victim@example.com", m.To)
	}
	a = post(t, s.URL+"/signup/confirm", url.Values{"token": {strings.Repeat("0", 48)}})
	assert.Equal(t, http.StatusNotFound, a.status)
	assert.Equal(t, before, s.keys(t), "the victim's account has no extra key")
	assert.False(t, s.admit(t, victimKey).Refused())
}

func TestTrialClaimFlow(t *testing.T) {
	s := newSite(t, options{})
	key, claimURL := trial(t, s)
	require.True(t, strings.HasPrefix(claimURL, siteURL+"/claim?"), claimURL)

	a := get(t, s.local(claimURL))
	require.Equal(t, http.StatusOK, a.status)
	assert.Contains(t, a.body, `name="sig"`)
	u, _ := url.Parse(claimURL)
	assert.Equal(t, http.StatusNotFound, get(t, s.URL+"/claim?key="+u.Query().Get("key")+"&sig=00000000000000000000000000000000").status, "a forged signature")

	a = post(t, s.URL+"/claim", url.Values{"key": {u.Query().Get("key")}, "sig": {u.Query().Get("sig")}, "email": {"grace@example.com"}})
	require.Equal(t, http.StatusOK, a.status)
	m := s.inbox.last(t, "grace@example.com")
	assert.Contains(t, m.Body, "new account for grace@example.com on the Free plan")
	link := linkIn(t, m)
	require.True(t, strings.HasPrefix(link, siteURL+"/confirm?token="), link)

	// A GET shows what will happen and a button; nothing moves.
	page := get(t, s.local(link))
	require.Equal(t, http.StatusOK, page.status)
	assert.Contains(t, page.body, "grace@example.com")
	assert.Equal(t, store.PlanTrial, s.admit(t, key).Account.Plan, "a GET moves nothing")

	a = s.press(t, page.body)
	require.Equal(t, http.StatusOK, a.status)
	assert.Contains(t, a.body, "grace@example.com")
	d := s.admit(t, key)
	require.False(t, d.Refused())
	assert.Equal(t, store.PlanFree, d.Account.Plan, "the same key, now on the Free plan")
	assert.Equal(t, int64(access.DefaultFreeAllowance-1), d.Remaining, "the Free allowance is the account's")

	assert.Equal(t, http.StatusNotFound, s.press(t, page.body).status, "a confirmation link works once")
}

// trial gets a trial key and its claim URL.
func trial(t *testing.T, s *site, header ...string) (string, string) {
	t.Helper()
	a := post(t, s.URL+"/trial", nil, header...)
	require.Equal(t, http.StatusOK, a.status, a.body)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(a.body), &v))
	return v["key"].(string), v["claim_url"].(string)
}

func startClaim(t *testing.T, s *site, claimURL, email string) string {
	t.Helper()
	u, err := url.Parse(claimURL)
	require.NoError(t, err)
	a := post(t, s.URL+"/claim", url.Values{"key": {u.Query().Get("key")}, "sig": {u.Query().Get("sig")}, "email": {email}})
	require.Equal(t, http.StatusOK, a.status, a.body)
	return linkIn(t, s.inbox.last(t, email))
}

func TestDoubleClaim(t *testing.T) {
	s := newSite(t, options{})
	key, claimURL := trial(t, s)
	first := startClaim(t, s, claimURL, "ada@example.com")
	second := startClaim(t, s, claimURL, "eve@example.com")
	firstPage, secondPage := get(t, s.local(first)), get(t, s.local(second))
	require.Equal(t, http.StatusOK, firstPage.status)
	require.Equal(t, http.StatusOK, secondPage.status)

	require.Equal(t, http.StatusOK, s.press(t, firstPage.body).status)
	a := s.press(t, secondPage.body)
	assert.Equal(t, http.StatusConflict, a.status)
	assert.Contains(t, a.body, "claimed already")
	d := s.admit(t, key)
	assert.Equal(t, "ada@example.com", d.Account.Email, "the claimed key did not move again")
	_, err := s.st.AccountByEmail(context.Background(), "eve@example.com")
	assert.ErrorIs(t, err, store.ErrNotFound)
}

func TestClaimIntoPayAsYouGoSaysSo(t *testing.T) {
	s := newSite(t, options{})
	ctx := context.Background()
	_, err := s.st.CreateAccount(ctx, store.Account{Email: "boss@example.com", Plan: store.PlanPayg, MonthlyCap: 50_000})
	require.NoError(t, err)
	key, claimURL := trial(t, s)
	link := startClaim(t, s, claimURL, "boss@example.com")
	want := "This key will join the account of boss@example.com on the Pay as you go plan; its requests will be billed to that account"
	assert.Contains(t, s.inbox.last(t, "boss@example.com").Body, want)
	assert.Contains(t, s.inbox.last(t, "boss@example.com").Body, "50,000 requests")
	page := get(t, s.local(link))
	assert.Contains(t, html.UnescapeString(page.body), want)
	a := s.press(t, page.body)
	require.Equal(t, http.StatusOK, a.status)
	assert.Contains(t, a.body, "billed to that account")
	assert.Equal(t, store.PlanPayg, s.admit(t, key).Account.Plan)
}

func TestIPv6ClientsCountBySlash64(t *testing.T) {
	// The test client connects from 127.0.0.1; as a trusted proxy its
	// X-Forwarded-For names the client.
	s := newSite(t, options{proxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	postTrial := func(client string) int {
		return post(t, s.URL+"/trial", nil, "X-Forwarded-For", client).status
	}
	for i := range access.DefaultTrialsPerAddress {
		assert.Equal(t, http.StatusOK, postTrial(fmt.Sprintf("2001:db8:1:2::%x", i+1)))
	}
	assert.Equal(t, http.StatusTooManyRequests, postTrial("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "the same /64")
	assert.Equal(t, http.StatusOK, postTrial("2001:db8:1:3::1"), "another /64")

	// Sign-up mails too.
	for i := range access.DefaultMailsPerClientHour {
		a := post(t, s.URL+"/signup", url.Values{"email": {fmt.Sprintf("u%d@example.com", i)}}, "X-Forwarded-For", fmt.Sprintf("2001:db8:9:9::%x", i+1))
		require.Equal(t, http.StatusOK, a.status)
	}
	a := post(t, s.URL+"/signup", url.Values{"email": {"more@example.com"}}, "X-Forwarded-For", "2001:db8:9:9:1::1")
	assert.Equal(t, http.StatusTooManyRequests, a.status)
}

func TestTrustedProxies(t *testing.T) {
	s := newSite(t, options{proxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	postTrial := func(xff string) int {
		return post(t, s.URL+"/trial", nil, "X-Forwarded-For", xff).status
	}
	for range 3 {
		assert.Equal(t, http.StatusOK, postTrial("198.51.100.1"))
	}
	assert.Equal(t, http.StatusTooManyRequests, postTrial("198.51.100.1"))
	assert.Equal(t, http.StatusOK, postTrial("198.51.100.2"))
	// A client cannot hide behind a spoofed first hop: the right-most
	// untrusted address counts.
	assert.Equal(t, http.StatusTooManyRequests, postTrial("203.0.113.9, 198.51.100.1"))
}

func TestCrossOriginPostsAreRefused(t *testing.T) {
	s := newSite(t, options{})
	forms := []string{"/signup", "/signup/confirm", "/claim", "/confirm", "/account/signin", "/account/session",
		"/account/signout", "/account/keys", "/account/keys/revoke", "/account/plan", "/trial"}
	for _, path := range forms {
		for _, h := range [][]string{
			{"Sec-Fetch-Site", "cross-site"},
			{"Origin", "https://evil.example"},
		} {
			t.Run(path+" "+h[0], func(t *testing.T) {
				a := post(t, s.URL+path, url.Values{"email": {"ada@example.com"}}, h...)
				assert.Equal(t, http.StatusForbidden, a.status)
			})
		}
	}
	assert.Empty(t, s.inbox.all())
	// Same-origin browsers and clients that send neither header (agents
	// asking for a trial key) pass.
	assert.Equal(t, http.StatusOK, post(t, s.URL+"/signup", url.Values{"email": {"ada@example.com"}}, "Sec-Fetch-Site", "same-origin").status)
	assert.Equal(t, http.StatusOK, post(t, s.URL+"/signup", url.Values{"email": {"bob@example.com"}}, "Origin", siteURL).status)
	assert.Equal(t, http.StatusOK, post(t, s.URL+"/trial", nil).status)
}

func TestAccountPage(t *testing.T) {
	s := newSite(t, options{operator: "ops@example.com", gate: access.Config{MaxLiveKeys: 2}})
	first := s.signUp(t, "ada@example.com")
	s.admit(t, first)

	// Not signed in: the page asks for an address.
	a := get(t, s.URL+"/account")
	require.Equal(t, http.StatusOK, a.status)
	assert.Contains(t, a.body, `action="`+siteURL+`/account/signin"`)

	c := s.signIn(t, "ada@example.com")
	assert.True(t, c.HttpOnly)
	assert.True(t, c.Secure, "the site is https")
	assert.Equal(t, http.SameSiteLaxMode, c.SameSite)
	assert.Equal(t, int(access.SessionTTL.Seconds()), c.MaxAge)
	cookie := []string{"Cookie", c.Name + "=" + c.Value}

	a = get(t, s.URL+"/account", cookie...)
	require.Equal(t, http.StatusOK, a.status)
	assert.Contains(t, a.body, access.PrefixOf(first)+"…")
	assert.Contains(t, a.body, "developer site")
	assert.Contains(t, a.body, "1 of 1,000 requests used")
	assert.NotContains(t, a.body, "<td>never</td>", "the key's last use is shown")
	assert.Contains(t, a.body, "No payment provider is connected")
	assert.NotContains(t, a.body, first, "the page never shows a whole key")

	// A new key, shown once; then the key limit.
	a = post(t, s.URL+"/account/keys", url.Values{"name": {"laptop"}}, cookie...)
	require.Equal(t, http.StatusOK, a.status)
	second := keyRE.FindString(a.body)
	require.NotEmpty(t, second)
	assert.False(t, s.admit(t, second).Refused())
	a = post(t, s.URL+"/account/keys", url.Values{"name": {"third"}}, cookie...)
	assert.Equal(t, http.StatusConflict, a.status)
	assert.Empty(t, keyRE.FindString(a.body))
	assert.Contains(t, get(t, s.URL+"/account", cookie...).body, "the most it may hold")

	// Revoking: the key answers 401 through the gate.
	a = post(t, s.URL+"/account/keys/revoke", url.Values{"key": {fmt.Sprint(s.admit(t, first).Key.ID)}}, cookie...)
	require.Equal(t, http.StatusSeeOther, a.status)
	d := s.admit(t, first)
	assert.Equal(t, http.StatusUnauthorized, d.Status)
	assert.Equal(t, "revoked_key", d.Code)
	assert.Contains(t, get(t, s.URL+"/account", cookie...).body, "revoked")

	// Someone else's key can't be revoked from this account.
	other := s.signUp(t, "bob@example.com")
	a = post(t, s.URL+"/account/keys/revoke", url.Values{"key": {fmt.Sprint(s.admit(t, other).Key.ID)}}, cookie...)
	assert.Equal(t, http.StatusNotFound, a.status)
	assert.False(t, s.admit(t, other).Refused())

	// Asking for Pay as you go: recorded, and mailed to the operator.
	a = post(t, s.URL+"/account/plan", url.Values{"cap": {"2,000,000"}}, cookie...)
	require.Equal(t, http.StatusSeeOther, a.status)
	acct, err := s.st.AccountByEmail(context.Background(), "ada@example.com")
	require.NoError(t, err)
	reqs, err := s.st.ListPlanRequests(context.Background(), acct.ID)
	require.NoError(t, err)
	require.Len(t, reqs, 1)
	assert.Equal(t, store.PlanPayg, reqs[0].Plan)
	assert.Equal(t, int64(2_000_000), reqs[0].MonthlyCap)
	ops := s.inbox.last(t, "ops@example.com")
	assert.Contains(t, ops.Body, fmt.Sprintf("textanalysis keys plan --account %d --plan payg --cap 2000000", acct.ID))
	assert.Contains(t, get(t, s.URL+"/account", cookie...).body, "with a cap of 2,000,000 requests")

	// Without a session the forms act on nothing.
	a = post(t, s.URL+"/account/keys", url.Values{"name": {"x"}})
	assert.Equal(t, http.StatusUnauthorized, a.status)
	assert.Empty(t, keyRE.FindString(a.body))

	// Signing out ends the session.
	a = post(t, s.URL+"/account/signout", nil, cookie...)
	require.Equal(t, http.StatusSeeOther, a.status)
	assert.Contains(t, get(t, s.URL+"/account", cookie...).body, `action="`+siteURL+`/account/signin"`)
	assert.Equal(t, http.StatusUnauthorized, post(t, s.URL+"/account/plan", nil, cookie...).status)
}

// Making and revoking keys in a loop stops at access.NewKeysPerDay: a
// 429 with Retry-After, no key and no notice mail, not a 500.
func TestNewKeyLoopIsCapped(t *testing.T) {
	s := newSite(t, options{gate: access.Config{MaxLiveKeys: 2}})
	s.signUp(t, "ada@example.com")
	c := s.signIn(t, "ada@example.com")
	cookie := []string{"Cookie", c.Name + "=" + c.Value}
	for i := range access.NewKeysPerDay {
		a := post(t, s.URL+"/account/keys", url.Values{"name": {"loop"}}, cookie...)
		require.Equal(t, http.StatusOK, a.status, "key %d", i+1)
		key := keyRE.FindString(a.body)
		a = post(t, s.URL+"/account/keys/revoke", url.Values{"key": {fmt.Sprint(s.admit(t, key).Key.ID)}}, cookie...)
		require.Equal(t, http.StatusSeeOther, a.status)
	}
	mails := len(s.inbox.all())
	a := post(t, s.URL+"/account/keys", url.Values{"name": {"one more"}}, cookie...)
	assert.Equal(t, http.StatusTooManyRequests, a.status)
	assert.NotEmpty(t, a.header.Get("Retry-After"))
	assert.Empty(t, keyRE.FindString(a.body))
	assert.Contains(t, a.body, fmt.Sprintf("%d keys today", access.NewKeysPerDay))
	assert.Len(t, s.inbox.all(), mails, "no notice mail")
}

func TestSignInLinkDoesNotRevealAccounts(t *testing.T) {
	s := newSite(t, options{})
	s.signUp(t, "ada@example.com")
	known := post(t, s.URL+"/account/signin", url.Values{"email": {"ada@example.com"}})
	unknown := post(t, s.URL+"/account/signin", url.Values{"email": {"nobody@example.com"}})
	assert.Equal(t, known.status, unknown.status)
	assert.Equal(t, known.body, strings.ReplaceAll(unknown.body, "nobody@example.com", "ada@example.com"))
	// The unknown address gets a mail that says so, with no link.
	m := s.inbox.last(t, "nobody@example.com")
	assert.NotRegexp(t, linkRE, m.Body)
	assert.Contains(t, m.Body, "no account")

	// A sign-in link's page only shows a button.
	page := get(t, s.local(linkIn(t, s.inbox.last(t, "ada@example.com"))))
	require.Equal(t, http.StatusOK, page.status)
	assert.Empty(t, page.header.Values("Set-Cookie"))
}

func TestUpgradeURLLeadsToTheAccountPage(t *testing.T) {
	s := newSite(t, options{gate: access.Config{FreeAllowance: 1}})
	key := s.signUp(t, "ada@example.com")
	s.admit(t, key)
	d := s.admit(t, key)
	require.Equal(t, http.StatusTooManyRequests, d.Status)
	assert.Equal(t, siteURL+"/account", d.UpgradeURL)
	a := get(t, s.local(d.UpgradeURL))
	require.Equal(t, http.StatusOK, a.status)
	assert.Contains(t, a.body, "Pay as you go")
	assert.Contains(t, a.body, `name="email"`, "it offers the sign-in that leads to the request form")
}

func TestOpenAPI(t *testing.T) {
	s := newSite(t, options{})
	a := get(t, s.URL+"/openapi.json")
	assert.Equal(t, http.StatusOK, a.status)
	assert.JSONEq(t, `{"openapi":"3.0.2"}`, a.body)
}
