package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/textanalysis/go-textanalysis/bench/internal/serveproc"
)

// Targets of issue 12.
const (
	maxRSSMB        = 600
	requestDeadline = 30 * time.Second // the server's promised request timeout
	answerGrace     = 5 * time.Second  // network and scheduling on a busy 2-core machine
	probeDeadline   = 5 * time.Second
)

func main() {
	bin := flag.String("bin", "textanalysis", "the textanalysis binary")
	assert := flag.Bool("assert", false, "exit 1 when a target is missed")
	only := flag.String("only", "", "run only attacks whose name contains this")
	conns := flag.Int("conns", 300, "connections of the header attack")
	flag.Parse()

	dir, err := os.MkdirTemp("", "textanalysis-abuse-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	env := append(os.Environ(), "TEXTANALYSIS_DATABASE_URL="+filepath.Join(dir, "abuse.db"))

	created, err := serveproc.CreateKey(context.Background(), *bin, env, dir, "payg", "abuse-bench@example.com")
	if err != nil {
		log.Fatal(err)
	}

	hostile := startHostileSite()
	defer hostile.Close()

	r := &runner{key: created.Key, hostile: hostile.URL}
	fmt.Printf("server %s; each attack on a fresh server process\n\n", *bin)
	fmt.Println("| attack | RSS at rest | peak RSS | requests answered | slowest answer | statuses | probe: served / slowest | target met |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	attacks := []struct {
		name string
		run  func() outcome
	}{
		{"headers", func() outcome { return r.headers(*conns, 1_400_000, 30) }},
		// Just under the header limit, on more connections than the cap:
		// what the connection caps let a crowd hold.
		{"headers-under-limit", func() outcome { return r.headers(1100, 60_000, 20) }},
		{"display", r.display},
		{"nested", r.nested},
		{"signup", r.signup},
		{"logs", r.logs},
	}
	failed := false
	for _, a := range attacks {
		if *only != "" && !strings.Contains(a.name, *only) {
			continue
		}
		// A fresh process per attack: Go keeps memory it once used, so a
		// server shared by the attacks would carry one's peak into the next.
		r.srv = startServe(*bin, env, dir)
		o := r.measure(a.run)
		r.srv.stop()
		fmt.Println(o.row(a.name))
		if len(o.misses) > 0 {
			failed = true
			for _, m := range o.misses {
				fmt.Printf("|  %s: %s |\n", a.name, m)
			}
		}
	}
	if failed && *assert {
		os.Exit(1)
	}
}

// An outcome is what one attack did to the server.
type outcome struct {
	restRSS   float64 // MB, before the attack
	peakRSS   float64 // MB
	answered  int
	sent      int
	slowest   time.Duration
	statuses  map[int]int
	probeOK   int
	probeAll  int
	probeSlow time.Duration
	note      string
	misses    []string
}

func (o outcome) row(name string) string {
	st := make([]string, 0, len(o.statuses))
	for code, n := range o.statuses {
		label := strconv.Itoa(code)
		if code == 0 {
			label = "closed"
		}
		st = append(st, fmt.Sprintf("%s×%d", label, n))
	}
	met := "yes"
	if len(o.misses) > 0 {
		met = "**no**"
	}
	ans := fmt.Sprintf("%d / %d", o.answered, o.sent)
	if o.note != "" {
		ans += " (" + o.note + ")"
	}
	return fmt.Sprintf("| %s | %.0f MB | %.0f MB | %s | %s | %s | %d / %d, %s | %s |", name, o.restRSS, o.peakRSS, ans,
		o.slowest.Round(10*time.Millisecond), strings.Join(slices.Sorted(slices.Values(st)), " "), o.probeOK, o.probeAll,
		o.probeSlow.Round(time.Millisecond), met)
}

type runner struct {
	srv     *served
	key     string
	hostile string
}

// measure runs an attack while sampling the server's memory and probing it
// with a cheap request every 250 ms, then checks the targets.
func (r *runner) measure(attack func() outcome) outcome {
	rest := r.srv.rss()
	r.srv.resetPeak()
	ctx, cancel := context.WithCancel(context.Background())
	var peak atomic.Uint64
	var probes sync.WaitGroup
	probes.Add(2)
	go func() {
		defer probes.Done()
		for ctx.Err() == nil {
			if v := uint64(r.srv.rss() * 1024); v > peak.Load() {
				peak.Store(v)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	var probeOK, probeAll atomic.Int64
	var probeSlow atomic.Int64
	go func() {
		defer probes.Done()
		client := &http.Client{Timeout: probeDeadline}
		for ctx.Err() == nil {
			t0 := time.Now()
			req, _ := http.NewRequest(http.MethodGet, r.srv.base+"/sentiment?text=What+a+lovely+day", nil)
			req.Header.Set("X-API-Key", r.key)
			res, err := client.Do(req)
			d := time.Since(t0)
			probeAll.Add(1)
			if err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode == http.StatusOK {
					probeOK.Add(1)
				}
			}
			if int64(d) > probeSlow.Load() {
				probeSlow.Store(int64(d))
			}
			time.Sleep(250 * time.Millisecond)
		}
	}()
	o := attack()
	cancel()
	probes.Wait()
	o.restRSS = rest
	o.peakRSS = max(float64(peak.Load())/1024, r.srv.peak())
	o.probeOK, o.probeAll, o.probeSlow = int(probeOK.Load()), int(probeAll.Load()), time.Duration(probeSlow.Load())
	if o.peakRSS > maxRSSMB {
		o.misses = append(o.misses, fmt.Sprintf("peak RSS %.0f MB over %d MB", o.peakRSS, maxRSSMB))
	}
	if o.probeAll > 0 && o.probeOK < o.probeAll {
		o.misses = append(o.misses, fmt.Sprintf("probe served %d of %d", o.probeOK, o.probeAll))
	}
	return o
}

// headers opens n connections from addrs loopback addresses, each
// dripping total bytes of a request's headers and never ending them, and
// holds them until the server closes them or 12 s pass (past the header
// timeout).
func (r *runner) headers(n, total, addrs int) outcome {
	const line, burst = 1000, 20
	host := strings.TrimPrefix(r.srv.base, "http://")
	pad := strings.Repeat("a", line-len("X-Pad-0000: \r\n"))
	o := outcome{statuses: map[int]int{}, sent: n}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 1, byte(1+i%addrs))}}
			c, err := d.Dial("tcp", host)
			if err != nil {
				mu.Lock()
				o.statuses[0]++
				mu.Unlock()
				return
			}
			defer c.Close()
			start := time.Now()
			deadline := start.Add(12 * time.Second)
			_ = c.SetDeadline(deadline)
			status := 0
			// Read the server's answer, if any, while writing.
			answered := make(chan int, 1)
			go func() {
				res, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					answered <- 0
					return
				}
				answered <- res.StatusCode
			}()
			fmt.Fprintf(c, "GET /sentiment?text=hi HTTP/1.1\r\nHost: %s\r\nX-API-Key: %s\r\n", host, r.key)
			sent := 0
			for j := 0; sent < total; j++ {
				var b strings.Builder
				for k := range burst {
					fmt.Fprintf(&b, "X-Pad-%04d: %s\r\n", (j*burst+k)%10000, pad)
				}
				if _, err := io.WriteString(c, b.String()); err != nil {
					break
				}
				sent += b.Len()
				time.Sleep(85 * time.Millisecond)
			}
			select {
			case status = <-answered:
			case <-time.After(time.Until(deadline)):
			}
			mu.Lock()
			o.statuses[status]++
			if status != 0 {
				o.answered++
			}
			o.slowest = max(o.slowest, time.Since(start))
			mu.Unlock()
		}()
	}
	wg.Wait()
	o.note = "answered with a status; others closed or timed out"
	return o
}

