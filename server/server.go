package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"path"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/developer"
	"github.com/textanalysis/go-textanalysis/server/mcp"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// A Server answers the HTTP API. It is safe for concurrent use.
type Server struct {
	cfg     Config
	an      *textanalysis.Analyzer
	log     *slog.Logger
	handler http.Handler
	openapi []byte // built once: the document does not change while serving
	now     func() time.Time
	// sandboxKey is the docs console's key (empty without a Gate).
	sandboxKey string
	site       http.Handler
	mcp        http.Handler
	api        http.Handler // the mux without the outer middleware: MCP tool calls run through it
	metrics    *metrics
	work       *workLimiter // nil: no cap on concurrent work
	fetches    *workLimiter // nil: no cap on concurrent page fetches
	bodies     *workLimiter // nil: no cap on POST body bytes held
	// draining is set when shutdown begins: /readyz answers 503 from then.
	draining atomic.Bool
}

// StartupTimeout bounds the store I/O of New (the docs console's key), so
// that a database that does not answer fails the start instead of hanging
// it.
const StartupTimeout = 30 * time.Second

// MaxHeaderBytes caps a request's line and headers together: 64 KiB,
// answered 431 above it (the http.Server is given 4 KiB less, the slack
// Go's server adds to its MaxHeaderBytes, so that this is the real limit). A GET carries its text
// in the URL, so GET texts are limited to about 60,000 characters of
// English percent-encoded, or 7,000 of Chinese or Japanese; longer texts go
// by POST. Each connection holds at most this much while its headers
// arrive, which bounds the memory of many slow clients.
const MaxHeaderBytes = 64 << 10

// goHeaderSlack is what net/http reads past http.Server.MaxHeaderBytes
// before it answers 431.
const goHeaderSlack = 4096

// New builds a Server over an Analyzer.
func New(cfg Config, an *textanalysis.Analyzer) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if an == nil {
		return nil, errors.New("server: nil Analyzer")
	}
	markdownTmpl()
	htmlTmpl()
	s := &Server{cfg: cfg.withDefaults(), an: an, now: time.Now, metrics: newMetrics()}
	s.log = slog.New(redactLogs(s.cfg.Logger.Handler()))
	s.work = newWorkLimiter(s.cfg.MaxWork, s.cfg.MaxWorkWait)
	s.fetches = newWorkLimiter(int64(s.cfg.MaxFetches), s.cfg.MaxWorkWait)
	s.bodies = newWorkLimiter(s.cfg.MaxBodyBuffer, s.cfg.MaxWorkWait)
	doc, err := json.Marshal(s.openAPI())
	if err != nil {
		return nil, fmt.Errorf("server: build openapi: %w", err)
	}
	s.openapi = doc
	if s.cfg.Gate != nil {
		// New has no context: its store I/O gets StartupTimeout.
		ctx, cancel := context.WithTimeout(context.Background(), StartupTimeout)
		key, err := s.cfg.Gate.SandboxKey(ctx)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("server: sandbox key: %w", err)
		}
		s.sandboxKey = key
		s.metrics.meter(s.cfg.Gate)
		base := s.cfg.BaseURL
		if base == "" {
			base = LocalURL(s.cfg.Addr)
		}
		devURL := s.cfg.DeveloperURL
		if devURL == "" {
			devURL = base + "/developer"
		}
		site, err := developer.New(developer.Config{
			Gate: s.cfg.Gate, Mail: s.cfg.Mail, BaseURL: base, SiteURL: devURL, MCPURL: base + "/mcp",
			OpenAPI: doc, TrustedProxies: s.cfg.TrustedProxies, OperatorEmail: s.cfg.OperatorEmail, Logger: s.log,
		})
		if err != nil {
			return nil, err
		}
		s.site = http.StripPrefix("/developer", site)
	}
	// Tool calls run through the API's own routes, built just below.
	mh, err := mcp.New(mcp.Config{
		Tools: s.mcpTools(), MaxBodyBytes: s.cfg.MaxBodyBytes, Name: "go-textanalysis", Version: textanalysis.Version, Logger: s.log, AllowedOrigins: s.mcpOrigins(),
		API: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.api.ServeHTTP(w, r) }),
	})
	if err != nil {
		return nil, fmt.Errorf("server: mcp: %w", err)
	}
	s.mcp = mh
	s.handler = securityHeaders(s.routes())
	return s, nil
}

