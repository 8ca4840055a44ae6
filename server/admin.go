package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
)

// AdminHandler serves the operator endpoints: /metrics (Prometheus text),
// /healthz and /readyz; any other path is a 404. The public handler
// (ServeHTTP) does not serve /metrics: serve this one on an address only
// operators reach. ListenAndServe does so on Config.AdminAddr.
func (s *Server) AdminHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.handler())
	mux.HandleFunc("GET /healthz", serveHealth)
	mux.HandleFunc("GET /readyz", s.serveReady)
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]string{"detail": "Not Found"})
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		mux.ServeHTTP(w, r)
	})
}

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