// display sends six concurrent /ner/display requests whose ten spans each
// cover the whole 100,000-code-point text.
func (r *runner) display() outcome {
	text := strings.Repeat("word ", 20_000)
	spans := make([]string, 10)
	for i := range spans {
		spans[i] = fmt.Sprintf("0:%d:LABEL%d", len(text), i)
	}
	body, _ := json.Marshal(map[string]string{"text": text, "spans": strings.Join(spans, ","), "format": "span"})
	o := r.concurrent(6, func(client *http.Client) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, r.srv.base+"/ner/display", bytes.NewReader(body))
		req.Header.Set("X-API-Key", r.key)
		return req, err
	})
	return o
}

// nested asks /text for a page that is 8 KB on the wire and 4.5 MiB of
// nested <div> once inflated, four times at once.
func (r *runner) nested() outcome {
	body, _ := json.Marshal(map[string]string{"url": r.hostile + "/nested"})
	return r.concurrent(4, func(client *http.Client) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, r.srv.base+"/text", bytes.NewReader(body))
		req.Header.Set("X-API-Key", r.key)
		return req, err
	})
}

// concurrent sends n requests at once and waits for every answer, allowing
// each the server's deadline plus a grace.
func (r *runner) concurrent(n int, build func(*http.Client) (*http.Request, error)) outcome {
	o := outcome{statuses: map[int]int{}, sent: n}
	var mu sync.Mutex
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 4 * requestDeadline}
	var bytesIn atomic.Int64
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, err := build(client)
			if err != nil {
				log.Fatal(err)
			}
			t0 := time.Now()
			res, err := client.Do(req)
			status := 0
			if err == nil {
				nb, _ := io.Copy(io.Discard, res.Body)
				bytesIn.Add(nb)
				res.Body.Close()
				status = res.StatusCode
			}
			d := time.Since(t0)
			mu.Lock()
			defer mu.Unlock()
			o.statuses[status]++
			o.slowest = max(o.slowest, d)
			if status != 0 && d <= requestDeadline+answerGrace {
				o.answered++
			}
		}()
	}
	wg.Wait()
	o.note = fmt.Sprintf("%.1f MB of answers", float64(bytesIn.Load())/1e6)
	if o.answered < o.sent {
		o.misses = append(o.misses, fmt.Sprintf("%d of %d requests answered within %s", o.answered, o.sent, requestDeadline+answerGrace))
	}
	return o
}

