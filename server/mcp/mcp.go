package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Tool is one API operation offered as an MCP tool.
type Tool struct {
	Name        string         // the operation id
	Title       string         // a short human title
	Description string         // what it does, for a model to act on
	InputSchema map[string]any // JSON Schema of the arguments (from the same declarations as the OpenAPI document); its "type" must be "object"
	Method      string         // the HTTP method of the operation: GET takes arguments as query parameters, POST as the JSON body
	Path        string         // the HTTP path of the operation
	// Body is the JSON Schema of the operation's 200 body; nil means any
	// JSON value. Error bodies are described by the endpoint itself.
	Body map[string]any
}

// Config configures the MCP endpoint.
type Config struct {
	Tools []Tool
	// API is the HTTP API's handler; tool calls are served by it, so keys,
	// metering, validation and answers are the HTTP operation's own.
	// Required.
	API http.Handler
	// MaxBodyBytes caps an MCP request body; 0 means 1 MiB. Larger bodies
	// get 413.
	MaxBodyBytes int64
	// MaxResultBytes caps the body of one answer of API that a tool result
	// carries; 0 means 16 MiB. A larger answer becomes a tool result with
	// status 500 and error "result_too_large".
	MaxResultBytes int64
	// Name and Version identify the server to clients; "" means
	// "go-textanalysis" and "0.0.0".
	Name, Version string
	// Logger receives the SDK's warnings and errors (never a key, an
	// argument or a path); nil discards.
	Logger *slog.Logger
	// AllowedOrigins are the web origins ("https://app.example.com", scheme,
	// host and port) whose pages may call the endpoint. A request whose
	// Origin header names any other origin gets 403, as the MCP transport
	// requires against DNS rebinding: otherwise any web page a user opens
	// could drive the tools with the user's network position. Requests
	// without Origin (every client that is not a browser) pass. "*" allows
	// every origin; nil allows none.
	AllowedOrigins []string
}

// Defaults for the zero fields of Config.
const (
	DefaultMaxBodyBytes   = 1 << 20
	DefaultMaxResultBytes = 16 << 20
)

// MaxBatch is the most messages a JSON-RPC batch (protocol 2025-03-26)
// may hold; a longer batch is refused whole with -32600 and HTTP 400.
// Each message is answered in full and the answers are held until the
// last one is done, so without a cap a 48-byte tools/list, answered with
// 46 KB, let one request without a key make the server build an answer a
// thousand times its size (1 GB for a 1 MiB body). Clients send batches
// rarely, and short ones; 2025-06-18 dropped them.
const MaxBatch = 16

// PathKeyPrefix is where a key may travel as a path segment, for clients
// that can only be given a URL: /mcp/k/<key>.
const PathKeyPrefix = "/mcp/k/"

// A Result is what every tool call returns, as JSON text content and as
// structured content: the status and body the HTTP operation answers for
// the same input, and the key's allowance after the call.
type Result struct {
	// Status is the HTTP status the operation answered.
	Status int `json:"status"`
	// Body is the operation's JSON body, or its HTML as a JSON string for
	// the display tools.
	Body json.RawMessage `json:"body"`
	// Gateway is the allowance after the call.
	Gateway Gateway `json:"gateway"`
	// RetryAfter is the answer's Retry-After in whole seconds: how long to
	// wait before calling again, on a 429 that waiting cures (the
	// per-second limit, or a used-up monthly allowance) or a busy 503.
	// Absent otherwise: HTTP clients read the header, which a tool result
	// has no other way to carry.
	RetryAfter *int64 `json:"retry_after,omitempty"`
}

// Gateway carries the X-Gw-Remaining and X-Gw-Reset values of the
// answer; both are nil (JSON null) when the call had no valid key.
type Gateway struct {
	Remaining *int64  `json:"remaining"`
	Reset     *string `json:"reset"`
}