// mcpTools describes the ten operations as MCP tools, from the same table
// and field declarations as the OpenAPI document.
func (s *Server) mcpTools() []mcp.Tool {
	limits := s.an.Limits()
	components := responseSchemas()
	tools := make([]mcp.Tool, 0, len(operations))
	for _, op := range operations {
		props := map[string]any{}
		var required []string
		for _, f := range op.Fields {
			props[f.Name] = toJSONSchema(fieldSchema(f, limits), components)
			if f.Required {
				required = append(required, f.Name)
			}
		}
		schema := map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			schema["required"] = required
		}
		title, desc := s.mcpText(op)
		body := obj{"type": "string", "description": "The HTML fragment."}
		if op.Result != "html" {
			body, _ = toJSONSchema(ref(op.Result), components).(obj)
		}
		tools = append(tools, mcp.Tool{Name: op.ID, Title: title, Description: desc, InputSchema: schema, Method: op.Method, Path: op.Path, Body: body})
	}
	return tools
}

// ServeHTTP serves the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// ListenAndServe serves on Config.Addr until ctx ends, then lets in-flight
// requests finish for up to Config.ShutdownTimeout. It serves the operator
// endpoints (AdminHandler) on Config.AdminAddr meanwhile.
func (s *Server) ListenAndServe(ctx context.Context) error {
	stopAdmin, err := s.serveAdmin()
	if err != nil {
		return err
	}
	defer stopAdmin()
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("server: listen: %w", err)
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx ends; see ListenAndServe.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler: s,
		// A slow client must not hold a connection for ever: the header
		// must arrive in 10 s, a body of 1 MiB comfortably within the
		// read timeout, and the answer within the request timeout.
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      s.cfg.RequestTimeout + 10*time.Second,
		IdleTimeout:       120 * time.Second,
		// Texts longer than the URL allows go by POST.
		MaxHeaderBytes: MaxHeaderBytes - goHeaderSlack,
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	ln = limitConns(ln, s.cfg.MaxConns, s.cfg.MaxConnsPerAddr, s.cfg.TrustedProxies)
	go func() { errc <- hs.Serve(ln) }()
	s.log.Info("serving", "addr", ln.Addr().String())
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Not ready from now: a load balancer polling /readyz stops sending
	// new requests during DrainDelay, while this process still serves.
	s.draining.Store(true)
	if s.cfg.DrainDelay > 0 {
		s.log.Info("draining before shutdown", "delay", s.cfg.DrainDelay)
		t := time.NewTimer(s.cfg.DrainDelay)
		select {
		case err := <-errc:
			t.Stop()
			return err
		case <-t.C:
		}
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("server: shutdown: %w", err)
	}
	return nil
}

// routes builds the handler: one route per path, dispatching on method, so
// that a wrong method gets FastAPI's JSON 405 rather than Go's text.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	byPath := map[string]map[string]operation{}
	var paths []string
	for _, op := range operations {
		if byPath[op.Path] == nil {
			byPath[op.Path] = map[string]operation{}
			paths = append(paths, op.Path)
		}
		byPath[op.Path][op.Method] = op
	}
	for _, p := range paths {
		handlers := map[string]http.Handler{}
		for method, op := range byPath[p] {
			handlers[method] = s.limited(op, s.metered(s.operationHandler(op)))
		}
		mux.Handle(p, cors(corsMethods(handlers), s.methods(handlers)))
	}
	get := func(h http.HandlerFunc) map[string]http.Handler { return map[string]http.Handler{http.MethodGet: h} }
	mux.Handle("/{$}", cors("GET", s.methods(get(s.serveIndex))))
	mux.Handle("/openapi.json", cors("GET", s.methods(get(s.serveOpenAPI))))
	mux.Handle("/docs", s.methods(map[string]http.Handler{http.MethodGet: http.HandlerFunc(s.serveDocsHTML)}))
	mux.Handle("/docs.md", cors("GET", s.methods(get(s.serveDocsMarkdown))))
	mux.Handle("/docs/{file}", cors("GET", s.methods(get(s.serveOperationMarkdown))))
	if s.site != nil {
		mux.Handle("/developer/", s.site)
		mux.Handle("/developer", http.RedirectHandler("/developer/", http.StatusMovedPermanently))
	}
	if s.mcp != nil {
		mux.Handle("/mcp", s.heldBodies(s.mcp))
		mux.Handle("/mcp/", s.heldBodies(s.mcp))
	}
	mux.Handle("/healthz", s.methods(map[string]http.Handler{http.MethodGet: http.HandlerFunc(serveHealth)}))
	mux.Handle("/readyz", s.methods(map[string]http.Handler{http.MethodGet: http.HandlerFunc(s.serveReady)}))
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]string{"detail": "Not Found"})
	}))
	s.api = mux
	// Order matters: recover wraps everything so that a panic anywhere
	// still answers with the request id set by the next layer.
	// The key and meter layers wrap each operation (metered); other paths
	// only report the allowance of a key they are given (peekGateway).
	return s.recoverPanics(s.requestID(s.logRequests(s.peekGateway(mux))))
}

