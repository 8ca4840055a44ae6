package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"

	"github.com/textanalysis/go-textanalysis/bench/internal/serveproc"
	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
)

const (
	instances     = 3
	killed        = 1 // the instance that is SIGKILLed and restarted
	probeInterval = 40 * time.Millisecond
	rateTolerance = 0.20
	body          = `{"text":"What a lovely day, and what a fine cluster."}`
)

func main() {
	bin := flag.String("bin", "textanalysis", "the textanalysis binary")
	assert := flag.Bool("assert", false, "exit 1 when a pass condition fails")
	dur := flag.Duration("d", 20*time.Second, "length of the run")
	conc := flag.Int("c", 12, "clients driving the rate-limited key")
	offerX := flag.Float64("offer", 4, "the clients together send this many times the plan's rate (paced)")
	scale := flag.Float64("rate-scale", 2, "serve --rate-scale: the Pay as you go rate is 50/s times this")
	keyCache := flag.Duration("key-cache", access.DefaultKeyCacheTTL, "serve --key-cache: the bound on revocation")
	pgURL := flag.String("pg", envOr("TEXTANALYSIS_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"), "PostgreSQL `URL`; the run uses a fresh schema in it")
	redisURL := flag.String("redis", envOr("TEXTANALYSIS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"), "Redis `URL` shared by the instances")
	flag.Parse()
	if *dur < 8*time.Second || *dur > 5*time.Minute || *conc < 1 || *conc > 256 {
		log.Fatal("keep -d within 8s..5m and -c within 1..256")
	}
	ctx := context.Background()

	dir, err := os.MkdirTemp("", "textanalysis-cluster-")
	check(err)
	defer os.RemoveAll(dir)
	dbURL, dropSchema := freshSchema(ctx, *pgURL)
	defer dropSchema()
	env := serveproc.Env("TEXTANALYSIS_DATABASE_URL=" + dbURL)

	// The deployment's order: migrate once, then servers that do not.
	out, err := serveproc.Run(ctx, *bin, env, dir, "migrate")
	check(err)
	fmt.Print(string(out))
	load, err := serveproc.CreateKey(ctx, *bin, env, dir, "payg", "cluster-load@example.com")
	check(err)
	revoked, err := serveproc.CreateKey(ctx, *bin, env, dir, "payg", "cluster-revoked@example.com")
	check(err)
	resetBuckets(ctx, *redisURL, load, revoked)

	args := []string{"--migrate=false", "--log-level", "warn", "--redis-url", *redisURL,
		"--key-cache", keyCache.String(), "--rate-scale", strconv.FormatFloat(*scale, 'f', -1, 64)}
	procs := make([]*serveproc.Proc, instances)
	var started sync.WaitGroup
	for i := range procs {
		started.Go(func() {
			p, err := serveproc.Start(ctx, serveproc.Options{Bin: *bin, Env: env, Dir: dir, Args: args})
			check(err)
			procs[i] = p
		})
	}
	started.Wait()
	defer func() {
		for _, p := range procs {
			if p != nil {
				p.Stop()
			}
		}
	}()
	bases := make([]string, instances)
	for i, p := range procs {
		bases[i] = p.Base
	}
	plan := access.DefaultRates[store.PlanPayg]
	planRate := plan.PerSecond * *scale
	fmt.Printf("%d instances on PostgreSQL (fresh schema) and Redis; %d clients sending %.0f/s on one Pay as you go key (plan rate %.0f/s, burst %d), probes of a second key every %s per instance; key cache %s; run %s\n\n",
		instances, *conc, planRate**offerX, planRate, int(float64(plan.Burst)**scale), probeInterval, *keyCache, *dur)
	// Each client paces itself, so that the instances are driven above
	// the plan's rate without a flood of refusals taking the machine.
	pace := time.Duration(float64(*conc) / (planRate * *offerX) * float64(time.Second))

	// The run.
	var stopping atomic.Bool
	var rr atomic.Uint64
	client := &http.Client{
		Transport: &http.Transport{MaxIdleConnsPerHost: *conc, MaxIdleConns: *conc * instances},
		Timeout:   15 * time.Second,
	}
	defer client.CloseIdleConnections()
	var mu sync.Mutex
	var loadEvents, probeEvents []event
	var clients sync.WaitGroup
	start := time.Now()
	// drive sends a request every interval, to the instance next picks,
	// until the run stops, and adds what its client saw to into.
	drive := func(every time.Duration, key string, next func() int, into *[]event) {
		clients.Go(func() {
			var mine []event
			tick := time.NewTicker(every)
			defer tick.Stop()
			for !stopping.Load() {
				<-tick.C
				i := next()
				mine = append(mine, send(client, i, bases[i], key))
			}
			mu.Lock()
			*into = append(*into, mine...)
			mu.Unlock()
		})
	}
	for range *conc {
		drive(pace, load.Key, func() int { return int(rr.Add(1) % instances) }, &loadEvents)
	}
	for i := range instances {
		drive(probeInterval, revoked.Key, func() int { return i }, &probeEvents)
	}

	sleepUntil(start.Add(*dur * 3 / 10))
	killAt := time.Now()
	procs[killed].Kill()
	killedLogs := procs[killed].Logs()
	p, err := procs[killed].Restart(ctx)
	check(err)
	procs[killed] = p
	readyAt := time.Now()

	sleepUntil(later(start.Add(*dur*55/100), readyAt.Add(500*time.Millisecond)))
	revokeStart := time.Now()
	_, err = serveproc.Run(ctx, *bin, env, dir, "keys", "revoke", strconv.FormatInt(revoked.KeyID, 10))
	check(err)
	revokeDone := time.Now()

	sleepUntil(later(start.Add(*dur), revokeDone.Add(2**keyCache+time.Second)))
	stopAt := time.Now()
	stopping.Store(true)
	clients.Wait()
	for _, p := range procs {
		p.Stop()
	}

	// What the store counted.
	counted := usage(ctx, *bin, env, dir, start, time.Now())
	fmt.Printf("instance %d SIGKILLed at %.1f s, serving again %.1f s later; key %d revoked at %.1f s (the command took %d ms); run ended at %.1f s\n\n",
		killed, secs(killAt.Sub(start)), secs(readyAt.Sub(killAt)), revoked.KeyID, secs(revokeStart.Sub(start)),
		revokeDone.Sub(revokeStart).Milliseconds(), secs(stopAt.Sub(start)))

	failOpen := strings.Count(killedLogs, "redis rate limit unavailable")
	for _, p := range procs {
		failOpen += strings.Count(p.Logs(), "redis rate limit unavailable")
	}
	var failures []string
	fmt.Println("| key | sent | 200s | 429 rate_limited | 401 | other statuses | refused connections | cut by the kill | counted | lost | double |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, k := range []struct {
		name   string
		key    serveproc.Key
		events []event
	}{{"driven", load, loadEvents}, {"revoked mid-run", revoked, probeEvents}} {
		s := summarize(k.events)
		c := counted[k.key.AccountID]
		lost, double := max(0, s.ok-c), max(0, c-s.ok-s.cut)
		fmt.Printf("| %s | %d | %d | %d | %d | %s | %d | %d | %d | %d | %d |\n",
			k.name, s.sent, s.ok, s.rateLimited, s.unauthorized, s.otherText(), s.refused, s.cut, c, lost, double)
		if lost > 0 || double > 0 {
			failures = append(failures, fmt.Sprintf("%s key: %d lost, %d double", k.name, lost, double))
		}
		if len(s.other) > 0 {
			failures = append(failures, fmt.Sprintf("%s key: unexpected statuses %s", k.name, s.otherText()))
		}
	}

	// The shared rate, from the first rate-limit refusal to the end.
	first, okAfter := time.Time{}, 0
	for _, ev := range loadEvents {
		if ev.status == http.StatusTooManyRequests && (first.IsZero() || ev.got.Before(first)) {
			first = ev.got
		}
	}
	for _, ev := range loadEvents {
		if ev.status == http.StatusOK && !first.IsZero() && ev.got.After(first) && !ev.got.After(stopAt) {
			okAfter++
		}
	}
	offered := float64(len(loadEvents)) / stopAt.Sub(start).Seconds()
	if first.IsZero() {
		failures = append(failures, fmt.Sprintf("the driven key was never rate limited (offered %.0f/s against a plan rate of %.0f/s)", offered, planRate))
	} else {
		held := float64(okAfter) / stopAt.Sub(first).Seconds()
		fmt.Printf("\nrate held: %.1f accepted/s from the first 429 (at %.1f s) to the end, plan rate %.0f/s (%+.1f%%); offered %.0f/s across %d instances; Redis fell back to per-process limits %d times\n",
			held, secs(first.Sub(start)), planRate, 100*(held-planRate)/planRate, offered, instances, failOpen)
		if held < planRate*(1-rateTolerance) || held > planRate*(1+rateTolerance) {
			failures = append(failures, fmt.Sprintf("rate %.1f/s is not within %.0f%% of the plan's %.0f/s", held, 100*rateTolerance, planRate))
		}
	}

	// Revocation, per instance.
	fmt.Printf("\nrevocation (bound: the key cache, %s, from `keys revoke` returning):\n\n", *keyCache)
	fmt.Println("| instance | last 200 sent after revoke | first 401 revoked_key sent after revoke | 200s sent ≥ bound after | refused from then on |")
	fmt.Println("|---|---|---|---|---|")
	for i := range instances {
		var last200, first401 time.Duration = -1, -1
		late := 0
		var lastEvent event
		for _, ev := range probeEvents {
			if ev.inst != i || ev.sent.Before(revokeDone) {
				continue
			}
			since := ev.sent.Sub(revokeDone)
			if ev.sent.After(lastEvent.sent) {
				lastEvent = ev
			}
			switch {
			case ev.status == http.StatusOK:
				last200 = max(last200, since)
				if since >= *keyCache {
					late++
				}
			case ev.status == http.StatusUnauthorized && ev.code == "revoked_key":
				if first401 < 0 || since < first401 {
					first401 = since
				}
			}
		}
		refusing := lastEvent.status == http.StatusUnauthorized && lastEvent.code == "revoked_key"
		fmt.Printf("| %d | %s | %s | %d | %v |\n", i, msOrNone(last200), msOrNone(first401), late, refusing)
		if late > 0 || !refusing || first401 < 0 {
			failures = append(failures, fmt.Sprintf("instance %d: %d 200s for the revoked key sent %s or more after the revocation; refusing at the end: %v", i, late, *keyCache, refusing))
		}
	}

	if len(failures) > 0 {
		fmt.Println("\nFAILED:")
		for _, f := range failures {
			fmt.Println("  -", f)
		}
		for i, p := range procs {
			if logs := strings.TrimSpace(p.Logs()); logs != "" {
				fmt.Printf("\ninstance %d log (tail):\n%s\n", i, tail(logs, 2000))
			}
		}
		if *assert {
			for _, p := range procs {
				p.Stop()
			}
			dropSchema()
			os.Exit(1)
		}
		return
	}
	fmt.Println("\nall pass conditions met")
}