// errNotObject answers a call whose arguments are not a JSON object: a
// protocol error (JSON-RPC invalid params), never metered.
var errNotObject = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool arguments must be a JSON object"}

// errorBodySchema describes the body of every status but 200: a detail
// for a person (a list of problems for 422) and, but for 422, a machine
// code.
var errorBodySchema = map[string]any{
	"type": "object", "required": []any{"detail"},
	"properties": map[string]any{
		"detail": map[string]any{"description": "What went wrong: a sentence, or for 422 a list of {type, loc, msg, input} problems."},
		"error":  map[string]any{"type": "string", "description": "Machine code, e.g. rate_limited, allowance_exhausted, missing_key, fetch_failed."},
	},
}

// statusDescription lists every status a tool result can carry.
const statusDescription = "The HTTP status the operation answered: 200 success (body is the answer); " +
	"401 no valid key (missing_key, invalid_key, revoked_key, trial_expired); 413 arguments larger than the body limit; " +
	"422 invalid arguments (body.detail lists each problem); 429 refused: body.error rate_limited (wait retry_after seconds) " +
	"or allowance_exhausted (body.action says wait, upgrade or claim); 500 internal error (quote body.request_id); " +
	"502 the page at url could not be fetched (body.cause says why); 503 the server is busy (wait retry_after seconds); 504 the call took too long."

// outputSchemaFor describes the Result of t, so that clients can check and
// models can read the structured content: body is t's 200 answer or an
// error body.
func outputSchemaFor(t Tool) map[string]any {
	ok := t.Body
	if ok == nil {
		ok = map[string]any{}
	}
	s := maps.Clone(outputSchema)
	props := maps.Clone(s["properties"].(map[string]any))
	desc := "With status 200, the operation's answer; otherwise an error body."
	if ok["type"] == "string" {
		desc = "With status 200, the HTML fragment as a string; otherwise an error body."
	}
	props["body"] = map[string]any{"description": desc, "anyOf": []any{ok, errorBodySchema}}
	s["properties"] = props
	return s
}

// outputSchema is the shape of every Result; outputSchemaFor fills in the
// body of one tool.
var outputSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"status": map[string]any{"type": "integer", "description": statusDescription},
		"body":   map[string]any{"description": "The operation's JSON answer (or error), or the HTML string of the display tools."},
		"gateway": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"remaining": map[string]any{"type": []any{"integer", "null"}, "description": "Requests left in the key's allowance this period (X-Gw-Remaining); null without a valid key."},
				"reset":     map[string]any{"type": []any{"string", "null"}, "description": "When the allowance refills, RFC 3339 UTC (X-Gw-Reset); null without a valid key."},
			},
			"required": []any{"remaining", "reset"},
		},
		"retry_after": map[string]any{"type": "integer", "minimum": 0, "description": "Seconds to wait before calling again (the HTTP Retry-After header); present on a 429 that waiting cures and on a busy 503."},
	},
	"required": []any{"status", "body", "gateway"},
}

const instructions = `Each tool is one operation of the go-textanalysis HTTP API and answers {"status", "body", "gateway": {"remaining", "reset"}, "retry_after"?}: the HTTP status and body the operation gives for the same input, the key's allowance after the call, and the Retry-After seconds when waiting helps. Calling a tool needs an API key (X-API-Key or Authorization: Bearer header, or the URL /mcp/k/<key>); every call counts against the key's allowance like an HTTP request. On status 429 read body.error: "rate_limited" is the per-second limit, so wait retry_after seconds (body.reset is the time) and call again; "allowance_exhausted" means the period's allowance is used up: body.action says "wait" until body.reset (gateway.reset, often days away), "upgrade" (ask for more at body.upgrade_url) or "claim" (claim the trial key at body.claim_url). On status 503 wait retry_after seconds.`

