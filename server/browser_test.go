package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/websocket"

	"github.com/textanalysis/go-textanalysis/server/access"
)

// findChromium returns the headless browser to use: $TEXTANALYSIS_CHROMIUM,
// or the first of Debian's chromium and its usual other names on PATH.
func findChromium() string {
	if p := os.Getenv("TEXTANALYSIS_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// devtools drives one page of a headless Chromium over the DevTools
// protocol: just enough to load a page, click and read the DOM.
type devtools struct {
	tb   testing.TB
	ws   *websocket.Conn
	next int
}

func startDevtools(tb testing.TB, chromium string) *devtools {
	tb.Helper()
	// The profile is removed by us, not by tb.TempDir: Chromium's helper
	// processes may still be writing to it for a moment after the browser
	// exits, which made TempDir's own clean-up fail the test.
	profile, err := os.MkdirTemp("", "ta-chromium-")
	require.NoError(tb, err)
	tb.Cleanup(func() {
		for range 20 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--disable-dev-shm-usage", "--remote-debugging-port=0", "--remote-allow-origins=*",
		"--user-data-dir="+profile, "about:blank")
	// Asked to stop, Chromium ends its helper processes too; killed, it
	// may leave them behind. WaitDelay kills it if it does not stop.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	stderr, err := cmd.StderrPipe()
	require.NoError(tb, err)
	require.NoError(tb, cmd.Start())
	tb.Cleanup(func() { cancel(); _ = cmd.Wait() })
	listening := regexp.MustCompile(`DevTools listening on ws://([^/]+)/`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	var hostPort string
	select {
	case hostPort = <-found:
	case <-time.After(30 * time.Second):
		tb.Fatal("chromium did not open its DevTools port")
	}
	res, err := http.Get("http://" + hostPort + "/json/list")
	require.NoError(tb, err)
	defer res.Body.Close()
	var targets []struct{ Type, WebSocketDebuggerURL string }
	require.NoError(tb, json.NewDecoder(res.Body).Decode(&targets))
	for _, t := range targets {
		if t.Type == "page" {
			ws, err := websocket.Dial(t.WebSocketDebuggerURL, "", "http://localhost/")
			require.NoError(tb, err)
			tb.Cleanup(func() { ws.Close() })
			return &devtools{tb: tb, ws: ws}
		}
	}
	tb.Fatal("chromium has no page")
	return nil
}

// send calls a DevTools method and returns its result, skipping events.
func (d *devtools) send(method string, params any) json.RawMessage {
	d.tb.Helper()
	d.next++
	id := d.next
	require.NoError(d.tb, websocket.JSON.Send(d.ws, map[string]any{"id": id, "method": method, "params": params}))
	require.NoError(d.tb, d.ws.SetReadDeadline(time.Now().Add(30*time.Second)))
	for {
		var msg struct {
			ID     int
			Result json.RawMessage
			Error  *struct{ Message string }
		}
		require.NoError(d.tb, websocket.JSON.Receive(d.ws, &msg))
		if msg.ID != id {
			continue
		}
		if msg.Error != nil {
			d.tb.Fatalf("%s: %s", method, msg.Error.Message)
		}
		return msg.Result
	}
}

// eval evaluates a JavaScript expression in the page (DevTools is not
// bound by the page's policy) and returns its value as JSON.
func (d *devtools) eval(expr string) json.RawMessage {
	d.tb.Helper()
	var out struct {
		Result struct{ Value json.RawMessage }
	}
	require.NoError(d.tb, json.Unmarshal(d.send("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}), &out))
	return out.Result.Value
}

// waitFor evaluates expr until it gives a non-empty string, and returns it.
func (d *devtools) waitFor(expr string) string {
	d.tb.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var s string
		if json.Unmarshal(d.eval(expr), &s) == nil && s != "" {
			return s
		}
		time.Sleep(50 * time.Millisecond)
	}
	d.tb.Fatalf("timed out waiting for %s", expr)
	return ""
}

// The docs console works under the page's Content-Security-Policy: its
// script runs, calls the API with the sandbox key and shows the answer,
// and the display operations' HTML is shown in a sandboxed frame, with no
// policy violation on the way.
//
// Without Chromium the test is skipped, unless $CI is "true".
func TestDocsConsoleInBrowser(t *testing.T) {
	chromium := findChromium()
	if chromium == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium not found and CI=true: install it (apt-get install -y chromium) or set TEXTANALYSIS_CHROMIUM")
		}
		t.Skip("chromium not found (apt-get install -y chromium, or set TEXTANALYSIS_CHROMIUM)")
	}
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	d := startDevtools(t, chromium)
	// Collect the page's policy violations from its first moment on.
	d.send("Page.enable", map[string]any{})
	d.send("Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": `window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) { window.__violations.push(e.violatedDirective + " " + e.blockedURI); });`})
	d.send("Page.navigate", map[string]any{"url": ms.URL + "/docs"})
	d.waitFor(`document.readyState === "complete" && document.querySelector("form.console") ? "ready" : ""`)

	d.eval(`document.querySelector("#analyze_sentiment form.console button").click()`)
	out := d.waitFor(`(function () { var t = document.querySelector("#analyze_sentiment .result").textContent; return t.indexOf("HTTP ") >= 0 ? t : ""; })()`)
	assert.Contains(t, out, "HTTP 200", "the console's script ran and called the API")
	assert.Contains(t, out, "x-gw-remaining")
	assert.Contains(t, out, `"label"`)

	d.eval(`document.querySelector("#display_ner form.console button").click()`)
	srcdoc := d.waitFor(`(function () { var f = document.querySelector("#display_ner .result iframe"); return f ? f.srcdoc : ""; })()`)
	assert.Contains(t, srcdoc, "style=", "the display markup reaches the frame")
	head := d.waitFor(`document.querySelector("#display_ner .result pre").textContent`)
	assert.Contains(t, head, "HTTP 200")

	var violations []string
	require.NoError(t, json.Unmarshal(d.eval(`window.__violations`), &violations))
	assert.Empty(t, violations, "policy violations: %s", strings.Join(violations, "; "))
}