// corsMethods is the Access-Control-Allow-Methods value of a path.
func corsMethods(handlers map[string]http.Handler) string {
	return strings.Join(slices.Sorted(maps.Keys(handlers)), ", ")
}

// methods dispatches on the request method; HEAD is served as GET and
// OPTIONS answers 204 with Allow.
func (s *Server) methods(handlers map[string]http.Handler) http.Handler {
	allowHeader := strings.Join(slices.Sorted(maps.Keys(handlers)), ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h, ok := handlers[r.Method]; ok {
			h.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodHead {
			if h, ok := handlers[http.MethodGet]; ok {
				h.ServeHTTP(w, r)
				return
			}
		}
		if s.cfg.Gate != nil && isOperationPath(r.URL.Path) {
			// Every answer on an analysis path carries the allowance.
			d, err := s.cfg.Gate.Peek(r.Context(), presentedKey(r))
			if err != nil || d.Refused() {
				d = access.Decision{}
			}
			s.setGatewayHeaders(w, d)
		}
		if r.Method == http.MethodOptions {
			// A CORS preflight (cors set its headers) or a plain question
			// about the methods: neither is metered.
			w.Header().Set("Allow", allowHeader+", OPTIONS")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Allow", allowHeader)
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"detail": "Method Not Allowed"})
	})
}

// operationHandler is the one adapter between HTTP and an operation:
// decode and validate, run with a deadline, write the body or the error.
func (s *Server) operationHandler(op operation) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setOperation(r.Context(), op.ID)
		var (
			in  *input
			err error
		)
		source := "query"
		if op.Method == http.MethodPost {
			source = "body"
			in, err = decodeBody(op, r, s.cfg.MaxBodyBytes, s.an.Limits())
		} else {
			in, err = decodeQuery(op, r, s.an.Limits())
		}
		if err != nil {
			s.writeError(w, r, err, source, in)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
		defer cancel()
		body, err := op.run(s, ctx, in)
		if err != nil {
			s.writeError(w, r, err, source, in)
			return
		}
		if h, ok := body.(htmlBody); ok {
			s.writeHTML(w, r, h, source, in)
			return
		}
		writeJSON(w, http.StatusOK, body)
	})
}

func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error, source string, in *input) {
	status, body := errorResponse(err, source, in)
	if status >= 500 {
		id := requestIDFrom(r.Context())
		s.log.Error("request failed", "request_id", id, "operation", operationFrom(r.Context()), "status", status, "err", err)
		if p, ok := body.(problem); ok {
			p.RequestID = id
			body = p
		}
	}
	writeJSON(w, status, body)
}

// writeJSON writes v compactly, without Go's HTML escaping of <, > and &,
// as FastAPI does, so that error bodies match byte for byte.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	if err := EncodeJSON(&buf, v, false); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"detail":"Internal server error.","error":"internal"}`)
	}
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// LocalURL is the address a server on addr answers at on this machine,
// for links when no public BaseURL is configured.
func LocalURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://localhost:8080"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func serveHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

type ctxKey int

const (
	requestIDKey ctxKey = iota
	operationKey
)

// requestInfo is shared by the middleware layers through the context; the
// handler fills in the operation for the log line.
// Several MCP tool calls of one request may set it at once, hence the lock.
type requestInfo struct {
	id        string
	mu        sync.Mutex
	operation string
	keyPrefix string // never the key: enough to tell keys apart in logs
}

func requestIDFrom(ctx context.Context) string {
	if info, ok := ctx.Value(requestIDKey).(*requestInfo); ok {
		return info.id
	}
	return ""
}

func operationFrom(ctx context.Context) string {
	if info, ok := ctx.Value(requestIDKey).(*requestInfo); ok {
		info.mu.Lock()
		defer info.mu.Unlock()
		return info.operation
	}
	return ""
}