// New returns the handler to mount at /mcp and /mcp/ (for /mcp/k/<key>).
// Other paths under /mcp/ answer 404. The handler is safe for concurrent
// use and keeps no state between requests.
func New(cfg Config) (http.Handler, error) {
	if cfg.API == nil {
		return nil, errors.New("mcp: Config.API is required")
	}
	if cfg.MaxBodyBytes < 0 || cfg.MaxResultBytes < 0 {
		return nil, errors.New("mcp: MaxBodyBytes and MaxResultBytes must not be negative")
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxResultBytes == 0 {
		cfg.MaxResultBytes = DefaultMaxResultBytes
	}
	if cfg.Name == "" {
		cfg.Name = "go-textanalysis"
	}
	if cfg.Version == "" {
		cfg.Version = "0.0.0"
	}
	origins, err := parseOrigins(cfg.AllowedOrigins)
	if err != nil {
		return nil, err
	}
	logger := quietLogger(cfg.Logger)
	srv := sdk.NewServer(&sdk.Implementation{Name: cfg.Name, Version: cfg.Version}, &sdk.ServerOptions{
		Instructions: instructions,
		Logger:       logger,
		// Stateless: the tool list never changes while serving, and there
		// is no session to notify.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	})
	seen := map[string]bool{}
	for _, t := range cfg.Tools {
		if err := checkTool(t); err != nil {
			return nil, err
		}
		if seen[t.Name] {
			return nil, fmt.Errorf("mcp: tool %q declared twice", t.Name)
		}
		seen[t.Name] = true
		if err := addTool(srv, t, cfg); err != nil {
			return nil, err
		}
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true,
		Logger:              logger,
		MaxRequestBodyBytes: cfg.MaxBodyBytes,
		// The SDK refuses a request that reached a loopback address with a
		// Host header that is not loopback (DNS rebinding protection for
		// MCP servers on a developer's machine). This endpoint is a public
		// API behind a reverse proxy, which connects over loopback with the
		// public Host, and every call needs a key anyway; so the check
		// would refuse every real client and protect nothing. DNS
		// rebinding is refused by the Origin check instead (checkOrigin).
		DisableLocalhostProtection: true,
	})
	return checkOrigin(origins, pathKeys(rpcErrors(h, cfg.MaxBodyBytes))), nil
}

func checkTool(t Tool) error {
	if t.Name == "" {
		return errors.New("mcp: tool without a name")
	}
	if t.Method != http.MethodGet && t.Method != http.MethodPost {
		return fmt.Errorf("mcp: tool %q: method %q is neither GET nor POST", t.Name, t.Method)
	}
	if !strings.HasPrefix(t.Path, "/") {
		return fmt.Errorf("mcp: tool %q: path %q does not start with /", t.Name, t.Path)
	}
	if t.InputSchema["type"] != "object" {
		return fmt.Errorf("mcp: tool %q: input schema must have type object", t.Name)
	}
	return nil
}

// addTool registers t with the SDK's low-level API, so that arguments
// reach the API's own validation untouched. The SDK panics on a schema it
// cannot use; that is a configuration error here.
func addTool(srv *sdk.Server, t Tool, cfg Config) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("mcp: tool %q: %v", t.Name, v)
		}
	}()
	props, _ := t.InputSchema["properties"].(map[string]any)
	_, fetches := props["url"]
	st := &sdk.Tool{
		Name:         t.Name,
		Title:        t.Title,
		Description:  t.Description,
		InputSchema:  t.InputSchema,
		OutputSchema: outputSchemaFor(t),
		Annotations: &sdk.ToolAnnotations{
			Title: t.Title,
			// The operations change nothing but the key's count.
			ReadOnlyHint: true,
			// Those with a url argument fetch pages from the web.
			OpenWorldHint: &fetches,
		},
	}
	srv.AddTool(st, caller{tool: t, api: cfg.API, maxResult: cfg.MaxResultBytes}.call)
	return nil
}

// A caller runs one tool through the HTTP API.
type caller struct {
	tool      Tool
	api       http.Handler
	maxResult int64
}