var liveKey = regexp.MustCompile(`ta_live_[A-Za-z0-9]{20,}`)

// signup signs up 30 variants of one address from one client and counts
// the keys that work before any address was confirmed: shown on the page
// or present in the server's log.
func (r *runner) signup() outcome {
	o := outcome{statuses: map[int]int{}}
	variants := []string{"abuser@example.com", "ABUSER@example.com", "Abuser@Example.com"}
	for i := 1; len(variants) < 30; i++ {
		variants = append(variants, fmt.Sprintf("abuser+%d@example.com", i), fmt.Sprintf("a.b.user+x%d@gmail.com", i))
	}
	keys := map[string]bool{}
	client := &http.Client{Timeout: probeDeadline}
	for _, email := range variants[:30] {
		o.sent++
		res, err := client.PostForm(r.srv.base+"/developer/signup", url.Values{"email": {email}})
		if err != nil {
			o.statuses[0]++
			continue
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		o.answered++
		o.statuses[res.StatusCode]++
		for _, k := range liveKey.FindAllString(string(page), -1) {
			keys[k] = true
		}
	}
	for _, k := range liveKey.FindAllString(r.srv.logs(), -1) {
		keys[k] = true
	}
	working := 0
	for k := range keys {
		req, _ := http.NewRequest(http.MethodGet, r.srv.base+"/sentiment?text=hi", nil)
		req.Header.Set("X-API-Key", k)
		if res, err := client.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				working++
			}
		}
	}
	o.note = fmt.Sprintf("%d working keys without confirmation", working)
	if working > 0 {
		o.misses = append(o.misses, fmt.Sprintf("%d keys work before any address was confirmed", working))
	}
	return o
}