func keyPrefixFrom(ctx context.Context) string {
	if info, ok := ctx.Value(requestIDKey).(*requestInfo); ok {
		info.mu.Lock()
		defer info.mu.Unlock()
		return info.keyPrefix
	}
	return ""
}

func setKeyPrefix(ctx context.Context, prefix string) {
	if info, ok := ctx.Value(requestIDKey).(*requestInfo); ok {
		info.mu.Lock()
		info.keyPrefix = prefix
		info.mu.Unlock()
	}
}

func setOperation(ctx context.Context, id string) {
	if info, ok := ctx.Value(requestIDKey).(*requestInfo); ok {
		info.mu.Lock()
		info.operation = id
		info.mu.Unlock()
	}
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// requestID gives every request an id, in X-Request-Id on every response.
// A client's own X-Request-Id is kept when it is short and printable, so
// that logs on both sides can be joined.
func (s *Server) requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !validRequestID(id) {
			id = newRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		info := &requestInfo{id: id}
		ctx := context.WithValue(r.Context(), requestIDKey, info)
		if s.cfg.Gate != nil {
			// The gate's per-client limits (unknown keys) read it, on a
			// key cache miss only.
			ctx = access.WithRequestClient(ctx, r, s.cfg.TrustedProxies)
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 || access.PrefixOf(id) != "" {
		// Too long, or a key pasted in the wrong header: ids are logged.
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// statusRecorder remembers the status and size for the log line.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *statusRecorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// Flush lets streaming handlers (the MCP endpoint) flush through the
// recorder.
func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logRequests writes one line per request: never the query string, body,
// key or client address, which may hold what users keep private. The path
// is logged as the route it matched, never as sent (see logRoute).
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		route := s.routeOf(r)
		rec := &statusRecorder{ResponseWriter: w}
		s.metrics.inflight.Inc()
		defer s.metrics.inflight.Dec()
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		s.metrics.observe(operationFrom(r.Context()), rec.status, time.Since(start))
		s.log.Info("request",
			"request_id", requestIDFrom(r.Context()),
			"method", logMethod(r.Method),
			"path", route,
			"operation", operationFrom(r.Context()),
			"key_prefix", keyPrefixFrom(r.Context()),
			"status", rec.status,
			"bytes", rec.bytes,
			"duration_ms", time.Since(start).Milliseconds())
	})
}

// routeOf is the route r matches, for the log: see logRoute.
func (s *Server) routeOf(r *http.Request) string {
	mux, ok := s.api.(*http.ServeMux)
	if !ok {
		return "other"
	}
	_, pattern := mux.Handler(r)
	return logRoute(pattern, r.URL.Path)
}

// logRoute names the route of a request for the log, from the pattern
// the mux matched: a path a client sent is never logged verbatim, because
// a client may put a key anywhere in it (/mcp/k/<key>, //mcp/k/<key>,
// /MCP/k/<key>, a mistyped path). Unmatched paths are "other"; the MCP
// key path is "/mcp/k/{key}"; the developer site's pages keep their
// names when every segment is a plain lower-case word.
func logRoute(pattern, reqPath string) string {
	p := path.Clean("/" + reqPath)
	switch pattern {
	case "", "/":
		return "other"
	case "/{$}":
		return "/"
	case "/mcp", "/mcp/":
		switch {
		case p == "/mcp":
			return "/mcp"
		case strings.HasPrefix(p, mcp.PathKeyPrefix):
			return "/mcp/k/{key}"
		}
		return "/mcp/{other}"
	case "/developer/":
		if developerPage.MatchString(p) {
			return p
		}
		return "/developer/{other}"
	}
	return pattern
}

// developerPage matches the developer site's page names, and not tokens,
// keys or addresses, which carry digits, capitals, '_' or '@'.
var developerPage = regexp.MustCompile(`^/developer(/[a-z][a-z.-]{0,23})*$`)

// logMethod is the request method for the log: a standard one, or "other".
func logMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}

// recoverPanics turns a panic into a 500 with the request id, logged once.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			id := w.Header().Get("X-Request-Id")
			s.log.Error("panic", "request_id", id, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			writeJSON(w, http.StatusInternalServerError, problem{
				Detail: "Internal server error. Quote the request id when you report it.", Error: "internal", RequestID: id,
			})
		}()
		next.ServeHTTP(w, r)
	})
}