func (c caller) call(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	args, err := arguments(req.Params.Arguments)
	if err != nil {
		// A protocol error: it never reaches the API, so it is not metered.
		return nil, err
	}
	hr, err := c.request(ctx, args)
	if err != nil {
		return nil, err
	}
	if req.Extra != nil {
		for _, name := range []string{"X-API-Key", "Authorization"} {
			if v := req.Extra.Header.Values(name); len(v) > 0 {
				hr.Header[http.CanonicalHeaderKey(name)] = slices.Clone(v)
			}
		}
	}
	// The calls of a JSON-RPC batch run concurrently on the context of
	// one HTTP request, and the API keeps per-request state there (the
	// log line's operation and key prefix) that is not safe for
	// concurrent use: run them one at a time. Batches are rare.
	if mu, ok := ctx.Value(httpRequestKey{}).(*sync.Mutex); ok {
		mu.Lock()
		defer mu.Unlock()
	}
	rec := &recorder{ResponseRecorder: httptest.NewRecorder(), max: c.maxResult}
	res := c.serve(rec, hr)
	text, err := marshal(res)
	if err != nil {
		return nil, fmt.Errorf("mcp: encode result: %w", err)
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: string(text)}},
		StructuredContent: json.RawMessage(text),
		IsError:           res.Status >= http.StatusBadRequest,
	}, nil
}

// serve runs the operation. The SDK calls tools on goroutines of its own,
// outside the server's panic recovery, so a panic is answered here as the
// server would: a 500 that shows no internal text.
func (c caller) serve(rec *recorder, hr *http.Request) (res Result) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler {
			panic(v)
		}
		res = Result{Status: http.StatusInternalServerError, Body: json.RawMessage(`{"detail":"Internal server error.","error":"internal"}`)}
	}()
	c.api.ServeHTTP(rec, hr)
	return resultOf(rec)
}

// arguments returns the arguments of a call: absent means none ({}); any
// value other than a JSON object is invalid params, as MCP declares
// arguments an object.
func arguments(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return json.RawMessage("{}"), nil
	}
	if raw[0] != '{' || !json.Valid(raw) {
		return nil, errNotObject
	}
	return raw, nil
}

// request builds the HTTP request the operation would receive: POST with
// the arguments as its JSON body, GET with them as query parameters.
func (c caller) request(ctx context.Context, args json.RawMessage) (*http.Request, error) {
	target := c.tool.Path
	var body *bytes.Reader
	if c.tool.Method == http.MethodPost {
		body = bytes.NewReader(args)
	} else {
		q, err := query(args)
		if err != nil {
			return nil, err
		}
		if len(q) > 0 {
			target += "?" + q.Encode()
		}
	}
	var hr *http.Request
	var err error
	if body != nil {
		hr, err = http.NewRequestWithContext(ctx, c.tool.Method, target, body)
	} else {
		hr, err = http.NewRequestWithContext(ctx, c.tool.Method, target, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("mcp: build request: %w", err)
	}
	if body == nil {
		// The query holds each value as text; the API checks the JSON
		// types of the arguments as it does for the POST twin's body.
		var m map[string]json.RawMessage
		_ = json.Unmarshal(args, &m)
		hr = hr.WithContext(context.WithValue(hr.Context(), queryArgsKey{}, m))
	}
	if hr.Body == nil {
		// As a server request: a handler may read the body of any request.
		hr.Body = http.NoBody
	}
	hr.RequestURI = target
	hr.Header.Set("Accept", "application/json, text/html")
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	return hr, nil
}

type queryArgsKey struct{}

// QueryArguments returns the JSON arguments of a GET tool's call that the
// request carries in ctx, by name, or nil for a request that is not one.
// The query parameters hold them as text (a non-string value as its JSON
// text), so the API checks their JSON types here, and answers a wrongly
// typed argument as it would in the POST twin's body.
func QueryArguments(ctx context.Context) map[string]json.RawMessage {
	m, _ := ctx.Value(queryArgsKey{}).(map[string]json.RawMessage)
	return m
}

// query turns the arguments of a GET tool into query parameters: strings
// as they are, null as absent, other values as their JSON text (so that
// the API's validation sees and reports them as HTTP would).
func query(args json.RawMessage) (url.Values, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		return nil, errNotObject
	}
	q := url.Values{}
	for name, raw := range m {
		switch {
		case string(raw) == "null":
			continue
		case len(raw) > 0 && raw[0] == '"':
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return nil, errNotObject
			}
			q.Set(name, s)
		default:
			var buf bytes.Buffer
			if err := json.Compact(&buf, raw); err != nil {
				return nil, errNotObject
			}
			q.Set(name, buf.String())
		}
	}
	return q, nil
}