// An event is one request and what its client saw.
type event struct {
	inst      int
	sent, got time.Time
	status    int    // 0: no answer
	refused   bool   // no answer because the connection was refused
	code      string // "error" of a JSON error body
}

// send makes one metered request. It is a POST whose body cannot be
// replayed, so that Go's transport never resends it on a broken
// connection: a GET would be retried, and one request could count twice
// while the client saw one answer.
func send(client *http.Client, inst int, base, key string) event {
	ev := event{inst: inst, sent: time.Now()}
	req, err := http.NewRequest(http.MethodPost, base+"/sentiment", strings.NewReader(body))
	check(err)
	req.GetBody = nil
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", key)
	res, err := client.Do(req)
	ev.got = time.Now()
	if err != nil {
		ev.refused = errors.Is(err, syscall.ECONNREFUSED)
		return ev
	}
	defer res.Body.Close()
	ev.status = res.StatusCode
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	if res.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(b, &e)
		ev.code = e.Error
	}
	return ev
}

type summary struct {
	sent, ok, rateLimited, unauthorized, refused, cut int64
	other                                             map[string]int64
}

func summarize(events []event) summary {
	s := summary{other: map[string]int64{}}
	for _, ev := range events {
		s.sent++
		switch {
		case ev.status == http.StatusOK:
			s.ok++
		case ev.status == http.StatusTooManyRequests && ev.code == "rate_limited":
			s.rateLimited++
		case ev.status == http.StatusUnauthorized && ev.code == "revoked_key":
			s.unauthorized++
		case ev.status == 0 && ev.refused:
			s.refused++
		case ev.status == 0:
			s.cut++
		default:
			s.other[fmt.Sprintf("%d %s", ev.status, ev.code)]++
		}
	}
	return s
}