// logs sends requests that carry secrets where a careless logger would
// copy them, then searches everything the server logged for each secret.
func (r *runner) logs() outcome {
	o := outcome{statuses: map[int]int{}}
	secret := r.key[len(r.key)-20:]
	send := func(method, target string, header http.Header, body string) {
		o.sent++
		req, err := http.NewRequest(method, target, strings.NewReader(body))
		if err != nil {
			log.Fatal(err)
		}
		req.Header = header
		res, err := (&http.Client{Timeout: requestDeadline}).Do(req)
		if err != nil {
			o.statuses[0]++
			return
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		o.answered++
		o.statuses[res.StatusCode]++
	}
	withKey := http.Header{"X-Api-Key": {r.key}}
	send("GET", r.srv.base+"/sentiment?text=hi", http.Header{"X-Api-Key": {r.key + ", ta_live_x"}}, "")
	send("GET", r.srv.base+"/sentiment?text=hi", http.Header{"Authorization": {"Bearer " + r.key + " ta_live_"}}, "")
	for _, p := range []string{"/mcp/k/", "//mcp/k/", "/mcp//k/", "/mcp/./k/", "/MCP/k/", "/mcp/k//"} {
		send("POST", r.srv.base+p+r.key, http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}},
			`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	}
	leaky := strings.Replace(r.hostile, "http://", "http://leakuser:s3cretPassw0rd@", 1) + "/fail?access_token=t0kenValue99"
	send("POST", r.srv.base+"/text", withKey, `{"url":"`+leaky+`"}`)
	send("GET", r.srv.base+"/text?url="+url.QueryEscape(leaky), withKey, "")
	send("POST", r.srv.base+"/qa", withKey, `{"question":"who?","url":"`+leaky+`"}`)
	time.Sleep(200 * time.Millisecond)
	logs := r.srv.logs()
	for _, s := range []string{r.key, secret, "s3cretPassw0rd", "t0kenValue99"} {
		if strings.Contains(logs, s) {
			o.misses = append(o.misses, fmt.Sprintf("the log holds the secret %q…", s[:6]))
		}
	}
	o.note = fmt.Sprintf("%d secrets found in %d log bytes", len(o.misses), len(logs))
	return o
}

// startHostileSite serves the attack pages: /nested, a gzip bomb of nested
// divs, and /fail, a 500.
func startHostileSite() *httptest {
	var page bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&page, gzip.BestCompression)
	_, _ = io.WriteString(zw, "<!doctype html><html><head><title>deep</title></head><body>")
	div := []byte(strings.Repeat("<div>", 1024))
	for range (4<<20 + 512<<10) / len(div) {
		_, _ = zw.Write(div)
	}
	_, _ = io.WriteString(zw, "text at the bottom</body></html>")
	_ = zw.Close()
	gz := page.Bytes()
	mux := http.NewServeMux()
	mux.HandleFunc("/nested", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(len(gz)))
		_, _ = w.Write(gz)
	})
	mux.HandleFunc("/fail", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusInternalServerError)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	hs := &http.Server{Handler: mux}
	go func() { _ = hs.Serve(ln) }()
	log.Printf("hostile page: %d bytes of gzip", len(gz))
	return &httptest{URL: "http://" + ln.Addr().String(), srv: hs}
}

type httptest struct {
	URL string
	srv *http.Server
}

func (h *httptest) Close() { _ = h.srv.Close() }

// served is a running `serve` process.
type served struct {
	*serveproc.Proc
	base string
}

func (s *served) logs() string { return s.Logs() }

func (s *served) stop() { s.Stop() }

func startServe(bin string, env []string, dir string) *served {
	p, err := serveproc.Start(context.Background(), serveproc.Options{Bin: bin, Env: env, Dir: dir,
		Args: []string{"--log-level", "debug", "--allow-private", "--rate-scale", "1000"}})
	if err != nil {
		log.Fatal(err)
	}
	return &served{Proc: p, base: p.Base}
}

// rss is the process's resident memory now, in MB.
func (s *served) rss() float64 { return s.status("VmRSS:") }

// peak is the process's peak resident memory since the last resetPeak.
func (s *served) peak() float64 { return s.status("VmHWM:") }

// resetPeak starts a new peak (writing 5 to clear_refs resets VmHWM).
func (s *served) resetPeak() {
	_ = os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", s.Pid()), []byte("5"), 0)
}

func (s *served) status(field string) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.Pid()))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return 0
		}
		log.Fatal(err)
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
