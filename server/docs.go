package server

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	texttemplate "text/template"

	"github.com/textanalysis/go-textanalysis/display"
	"github.com/textanalysis/go-textanalysis/ner"
	"github.com/textanalysis/go-textanalysis/sentiment"
	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

//go:embed templates
var templateFS embed.FS

// baseURL is the public address of the API: the configured one, or where
// the server answers on this machine. Never the request's Host header: a
// client chooses it, and links built from it would point where the client
// wants (a poisoned cache, a phishing link in a shared page).
func (s *Server) baseURL() string {
	if s.cfg.BaseURL != "" {
		return s.cfg.BaseURL
	}
	return LocalURL(s.cfg.Addr)
}

// mcpOrigins are the web origins allowed to call the MCP endpoint: the
// API's own (on this machine, by any loopback name) and the configured
// ones.
func (s *Server) mcpOrigins() []string {
	origins := []string{originOf(s.baseURL())}
	if s.cfg.BaseURL == "" {
		if u, err := url.Parse(LocalURL(s.cfg.Addr)); err == nil {
			for _, host := range []string{"localhost", "127.0.0.1", "::1"} {
				origins = append(origins, "http://"+net.JoinHostPort(host, u.Port()))
			}
		}
	}
	return append(origins, s.cfg.MCPAllowedOrigins...)
}

// originOf is the scheme://host[:port] of an absolute URL.
func originOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	return u.Scheme + "://" + u.Host
}

type indexOperation struct {
	OperationID string `json:"operation_id"`
	Method      string `json:"method"`
	Path        string `json:"path"`
	Summary     string `json:"summary"`
	Markdown    string `json:"markdown"`
}

type indexModel struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Labels      []string `json:"labels,omitempty"`
	Default     bool     `json:"default"`
}

type indexFormat struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type docsIndex struct {
	Name        string            `json:"name"`
	Version     string            `json:"version"`
	Description string            `json:"description"`
	OpenAPI     string            `json:"openapi"`
	Docs        map[string]string `json:"docs"`
	// Keys says where to get a key, the MCP endpoint and where the plans
	// and limits are told; absent on a server without keys.
	Keys            map[string]string `json:"keys,omitempty"`
	Operations      []indexOperation  `json:"operations"`
	NERModels       []indexModel      `json:"ner_models"`
	DisplayFormats  []indexFormat     `json:"display_formats"`
	SentimentModels []indexModel      `json:"sentiment_models"`
	Limits          map[string]any    `json:"limits"`
}

func (s *Server) index(base string) docsIndex {
	limits := s.an.Limits()
	idx := docsIndex{
		Name:        "go-textanalysis",
		Version:     textanalysis.Version,
		Description: "Text extraction from web pages, named entities and their display, sentiment and question answering.",
		OpenAPI:     base + "/openapi.json",
		Docs:        map[string]string{"html": base + "/docs", "markdown": base + "/docs.md"},
		Limits: map[string]any{
			"max_body_bytes":     s.cfg.MaxBodyBytes,
			"max_text_chars":     limits.MaxTextRunes,
			"max_question_chars": limits.MaxQuestionRunes,
			"max_url_chars":      limits.MaxURLRunes,
			"max_spans":          limits.MaxSpans,
			// The display package's fixed cap: the facade sets no other.
			"max_overlapping_spans": display.DefaultMaxOverlap,
			"max_display_bytes":     limits.MaxDisplayBytes,
			"max_header_bytes":      MaxHeaderBytes,
			"request_timeout_s":     s.cfg.RequestTimeout.Seconds(),
		},
	}
	if s.cfg.Gate != nil {
		dev := s.developerURL(base)
		idx.Keys = map[string]string{
			"developer_site": dev + "/",
			"trial":          "POST " + dev + "/trial",
			"plans":          base + "/docs.md#getting-a-key",
			"mcp":            base + "/mcp",
			"mcp_docs":       base + "/docs.md#mcp",
		}
	}
	for _, op := range operations {
		idx.Operations = append(idx.Operations, indexOperation{
			OperationID: op.ID, Method: op.Method, Path: op.Path, Summary: op.Summary,
			Markdown: base + "/docs/" + op.ID + ".md",
		})
	}
	for _, m := range ner.Models() {
		labels := make([]string, len(m.Labels))
		for i, l := range m.Labels {
			labels[i] = string(l)
		}
		idx.NERModels = append(idx.NERModels, indexModel{Name: m.Name, Description: m.Description, Labels: labels, Default: m.Name == s.an.DefaultNERModel()})
	}
	for _, f := range display.Formats() {
		idx.DisplayFormats = append(idx.DisplayFormats, indexFormat{Name: string(f.Name), Description: f.Description})
	}
	for _, m := range sentiment.Models() {
		idx.SentimentModels = append(idx.SentimentModels, indexModel{Name: m.Name, Description: m.Description, Default: m.Name == sentiment.DefaultModel})
	}
	return idx
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	setOperation(r.Context(), "docs__get")
	writeJSON(w, http.StatusOK, s.index(s.baseURL()))
}

