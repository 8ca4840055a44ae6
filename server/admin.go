package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"strconv"
	"strings"
	"time"
)

// AdminHandler serves the operator endpoints: /metrics (Prometheus text),
// /healthz, /readyz and the Go profiles under /debug/pprof/ (see
// [profileNames]); any other path is a 404. The public handler
// (ServeHTTP) serves none of them: serve this one on an address only
// operators reach. ListenAndServe does so on Config.AdminAddr.
func (s *Server) AdminHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.handler())
	mux.HandleFunc("GET /healthz", serveHealth)
	mux.HandleFunc("GET /readyz", s.serveReady)
	handleProfiles(mux)
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]string{"detail": "Not Found"})
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		mux.ServeHTTP(w, r)
	})
}

// profileNames are the runtime profiles the admin address serves by name
// at /debug/pprof/NAME. net/http/pprof's index and /cmdline are left out:
// the command line may hold a database URL with its password.
var profileNames = []string{"allocs", "block", "goroutine", "heap", "mutex", "threadcreate"}

// handleProfiles serves the Go profiles on mux, for an operator's go tool
// pprof or go tool trace: the CPU profile (/debug/pprof/profile?seconds=N)
// (10 s unless ?seconds=N says otherwise) and the execution trace (1 s),
// each at most maxProfileSeconds long, and the named profiles.
func handleProfiles(mux *http.ServeMux) {
	// timed checks ?seconds, and sets it to def when it is missing.
	timed := func(h http.HandlerFunc, def int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			sec := q.Get("seconds")
			if sec == "" {
				q.Set("seconds", strconv.Itoa(def))
				r.URL.RawQuery = q.Encode()
			} else if n, err := strconv.Atoi(sec); err != nil || n < 1 || n > maxProfileSeconds {
				writeJSON(w, http.StatusBadRequest, map[string]string{
					"detail": fmt.Sprintf("seconds must be a whole number from 1 to %d", maxProfileSeconds)})
				return
			}
			h(w, r)
		}
	}
	mux.HandleFunc("GET /debug/pprof/profile", timed(pprof.Profile, 10))
	mux.HandleFunc("GET /debug/pprof/trace", timed(pprof.Trace, 1))
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	for _, name := range profileNames {
		mux.Handle("GET /debug/pprof/"+name, pprof.Handler(name))
	}
}

// maxProfileSeconds bounds a CPU profile or trace taken through the admin
// address: under the admin server's WriteTimeout (30 s), so the answer is
// never cut.
const maxProfileSeconds = 25

// adminOff reports whether Config.AdminAddr turns the admin listener off.
func adminOff(addr string) bool {
	return strings.EqualFold(strings.TrimSpace(addr), "off")
}

// serveAdmin listens on Config.AdminAddr and serves AdminHandler there
// until stop is called. With AdminAddr "off" it does nothing. A busy
// address is an error: an operator who asked for metrics must not get a
// server without them.
func (s *Server) serveAdmin() (stop func(), err error) {
	if adminOff(s.cfg.AdminAddr) {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", s.cfg.AdminAddr)
	if err != nil {
		return nil, fmt.Errorf("server: admin listener (set another address, or off): %w", err)
	}
	hs := &http.Server{
		Handler:           s.AdminHandler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("admin listener", "err", err)
		}
	}()
	s.log.Info("serving admin endpoints", "addr", ln.Addr().String())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := hs.Shutdown(ctx); err != nil {
			_ = hs.Close()
		}
		<-done
	}, nil
}
