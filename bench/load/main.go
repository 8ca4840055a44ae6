package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/textanalysis/go-textanalysis/bench/internal/serveproc"
)

type target struct {
	name, method, path, body string
}

var targets = []target{
	{"analyze_sentiment (short)", "GET", "/sentiment?text=What+a+lovely+day", ""},
	{"analyze_ner_post", "POST", "/ner", `{"text":"Ada Lovelace worked with Charles Babbage in London in 1843 on the Analytical Engine."}`},
	{"display_ner_post", "POST", "/ner/display", `{"text":"Ada Lovelace was born in London.","spans":"0:12:PERSON,25:31:GPE"}`},
	{"qa_post", "POST", "/qa", `{"question":"Where was Ada Lovelace born?","context":"Ada Lovelace was born in London on 10 December 1815. She worked with Charles Babbage on the Analytical Engine."}`},
	{"validation error (422)", "GET", "/ner", ""},
}

func main() {
	bin := flag.String("bin", "textanalysis", "the textanalysis binary")
	conc := flag.Int("c", 16, "concurrent clients")
	dur := flag.Duration("d", 10*time.Second, "time per operation and mode")
	only := flag.String("only", "", "run only operations whose name contains this")
	cpuProfile := flag.String("cpuprofile", "", "write this load generator's CPU profiles of the first round to FILE-metered.prof and FILE-unmetered.prof")
	sched := flag.Bool("sched", false, "take an execution trace of the metered server in the first round (half of -d, from its admin address) and print where its group commit's time goes in the Go scheduler")
	serverProfile := flag.String("serverprofile", "", "write the servers' CPU profiles of the first round (half of -d, from their admin addresses) to FILE-metered.prof and FILE-unmetered.prof")
	rounds := flag.Int("rounds", 1, "alternate metered and unmetered this many times per operation and report medians (the machine's load changes between runs)")
	flag.Parse()
	if *dur > 5*time.Minute || *conc > 256 || *rounds < 1 || *rounds > 50 {
		log.Fatal("keep -d under 5m, -c under 256 and -rounds within 1-50")
	}

	dir, err := os.MkdirTemp("", "textanalysis-load-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	dbURL := os.Getenv("TEXTANALYSIS_DATABASE_URL")
	if dbURL == "" {
		dbURL = filepath.Join(dir, "load.db")
	}
	env := append(os.Environ(), "TEXTANALYSIS_DATABASE_URL="+dbURL)

	created, err := serveproc.CreateKey(context.Background(), *bin, env, dir, "payg", fmt.Sprintf("load-%d@example.com", time.Now().UnixNano()))
	if err != nil {
		log.Fatal(err)
	}

	// The metered server serves the admin endpoints (on a free port) for
	// its group commit's counters.
	metered := serve(*bin, env, dir, "", "--rate-scale", "10000")
	defer metered.Stop()
	openAdmin := "off"
	if *serverProfile != "" {
		openAdmin = ""
	}
	open := serve(*bin, env, dir, openAdmin, "--no-keys")
	defer open.Stop()

	fmt.Printf("concurrency %d, %s per operation and mode, store %s", *conc, *dur, storeKind(dbURL))
	if *rounds > 1 {
		fmt.Printf(", medians of %d alternating rounds (the ratio is the median of each round's ratio)", *rounds)
	}
	fmt.Print("\n\n")
	fmt.Println("| operation | metered req/s | p50 | p99 | unmetered req/s | p50 | p99 | metered/unmetered |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, tg := range targets {
		if *only != "" && !strings.Contains(tg.name, *only) {
			continue
		}
		var ms, os []result
		var ratios []float64
		var traced chan schedResult
		for round := range *rounds {
			prof := func(mode string) func() {
				if round > 0 || *cpuProfile == "" {
					return func() {}
				}
				return startProfile(*cpuProfile + "-" + mode + ".prof")
			}
			serverProf := func(p *serveproc.Proc, mode string) chan error {
				if round > 0 || *serverProfile == "" {
					return nil
				}
				return fetchProfile(p.Admin, *serverProfile+"-"+mode+".prof", *dur)
			}
			stop := prof("metered")
			if round == 0 && *sched {
				traced = startTrace(metered.Admin, *dur)
			}
			mp := serverProf(metered, "metered")
			m := drive(metered, created.Key, tg, *conc, *dur)
			stop()
			stop = prof("unmetered")
			op := serverProf(open, "unmetered")
			o := drive(open, "", tg, *conc, *dur)
			stop()
			for _, c := range []chan error{mp, op} {
				if c != nil {
					if err := <-c; err != nil {
						log.Printf("server profile: %v", err)
					}
				}
			}
			ms, os = append(ms, m), append(os, o)
			ratios = append(ratios, m.rps/o.rps)
		}
		m, o := median(ms), median(os)
		fmt.Printf("| %s | %.0f | %s | %s | %.0f | %s | %s | %.2f |\n", tg.name,
			m.rps, msec(m.p50), msec(m.p99), o.rps, msec(o.p50), msec(o.p99), medianOf(ratios))
		if m.serverCPU > 0 && o.serverCPU > 0 {
			fmt.Printf("|  CPU per request, server + load generator: metered %s + %s, unmetered %s + %s |\n",
				usec(m.serverCPU), usec(m.genCPU), usec(o.serverCPU), usec(o.genCPU))
		}
		if m.perCommit > 0 {
			fmt.Printf("|  requests per commit of counts (metered): %.1f; mean commit %s, mean wait of a request for its count %s |\n",
				m.perCommit, usec(m.commit), usec(m.wait))
		}
		if traced != nil {
			if r := <-traced; r.err != nil {
				fmt.Printf("|  trace of the metered server: %v |\n", r.err)
			} else {
				fmt.Printf("|  trace of the metered server, first round: the batcher blocked in the store %s; then waited for a core %s; other goroutines waited for a core %s |\n",
					spread(r.stats.storeWaits), spread(r.stats.batcherRunDelays), spread(r.stats.otherRunDelays))
			}
		}
		if *rounds > 1 {
			fmt.Printf("|  ratios of the rounds: %s |\n", fmtRatios(ratios))
		}
		if m.errors+o.errors > 0 {
			fmt.Printf("|  errors: metered %d, unmetered %d (statuses %v / %v) |\n", m.errors, o.errors, m.statuses, o.statuses)
		}
	}
}

// median is the median of each figure of rs apart; errors are summed.
func median(rs []result) result {
	out := result{statuses: map[int]int{}}
	var rps []float64
	var p50, p99 []time.Duration
	for _, r := range rs {
		rps, p50, p99 = append(rps, r.rps), append(p50, r.p50), append(p99, r.p99)
		out.errors += r.errors
		for k, v := range r.statuses {
			out.statuses[k] += v
		}
	}
	out.rps, out.p50, out.p99 = medianOf(rps), medianOf(p50), medianOf(p99)
	var srv, gen []time.Duration
	for _, r := range rs {
		srv, gen = append(srv, r.serverCPU), append(gen, r.genCPU)
	}
	out.serverCPU, out.genCPU = medianOf(srv), medianOf(gen)
	var pc []float64
	for _, r := range rs {
		pc = append(pc, r.perCommit)
	}
	out.perCommit = medianOf(pc)
	var commit, wait []time.Duration
	for _, r := range rs {
		commit, wait = append(commit, r.commit), append(wait, r.wait)
	}
	out.commit, out.wait = medianOf(commit), medianOf(wait)
	return out
}

func medianOf[T float64 | time.Duration](xs []T) T {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

func fmtRatios(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(s, " ")
}

func storeKind(url string) string {
	if strings.HasPrefix(url, "postgres") {
		return "PostgreSQL"
	}
	return "SQLite"
}

func msec(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func usec(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1000) }

// serve starts a server on a free loopback port and waits for it, with
// its admin endpoints on admin (serveproc.Options.AdminAddr: "" for a free
// port, "off" for none).
func serve(bin string, env []string, dir, admin string, args ...string) *serveproc.Proc {
	p, err := serveproc.Start(context.Background(), serveproc.Options{Bin: bin, Env: env, Dir: dir, AdminAddr: admin,
		Args: append([]string{"--log-level", "warn"}, args...)})
	if err != nil {
		log.Fatal(err)
	}
	return p
}

type result struct {
	rps      float64
	p50, p99 time.Duration
	errors   int
	statuses map[int]int
	// serverCPU and genCPU are the CPU time (user and system) per
	// answered request of the server and of this load generator; 0 where
	// the system does not tell (see procCPU).
	serverCPU, genCPU time.Duration
	// perCommit is the mean number of requests a transaction of counts
	// held (the metered server's group commit); 0 when not known.
	perCommit float64
	// commit and wait are the mean transaction of counts and the mean
	// time a counted request waited for its transaction's end.
	commit, wait time.Duration
}

// drive sends requests from conc clients for dur and collects latencies.
func drive(srv *serveproc.Proc, key string, tg target, conc int, dur time.Duration) result {
	base := srv.Base
	tr := &http.Transport{MaxIdleConnsPerHost: conc, MaxIdleConns: conc}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	defer tr.CloseIdleConnections()
	want := http.StatusOK
	if strings.Contains(tg.name, "422") {
		want = http.StatusUnprocessableEntity
	}
	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	var mu sync.Mutex
	var lat []time.Duration
	res := result{statuses: map[int]int{}}
	var wg sync.WaitGroup
	m0 := meterCounters(srv.Admin)
	srv0, srvOK := procCPU(srv.Pid())
	gen0, genOK := selfCPU()
	start := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			bad := map[int]int{}
			for ctx.Err() == nil {
				var body io.Reader
				if tg.body != "" {
					body = strings.NewReader(tg.body)
				}
				req, _ := http.NewRequestWithContext(ctx, tg.method, base+tg.path, body)
				if key != "" {
					req.Header.Set("X-API-Key", key)
				}
				t0 := time.Now()
				r, err := client.Do(req)
				if err != nil {
					if ctx.Err() == nil {
						bad[0]++
					}
					continue
				}
				_, _ = io.Copy(io.Discard, r.Body)
				r.Body.Close()
				if r.StatusCode != want {
					bad[r.StatusCode]++
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			for k, v := range bad {
				res.statuses[k] += v
				res.errors += v
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	srv1, srvOK1 := procCPU(srv.Pid())
	m1 := meterCounters(srv.Admin)
	if commits, counted := m1.commits-m0.commits, m1.counted-m0.counted; commits > 0 && counted > 0 {
		res.perCommit = counted / commits
		res.commit = time.Duration((m1.commitSeconds - m0.commitSeconds) / commits * 1e9)
		res.wait = time.Duration((m1.waitSeconds - m0.waitSeconds) / counted * 1e9)
	}
	gen1, genOK1 := selfCPU()
	if n := time.Duration(len(lat)); n > 0 && srvOK && srvOK1 && genOK && genOK1 {
		res.serverCPU, res.genCPU = (srv1-srv0)/n, (gen1-gen0)/n
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		res.p50 = lat[len(lat)/2]
		res.p99 = lat[min(len(lat)-1, len(lat)*99/100)]
	}
	res.rps = float64(len(lat)) / elapsed.Seconds()
	return res
}

// meterCounters reads the group commit's counters from the admin
// endpoint's /metrics; zeros when there is none.
func meterCounters(admin string) (m meterCount) {
	if admin == "" {
		return m
	}
	r, err := http.Get(admin + "/metrics")
	if err != nil {
		return m
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(b), "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch name {
		case "textanalysis_meter_commits_total":
			m.commits = v
		case "textanalysis_meter_counted_requests_total":
			m.counted = v
		case "textanalysis_meter_commit_seconds_total":
			m.commitSeconds = v
		case "textanalysis_meter_wait_seconds_total":
			m.waitSeconds = v
		}
	}
	return m
}

// meterCount is what /metrics says of the group commit so far.
type meterCount struct {
	commits, counted, commitSeconds, waitSeconds float64
}

// fetchProfile saves a server's CPU profile, taken from its admin
// address over the middle half of a run of dur, to file.
func fetchProfile(admin, file string, dur time.Duration) chan error {
	out := make(chan error, 1)
	secs := min(max(int(dur.Seconds()/2), 1), 25)
	go func() {
		time.Sleep(dur / 4)
		r, err := http.Get(fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", admin, secs))
		if err != nil {
			out <- err
			return
		}
		defer r.Body.Close()
		if r.StatusCode != http.StatusOK {
			out <- fmt.Errorf("%s: %s", admin, r.Status)
			return
		}
		f, err := os.Create(file)
		if err != nil {
			out <- err
			return
		}
		_, err = io.Copy(f, r.Body)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		out <- err
	}()
	return out
}

// startProfile profiles this process's CPU into file until the returned
// function is called.
func startProfile(file string) func() {
	f, err := os.Create(file)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
}
