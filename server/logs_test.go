package server

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
)

// rawRequest sends one request byte for byte (no client cleans its path
// or headers) and returns the status and body.
func rawRequest(t *testing.T, addr, method, target string, header map[string]string, body string) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, addr)
	for k, v := range header {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	if body != "" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n" + body)
	_, err = io.WriteString(conn, b.String())
	require.NoError(t, err)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "%s %s", method, target)
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(out)
}

// TestNoSecretInLogs sends what an attacker or a careless client would
// through the real handler (keys with junk in their headers, keys in
// every spelling of the MCP key path and elsewhere in paths, fetched URLs
// with passwords and tokens that fail with 502, e-mail addresses on the
// developer site) and then searches the server's whole log for every
// secret it sent.
func TestNoSecretInLogs(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	const (
		owner    = "zq7owner@example.org"
		victim   = "zq7victim+tag@example.org"
		claimer  = "zq7claimer@example.net"
		user     = "zq7alice"
		password = "zq7-pa55w0rd"
		token    = "zq7-access-token-value"
	)
	key := ms.issue(t, store.PlanFree, owner).Secret
	secretPart := key[strings.LastIndexByte(key, '_')+1:]
	secrets := []string{key, secretPart, secretPart[6:], owner, "zq7owner", "zq7victim", "zq7claimer", user, password, token}

	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream trouble", http.StatusInternalServerError)
	}))
	t.Cleanup(failing.Close)
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, failing.URL+"/next?access_token="+token+"&user="+url.QueryEscape(owner), http.StatusFound)
	}))
	t.Cleanup(redirecting.Close)
	withSecrets := func(base string) string {
		u, err := url.Parse(base)
		require.NoError(t, err)
		u.User = url.UserPassword(user, password)
		u.Path = "/page"
		u.RawQuery = "access_token=" + token + "&email=" + url.QueryEscape(owner)
		u.Fragment = token
		return u.String()
	}
	page, redirect := withSecrets(failing.URL), withSecrets(redirecting.URL)
	jsonBody := func(v any) string {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return string(b)
	}
	addr := ms.Listener.Addr().String()
	type req struct {
		method, target string
		header         map[string]string
		body           string
		status         int // 0: any
	}
	reqs := []req{
		// Keys in headers, with junk around them.
		{"GET", "/sentiment?text=hi", map[string]string{"X-API-Key": key + ", ta_live_x"}, "", 401},
		{"GET", "/sentiment?text=hi", map[string]string{"X-API-Key": "x, " + key}, "", 401},
		{"GET", "/sentiment?text=hi", map[string]string{"X-API-Key": key + "_" + key}, "", 401},
		{"GET", "/sentiment?text=hi", map[string]string{"Authorization": "Bearer " + key + ", ta_live_x"}, "", 401},
		{"GET", "/sentiment?text=hi", map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))}, "", 401},
		{"GET", "/docs", map[string]string{"X-API-Key": key + " " + password}, "", 200},
		{"GET", "/sentiment?text=hi", map[string]string{"X-API-Key": key, "X-Request-Id": key}, "", 200},
		{"GET", "/sentiment?text=hi&api_key=" + key + "&email=" + url.QueryEscape(owner), map[string]string{"Authorization": "Bearer " + key}, "", 200},
		// Fetches that fail, with a password and a token in the URL.
		{"GET", "/text?url=" + url.QueryEscape(page), map[string]string{"X-API-Key": key}, "", 502},
		{"GET", "/text?url=" + url.QueryEscape(redirect), map[string]string{"X-API-Key": key}, "", 502},
		{"POST", "/text", map[string]string{"X-API-Key": key, "Content-Type": "application/json"}, jsonBody(map[string]string{"url": page}), 502},
		{"POST", "/qa", map[string]string{"Authorization": "Bearer " + key}, jsonBody(map[string]string{"question": "Who?", "url": redirect}), 502},
		{"POST", "/mcp/k/" + key, map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
			jsonBody(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": "get_text_post", "arguments": map[string]string{"url": page}}}), 200},
		// E-mail addresses on the developer site.
		{"POST", "/developer/signup", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "email=" + url.QueryEscape(victim), 0},
		{"POST", "/developer/signup", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "email=" + url.QueryEscape("not an address "+victim), 0},
		{"POST", "/developer/claim", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "key=1&sig=" + strings.Repeat("a", 32) + "&email=" + url.QueryEscape(claimer), 0},
		{"GET", "/developer/confirm?token=" + token + "&email=" + url.QueryEscape(claimer), nil, "", 0},
		{"GET", "/developer/" + url.PathEscape(owner), nil, "", 0},
	}
	// The key in every spelling of the MCP key path, and anywhere else.
	for _, p := range []string{
		"/mcp/k/%s", "//mcp/k/%s", "/mcp//k/%s", "/mcp/./k/%s", "/MCP/k/%s", "/Mcp/K/%s", "/mcp/K/%s",
		"/mcp/k/%s/", "/mcp/k/%s/extra", "/mcp/x/../k/%s", "/%%6Dcp/k/%s", "/mcp/k/%s%%2Fx", "/mcp/k/%s?x=1",
		"/%s", "/docs/%s.md", "/developer/%s", "/developer/confirm/%s", "/ner/%s", "/metrics/%s",
	} {
		target := fmt.Sprintf(p, key)
		for _, method := range []string{"GET", "POST"} {
			reqs = append(reqs, req{method, target, map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
				`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 0})
		}
	}
	for _, r := range reqs {
		status, body := rawRequest(t, addr, r.method, r.target, r.header, r.body)
		if r.status != 0 {
			assert.Equal(t, r.status, status, "%s %s: %s", r.method, r.target, body)
		}
		if r.target == "/mcp/k/"+key && r.method == "POST" && strings.Contains(r.body, "tools/call") {
			assert.Contains(t, body, `\"status\":502`, "the tool call fetched and failed")
		}
	}
	// A trial key handed out by the site is a secret too.
	status, body := rawRequest(t, addr, "POST", "/developer/trial", nil, "")
	if status == http.StatusOK {
		var trial struct{ Key string }
		require.NoError(t, json.Unmarshal([]byte(body), &trial))
		require.NotEmpty(t, trial.Key)
		secrets = append(secrets, trial.Key, trial.Key[strings.LastIndexByte(trial.Key, '_')+1:])
	}

	ms.Close() // waits for every handler, so every line is written
	logs := ms.logs.String()
	require.Contains(t, logs, `"status":502`, "the failed fetches were logged")
	require.Contains(t, logs, `"path":"/mcp/k/{key}"`)
	for _, s := range secrets {
		assert.NotContains(t, logs, s)
	}
	assert.Empty(t, regexp.MustCompile(`ta_(live|trial|sbx)_[0-9A-Za-z]{7,}`).FindAllString(logs, -1), "no more of a key than its prefix")
	assert.Empty(t, regexp.MustCompile(`[A-Za-z0-9._%+-]+@example\.(org|net)`).FindAllString(logs, -1), "no e-mail address")
	if t.Failed() {
		t.Log(logs)
	}
}

// logRoute names routes, never the path a client sent.
func TestLogRoute(t *testing.T) {
	tests := []struct{ pattern, path, want string }{
		{"/ner", "/ner", "/ner"},
		{"/{$}", "/", "/"},
		{"/docs/{file}", "/docs/ta_live_x.md", "/docs/{file}"},
		{"/mcp", "/mcp", "/mcp"},
		{"/mcp/", "/mcp/", "/mcp"},
		{"/mcp/", "/mcp/k/ta_live_secret", "/mcp/k/{key}"},
		{"/mcp/", "//mcp/k/ta_live_secret", "/mcp/k/{key}"},
		{"/mcp/", "/mcp/./k/ta_live_secret", "/mcp/k/{key}"},
		{"/mcp/", "/mcp/other/ta_live_secret", "/mcp/{other}"},
		{"/", "/MCP/k/ta_live_secret", "other"},
		{"", "/anything/ta_live_secret", "other"},
		{"/developer/", "/developer/", "/developer"},
		{"/developer/", "/developer/signup", "/developer/signup"},
		{"/developer/", "/developer/confirm", "/developer/confirm"},
		{"/developer/", "/developer/ta_live_secret", "/developer/{other}"},
		{"/developer/", "/developer/a@example.org", "/developer/{other}"},
		{"/developer/", "/developer/Tok3n", "/developer/{other}"},
		{"/developer", "/developer", "/developer"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			assert.Equal(t, tt.want, logRoute(tt.pattern, tt.path))
		})
	}
}

// The log handler's second line of defence: whatever a layer puts in a
// line, keys, e-mail addresses and URL secrets in errors do not get out.
func TestRedactingHandler(t *testing.T) {
	var buf strings.Builder
	log := slogJSON(&buf)
	key := "ta_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345"
	log.With("component", "x", "owner", "a.b@example.org").Error("fetch http://u:p@h.example/p?access_token=t1 from 203.0.113.7:4242 failed",
		"err", fmt.Errorf("wrapped: %w", &url.Error{Op: "Get", URL: "https://u:p2@h.example/p?access_token=t2", Err: io.EOF}),
		"key", key, "path", "/x?token=t3", "group", map[string]string{"k": "v"})
	out := buf.String()
	for _, s := range []string{"AbCdEfGhIjKlMnOpQrStUvWxYz012345"[6:], "a.b@", "u:p", "t1", "t2", "t3", "203.0.113.7"} {
		assert.NotContains(t, out, s)
	}
	assert.Contains(t, out, "ta_live_AbCdEf…[redacted]")
	assert.Contains(t, out, "[redacted]@example.org")
	assert.Contains(t, out, "https://[redacted]@h.example/p?[redacted]")
}

// The handler redacts every address the developer site accepts
// (access.NormalizeEmail takes letters of any script, as net/mail does),
// not only ASCII ones.
func TestRedactingHandlerAddresses(t *testing.T) {
	tests := []struct{ addr, local, domain string }{
		{"ada@example.org", "ada", "@example.org"},
		{"jörg.müller@example.de", "jörg", "@example.de"},
		{"ö@example.de", "ö@", "@example.de"},
		{"bob@bücher.example", "bob", "@bücher.example"},
		{"用户@例子.广告", "用户", "@例子.广告"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			var buf strings.Builder
			slogJSON(&buf).Error("claim for "+tt.addr+" failed", "err", fmt.Errorf("store: %s: busy", tt.addr), "who", tt.addr)
			out := buf.String()
			assert.NotContains(t, out, tt.local)
			assert.Equal(t, 3, strings.Count(out, "[redacted]"+tt.domain), out)
		})
	}
}

