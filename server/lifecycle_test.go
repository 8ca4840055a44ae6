package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

func serveOnLoopback(t *testing.T, cfg Config) (string, context.CancelFunc, <-chan error) {
	t.Helper()
	an, err := testAnalyzer()
	require.NoError(t, err)
	srv, err := New(cfg, an)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(cancel)
	return "http://" + ln.Addr().String(), cancel, done
}

// A client that sends its headers slowly is cut off: it cannot hold a
// connection (and a goroutine) for ever.
func TestSlowClientIsCutOff(t *testing.T) {
	base, _, _ := serveOnLoopback(t, Config{ReadHeaderTimeout: 300 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	start := time.Now()
	_, err = fmt.Fprint(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n")
	require.NoError(t, err)
	// Drip one header byte at a time, slower than the timeout allows.
	go func() {
		for i := 0; i < 20; i++ {
			time.Sleep(100 * time.Millisecond)
			if _, err := conn.Write([]byte("X")); err != nil {
				return
			}
		}
	}()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	b, _ := io.ReadAll(bufio.NewReader(conn))
	elapsed := time.Since(start)
	assert.Less(t, elapsed, 3*time.Second, "the server closed the connection")
	assert.NotContains(t, string(b), "200 OK")
}

// Shutdown lets a request in flight finish, and its count stays.
func TestShutdownFinishesInFlightRequests(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(700 * time.Millisecond)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><article><p>"+strings.Repeat("A slow page about rivers and bridges. ", 10)+"</p></article></body></html>")
	}))
	defer page.Close()

	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	require.NoError(t, err)
	defer st.Close()
	gate, err := access.New(context.Background(), access.Config{Store: st, Rates: noRates})
	require.NoError(t, err)
	acct, err := st.CreateAccount(context.Background(), store.Account{Plan: store.PlanFree, Email: "g@example.com"})
	require.NoError(t, err)
	iss, err := gate.IssueKey(context.Background(), acct, access.KindLive, "")
	require.NoError(t, err)

	base, stop, done := serveOnLoopback(t, Config{Gate: gate})
	type result struct {
		status int
		err    error
	}
	got := make(chan result, 1)
	go func() {
		req, _ := http.NewRequest("GET", base+"/text?url="+url.QueryEscape(page.URL), nil)
		req.Header.Set("X-API-Key", iss.Secret)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- result{err: err}
			return
		}
		res.Body.Close()
		got <- result{status: res.StatusCode}
	}()
	time.Sleep(200 * time.Millisecond) // the request is in flight
	stop()
	r := <-got
	require.NoError(t, r.err)
	assert.Equal(t, http.StatusOK, r.status)
	require.NoError(t, <-done)
	used, err := st.Used(context.Background(), acct.ID, access.MonthStart(time.Now()))
	require.NoError(t, err)
	assert.Equal(t, int64(1), used)
	_, err = http.Get(base + "/healthz")
	assert.Error(t, err, "no longer listening")
}

// The per-request deadline cancels analysis work: a request that runs out
// of time answers 504 with a request id.
func TestRequestDeadlineCancelsWork(t *testing.T) {
	ts := newTestServer(t, Config{RequestTimeout: time.Millisecond})
	text := strings.Repeat("Ada Lovelace met Charles Babbage in London in 1833. ", 1500)
	res := do(t, "POST", ts.URL+"/ner", `{"text":"`+text+`"}`)
	require.Equal(t, http.StatusGatewayTimeout, res.status, res.body)
	assert.Contains(t, res.body, `"error":"timeout"`)
	assert.Contains(t, res.body, `"request_id":"`+res.header.Get("X-Request-Id")+`"`)
}