func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(s.openapi)
}

// docsData feeds the HTML and markdown templates.
type docsData struct {
	// SandboxKey is the console's shared key, public by design: its
	// allowance is small and its own.
	SandboxKey       string
	SandboxAllowance int
	DeveloperURL     string
	Base             string
	Index            docsIndex
	Ops              []docsOperation
	Limits           textanalysis.Limits
	// ConsoleJS is the console's script, allowed by hash in docsPolicy.
	ConsoleJS htmltemplate.JS
	// BasePath is the path of the base URL ("" or "/v0"), which the
	// console's calls start with.
	BasePath string
	// Keys says the server takes keys; Plans are their plans' defaults.
	Keys  bool
	Plans []docsPlan
}

// A docsPlan is one row of the plans table: the service's defaults.
type docsPlan struct {
	Name, Allowance, Price string
	PerSecond, Burst       float64
}

func docsPlans() []docsPlan {
	r := access.DefaultRates
	return []docsPlan{
		{"Trial (`ta_trial_…`, no e-mail)", fmt.Sprintf("%d requests over %d days from issue; then claim it", access.DefaultTrialAllowance, int(access.DefaultTrialDuration.Hours()/24)), "free", r[store.PlanTrial].PerSecond, float64(r[store.PlanTrial].Burst)},
		{"Free (`ta_live_…`)", fmt.Sprintf("%d requests per calendar month (UTC)", access.DefaultFreeAllowance), "free", r[store.PlanFree].PerSecond, float64(r[store.PlanFree].Burst)},
		{"Pay as you go", fmt.Sprintf("up to a monthly cap, %d requests unless you ask for another", access.DefaultPaygCap), fmt.Sprintf("%.2f USD per 1,000 requests", access.PricePerRequestUSD*1000), r[store.PlanPayg].PerSecond, float64(r[store.PlanPayg].Burst)},
		{"Sandbox (the `/docs` console's shared key)", fmt.Sprintf("%d requests per month for everyone", access.DefaultSandboxAllowance), "free", r[store.PlanSandbox].PerSecond, float64(r[store.PlanSandbox].Burst)},
	}
}

// developerURL is the developer site's public address.
func (s *Server) developerURL(base string) string {
	if s.cfg.DeveloperURL != "" {
		return strings.TrimRight(s.cfg.DeveloperURL, "/")
	}
	return base + "/developer"
}

type docsOperation struct {
	operation
	Params  []docsParam
	Curl    string
	Example string // JSON body example for POST
	// Offline is the example's answer, shown instead of run, when the
	// example fetches a page from the internet; "" when it runs as is.
	Offline string
}

type docsParam struct {
	Name, Description, Constraints string
	Required                       bool
}

func (s *Server) docsData(base string) docsData {
	limits := s.an.Limits()
	d := docsData{Base: base, Index: s.index(base), Limits: limits, SandboxKey: s.sandboxKey, SandboxAllowance: access.DefaultSandboxAllowance, ConsoleJS: consoleJS}
	d.DeveloperURL = s.developerURL(base)
	// The console calls the API on the page's own origin, under the base
	// URL's path: behind a proxy at https://host/v0, /v0/text.
	if u, err := url.Parse(base); err == nil {
		d.BasePath = strings.TrimRight(u.Path, "/")
	}
	d.Keys = s.cfg.Gate != nil
	d.Plans = docsPlans()
	for _, op := range operations {
		do := docsOperation{operation: op}
		for _, f := range op.Fields {
			var cons []string
			if f.MinRunes > 0 {
				cons = append(cons, fmt.Sprintf("at least %d character", f.MinRunes))
			}
			if f.MaxRunes != nil {
				cons = append(cons, fmt.Sprintf("at most %d characters", f.MaxRunes(limits)))
			}
			if f.Enum != nil {
				cons = append(cons, "one of "+strings.Join(f.Enum(), ", "))
			}
			do.Params = append(do.Params, docsParam{Name: f.Name, Description: f.Description, Constraints: strings.Join(cons, "; "), Required: f.Required})
		}
		do.Curl, do.Example = curlExample(base, op)
		if op.Fetches && op.ID != "qa_post" {
			do.Offline = fetchedPageAnswer
		}
		d.Ops = append(d.Ops, do)
	}
	return d
}