// resultOf turns the recorded answer into a Result.
func resultOf(rec *recorder) Result {
	if rec.overflow {
		return Result{
			Status: http.StatusInternalServerError,
			Body:   json.RawMessage(`{"detail":"The answer is too large for an MCP tool result; use the HTTP API.","error":"result_too_large"}`),
		}
	}
	res := Result{Status: rec.Code, Body: bodyOf(rec)}
	if res.Status == http.StatusUnauthorized {
		// No valid key, so no allowance to report.
		res.Body = withMCPKeyHint(res.Body)
		return res
	}
	h := rec.Header()
	if v, err := strconv.ParseInt(h.Get("Retry-After"), 10, 64); err == nil && v >= 0 {
		res.RetryAfter = &v
	}
	if v, err := strconv.ParseInt(h.Get("X-Gw-Remaining"), 10, 64); err == nil {
		res.Gateway.Remaining = &v
	}
	if v := h.Get("X-Gw-Reset"); v != "" {
		res.Gateway.Reset = &v
	}
	return res
}

// missingKeyDetail replaces the API's missing_key sentence over MCP, where
// a key can also travel in the URL, and where a client that rewrites URLs
// loses it without a word.
const missingKeyDetail = "An API key is required. Send it in the X-API-Key header or as Authorization: Bearer <key> " +
	"(the MCP client's headers setting), or, for a client that takes only a URL, in the path: " + PathKeyPrefix + "<key>. " +
	"Some clients rewrite the URL to /mcp and drop a key in the path (MCP Inspector 0.15 does): use the header with them."

// withMCPKeyHint gives a missing_key body the MCP sentence; other bodies
// are returned as they are.
func withMCPKeyHint(body json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || string(m["error"]) != `"missing_key"` {
		return body
	}
	m["detail"], _ = marshal(missingKeyDetail)
	m["detail"] = bytes.TrimSpace(m["detail"])
	out, err := marshal(m)
	if err != nil {
		return body
	}
	return bytes.TrimSpace(out)
}

// bodyOf is the answer's JSON as it is, or any other body (the display
// tools' HTML) as a JSON string.
func bodyOf(rec *recorder) json.RawMessage {
	b := rec.Body.Bytes()
	mt, _, _ := mime.ParseMediaType(rec.Header().Get("Content-Type"))
	if (mt == "application/json" || strings.HasSuffix(mt, "+json")) && json.Valid(b) {
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err == nil {
			return buf.Bytes()
		}
	}
	if len(b) == 0 && mt == "" {
		return json.RawMessage("null")
	}
	s, err := marshal(strings.ToValidUTF8(string(b), "\uFFFD"))
	if err != nil {
		return json.RawMessage("null")
	}
	return s
}

// marshal encodes v without Go's HTML escaping, so that the HTML of the
// display tools reads as it is.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// A recorder is an httptest.ResponseRecorder that keeps at most max bytes
// of body.
type recorder struct {
	*httptest.ResponseRecorder
	max      int64
	overflow bool
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.overflow || int64(r.Body.Len()+len(b)) > r.max {
		r.overflow = true
		return 0, errors.New("mcp: answer too large")
	}
	return r.ResponseRecorder.Write(b)
}

