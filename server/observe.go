package server

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/textanalysis/go-textanalysis/server/access"
)

// metrics are the server's Prometheus series. Labels are operation ids
// and status codes only: never keys, paths or inputs, which would leak
// secrets and grow without bound.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	inflight prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "textanalysis_http_requests_total",
			Help: "HTTP requests by operation (\"other\" for docs and site pages) and status.",
		}, []string{"operation", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "textanalysis_http_request_duration_seconds",
			Help:    "Time to answer, by operation and status.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"operation", "status"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "textanalysis_http_requests_in_flight",
			Help: "Requests being answered.",
		}),
	}
	m.registry.MustRegister(m.requests, m.latency, m.inflight,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// meter adds the gate's group commit of counts: the mean batch is
// requests over commits, and few requests per commit cost the store.
func (m *metrics) meter(g *access.Gate) {
	m.registry.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "textanalysis_meter_commits_total",
			Help: "Transactions of counts committed by this process (group commit).",
		}, func() float64 { b, _ := g.BatchStats(); return float64(b) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "textanalysis_meter_counted_requests_total",
			Help: "Requests counted by those transactions.",
		}, func() float64 { _, r := g.BatchStats(); return float64(r) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "textanalysis_meter_commit_seconds_total",
			Help: "Time spent committing those transactions; over the commits, the mean commit (the least metering adds to a request).",
		}, func() float64 { c, _ := g.BatchTimes(); return c.Seconds() }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "textanalysis_meter_wait_seconds_total",
			Help: "Time the counted requests waited from being queued to their transaction's end; over the counted requests, the mean wait.",
		}, func() float64 { _, w := g.BatchTimes(); return w.Seconds() }))
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

func (m *metrics) observe(operation string, status int, d time.Duration) {
	if operation == "" {
		operation = "other"
	}
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(operation, code).Inc()
	m.latency.WithLabelValues(operation, code).Observe(d.Seconds())
}

// serveReady answers 200 when the server can do its work: the models are
// loaded (they are, once New returned), the store answers (Store.Ping) and
// the server is not shutting down (503 "draining" from the moment its
// context ends, see Config.DrainDelay).
func (s *Server) serveReady(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "draining", "detail": "the server is shutting down"})
		return
	}
	if s.cfg.Gate != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.cfg.Gate.Store().Ping(ctx); err != nil {
			s.log.Warn("not ready", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "detail": "the store does not answer"})
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}