// fetchedPageAnswer is what the get_text examples answer; they fetch a
// page from the internet, so the docs show it instead of the CI running
// them (.ci/docs-examples.sh skips examples that say "from the internet").
const fetchedPageAnswer = `{"url": "https://en.wikipedia.org/wiki/Ada_Lovelace", "final_url": "https://en.wikipedia.org/wiki/Ada_Lovelace", ` +
	`"title": "Ada Lovelace - Wikipedia", "author": null, "published": null, "language": "en", "language_tag": "en", ` +
	`"text": "Augusta Ada King, Countess of Lovelace (née Byron; 10 December 1815 – 27 November 1852) was an English mathematician and writer, chiefly known for her work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine. …", ` +
	`"word_count": 9000}`

// curlExample writes a request a reader can paste into a shell, and that
// runs as printed against the server: the required fields, and the ones
// an operation needs to show what it does (display's text with its spans,
// qa_post's context).
func curlExample(base string, op operation) (curl, body string) {
	var pairs []string
	var query []string
	for _, f := range op.Fields {
		shown := f.Required || f.Name == "spans" || (f.Name == "text" && hasField(op, "spans")) || (op.ID == "qa_post" && f.Name == "context")
		if f.Example == "" || !shown {
			continue
		}
		if op.ID == "qa_post" && f.Name == "url" {
			continue
		}
		pairs = append(pairs, fmt.Sprintf("%q: %q", f.Name, f.Example))
		query = append(query, f.Name+"="+strings.ReplaceAll(queryEscape(f.Example), "'", "%27"))
	}
	if op.Method == "GET" {
		return fmt.Sprintf("curl -H \"X-API-Key: $API_KEY\" '%s%s?%s'", base, op.Path, strings.Join(query, "&")), ""
	}
	body = "{" + strings.Join(pairs, ", ") + "}"
	return fmt.Sprintf("curl -H \"X-API-Key: $API_KEY\" -H 'Content-Type: application/json' \\\n  -d '%s' %s%s", strings.ReplaceAll(body, "'", `'\''`), base, op.Path), body
}

// inlineMarkdown renders the one piece of Markdown the descriptions use,
// `code`, as HTML for the reference page; everything else is escaped.
func inlineMarkdown(s string) htmltemplate.HTML {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 {
		// An unpaired backtick: show the text as it is.
		return htmltemplate.HTML(htmltemplate.HTMLEscapeString(s))
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 {
			b.WriteString("<code>" + htmltemplate.HTMLEscapeString(p) + "</code>")
			continue
		}
		b.WriteString(htmltemplate.HTMLEscapeString(p))
	}
	return htmltemplate.HTML(b.String())
}

// The docs' templates are parsed on first use, not at init: every command
// of the CLI links this package, and parsing them cost about 4 ms of each
// start-up. [New] parses them, so that a server with a broken template
// still fails at start.
var (
	markdownTmpl = sync.OnceValue(func() *texttemplate.Template {
		return texttemplate.Must(texttemplate.New("").Funcs(texttemplate.FuncMap{"join": func(s []string) string { return strings.Join(s, ", ") }}).ParseFS(templateFS, "templates/*.md.tmpl"))
	})
	htmlTmpl = sync.OnceValue(func() *htmltemplate.Template {
		return htmltemplate.Must(htmltemplate.New("").Funcs(htmltemplate.FuncMap{"md": inlineMarkdown}).ParseFS(templateFS, "templates/*.html.tmpl"))
	})
)

func (s *Server) serveDocsMarkdown(w http.ResponseWriter, r *http.Request) {
	s.renderMarkdown(w, "api.md.tmpl", s.docsData(s.baseURL()))
}

func (s *Server) serveOperationMarkdown(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutSuffix(r.PathValue("file"), ".md")
	op, found := operationByID(id)
	if !ok || !found {
		writeJSON(w, http.StatusNotFound, map[string]string{"detail": "Not Found"})
		return
	}
	data := s.docsData(s.baseURL())
	for _, do := range data.Ops {
		if do.ID == op.ID {
			s.renderMarkdown(w, "operation.md.tmpl", struct {
				docsData
				Op docsOperation
			}{data, do})
			return
		}
	}
}

func (s *Server) renderMarkdown(w http.ResponseWriter, name string, data any) {
	var buf bytes.Buffer
	if err := markdownTmpl().ExecuteTemplate(&buf, name, data); err != nil {
		s.log.Error("render markdown", "template", name, "err", err)
		writeJSON(w, http.StatusInternalServerError, problem{Detail: "Internal server error.", Error: "internal"})
		return
	}
	w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	_, _ = w.Write(buf.Bytes())
}

func (s *Server) serveDocsHTML(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	if err := htmlTmpl().ExecuteTemplate(&buf, "docs.html.tmpl", s.docsData(s.baseURL())); err != nil {
		s.log.Error("render docs", "err", err)
		writeJSON(w, http.StatusInternalServerError, problem{Detail: "Internal server error.", Error: "internal"})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", docsPolicy)
	_, _ = w.Write(buf.Bytes())
}

func queryEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.', c == '~', c == ':', c == '/', c == ',':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