func (r *recorder) WriteString(s string) (int, error) {
	return r.Write([]byte(s))
}

// httpRequestKey holds a mutex per HTTP request in its context, which the
// SDK passes on to the tool handlers.
type httpRequestKey struct{}

// parseOrigins checks and normalises allowed origins: each is "*" or an
// http(s) origin, scheme://host[:port] with no path, query or user
// information. Scheme and host are lower-cased and a default port is
// dropped, as browsers send them.
func parseOrigins(list []string) (map[string]bool, error) {
	out := make(map[string]bool, len(list))
	for _, o := range list {
		if o == "*" {
			out["*"] = true
			continue
		}
		n, ok := normalOrigin(o)
		if !ok {
			return nil, fmt.Errorf("mcp: allowed origin %q is not \"*\" or scheme://host[:port]", o)
		}
		out[n] = true
	}
	return out, nil
}

// normalOrigin returns the canonical form of an origin, and false for
// anything that is not an http(s) origin.
func normalOrigin(o string) (string, bool) {
	u, err := url.Parse(strings.TrimSuffix(o, "/"))
	if err != nil || u.Host == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if scheme != "http" && scheme != "https" || host == "" {
		return "", false
	}
	if port == "80" && scheme == "http" || port == "443" && scheme == "https" {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, true
}

// checkOrigin refuses, with 403, a request whose Origin header is present
// and not allowed (see Config.AllowedOrigins). An Origin of "null" (a
// sandboxed frame, a file) is never allowed but by "*".
func checkOrigin(allowed map[string]bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		values := r.Header.Values("Origin")
		if len(values) == 0 || allowed["*"] {
			next.ServeHTTP(w, r)
			return
		}
		for _, v := range values {
			if n, ok := normalOrigin(strings.TrimSpace(v)); !ok || !allowed[n] {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusForbidden)
				_, _ = w.Write([]byte(`{"detail":"Requests from this web origin are not allowed. A browser page may call this endpoint only from an origin the server allows.","error":"origin_not_allowed"}`))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// pathKeys serves /mcp/k/<key> as /mcp with the key in X-API-Key (which
// then wins over any other key header), so that nothing after it sees the
// key in a path, and answers 404 for any other path below /mcp/.
func pathKeys(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.WithContext(context.WithValue(r.Context(), httpRequestKey{}, new(sync.Mutex)))
		p := r.URL.Path
		switch {
		case !isClean(p):
			// Only the clean spelling is served, so that what logs
			// redact (/mcp/k/{key}) is the one path a key travels in.
			// net/http's ServeMux redirects others before they get here.
			notFound(w)
		case p == "/mcp" || p == "/mcp/":
			next.ServeHTTP(w, r)
		case strings.HasPrefix(p, PathKeyPrefix):
			key := strings.TrimSuffix(p[len(PathKeyPrefix):], "/")
			if key == "" || strings.Contains(key, "/") {
				notFound(w)
				return
			}
			r2 := r.Clone(r.Context())
			r2.Header.Set("X-API-Key", key)
			r2.URL.Path, r2.URL.RawPath, r2.RequestURI = "/mcp", "", "/mcp"
			next.ServeHTTP(w, r2)
		default:
			notFound(w)
		}
	})
}

// isClean reports whether p is its own cleaned form, a trailing slash
// aside.
func isClean(p string) bool {
	c := path.Clean(p)
	return c == p || c+"/" == p
}

func notFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte(`{"detail":"Not Found"}`))
}

// quietLogger passes on only the SDK's warnings and errors: its info lines
// come once per request in stateless mode and say nothing useful.
func quietLogger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(minLevel{Handler: l.Handler().WithAttrs([]slog.Attr{slog.String("component", "mcp")}), min: slog.LevelWarn})
}

type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{Handler: h.Handler.WithAttrs(as), min: h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}