func (s summary) otherText() string {
	if len(s.other) == 0 {
		return "none"
	}
	var parts []string
	for k, v := range s.other {
		parts = append(parts, fmt.Sprintf("%s: %d", k, v))
	}
	return strings.Join(parts, ", ")
}

// usage sums `textanalysis usage` per account over the months of from..to.
func usage(ctx context.Context, bin string, env []string, dir string, from, to time.Time) map[int64]int64 {
	months := []string{from.UTC().Format("2006-01")}
	if m := to.UTC().Format("2006-01"); m != months[0] {
		months = append(months, m)
	}
	counted := map[int64]int64{}
	for _, m := range months {
		out, err := serveproc.Run(ctx, bin, env, dir, "usage", "--month", m, "--format", "json")
		check(err)
		var lines []struct {
			AccountID int64 `json:"account_id"`
			Requests  int64 `json:"requests"`
		}
		check(json.Unmarshal(out, &lines))
		for _, l := range lines {
			counted[l.AccountID] += l.Requests
		}
	}
	return counted
}

// freshSchema makes a schema of its own for this run in the database of
// base, and returns the URL that selects it and a function that drops it.
func freshSchema(ctx context.Context, base string) (string, func()) {
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		log.Fatalf("PostgreSQL at -pg: %v", err)
	}
	defer conn.Close(ctx)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "ta_cluster_" + hex.EncodeToString(b)
	_, err = conn.Exec(ctx, "CREATE SCHEMA "+schema)
	check(err)
	var once sync.Once
	drop := func() {
		once.Do(func() {
			if c, err := pgx.Connect(context.Background(), base); err == nil {
				_, _ = c.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
				c.Close(context.Background())
			}
		})
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema, drop
}

// resetBuckets empties the Redis buckets of the run's accounts: account
// IDs start again in every fresh schema, so an earlier run's bucket would
// otherwise be drawn on.
func resetBuckets(ctx context.Context, url string, keys ...serveproc.Key) {
	opts, err := redis.ParseURL(url)
	check(err)
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	if err := rdb.Ping(ctx).Err(); err != nil {
		log.Fatalf("Redis at -redis: %v", err)
	}
	for _, k := range keys {
		check(rdb.Del(ctx, access.RedisKeyPrefix+k.Plan+":"+strconv.FormatInt(k.AccountID, 10)).Err())
	}
}

func sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func secs(d time.Duration) float64 { return d.Seconds() }

func msOrNone(d time.Duration) string {
	if d < 0 {
		return "none"
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