func slogJSON(w io.Writer) *slog.Logger {
	return slog.New(redactLogs(slog.NewJSONHandler(w, nil)))
}

// FuzzLogRoute checks that whatever path a client sends, the log names a
// route from a fixed set or a developer page name, never the path itself.
func FuzzLogRoute(f *testing.F) {
	patterns := []string{"", "/", "/{$}", "/ner", "/docs/{file}", "/mcp", "/mcp/", "/developer/", "/developer"}
	for i, p := range []string{"/mcp/k/ta_live_x", "//mcp/k/a", "/developer/signup", "/developer/x@y.z", "/MCP/k/x", "/developer/../mcp/k/x"} {
		f.Add(uint8(i), p)
	}
	fixed := map[string]bool{"other": true, "/": true, "/ner": true, "/docs/{file}": true, "/mcp": true, "/mcp/k/{key}": true,
		"/mcp/{other}": true, "/developer": true, "/developer/{other}": true}
	f.Fuzz(func(t *testing.T, choice uint8, path string) {
		got := logRoute(patterns[int(choice)%len(patterns)], path)
		if !fixed[got] && !developerPage.MatchString(got) {
			t.Fatalf("logRoute(%q) = %q: neither a route nor a page name", path, got)
		}
		if strings.ContainsAny(got, "0123456789_@?#%ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Fatalf("logRoute(%q) = %q could carry a secret", path, got)
		}
	})
}

// FuzzRedactText checks that no key survives redaction beyond its prefix,
// and that the URLs of error texts keep no query.
func FuzzRedactText(f *testing.F) {
	for _, s := range []string{"ta_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345", "http://u:p@h/p?t=1", "a@b.example", "Get \"https://h/?x\": EOF"} {
		f.Add(s)
	}
	key := regexp.MustCompile(`ta_(live|trial|sbx)_[0-9A-Za-z]{7,}`)
	f.Fuzz(func(t *testing.T, in string) {
		out := redactText(in, true)
		if key.MatchString(out) {
			t.Fatalf("redactText(%q) = %q keeps a key", in, out)
		}
		for _, u := range urlPattern.FindAllString(out, -1) {
			if i := strings.IndexAny(u, "?#"); i >= 0 && !strings.HasPrefix(u[i+1:], "[redacted]") {
				t.Fatalf("redactText(%q) = %q keeps a query", in, out)
			}
		}
	})
}
