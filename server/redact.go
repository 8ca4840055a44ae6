package server

import (
	"context"
	"log/slog"
	"regexp"
	"strings"

	"github.com/textanalysis/go-textanalysis/server/mail"
)

// redactLogs wraps h so that no line the server writes carries a secret,
// whatever a layer below put in it: API keys become their prefix, e-mail
// addresses lose their local part, and URLs in messages and in error
// values lose their user information, query and fragment. The request log
// never puts these in a line in the first place; this is the second line
// of defence, for error texts of dependencies (net/http's client repeats
// the URL it fetched) and for the developer site and MCP SDK, which log
// through the same handler.
//
// URLs in other string attributes are kept: the mail.Log sender's "body"
// is a mail delivered to the log for development, and its links must work.
// Client addresses are removed from messages (net/http's ErrorLog names
// the peer of a failed TLS handshake).
func redactLogs(h slog.Handler) slog.Handler {
	if _, ok := h.(redactingHandler); ok {
		return h
	}
	return redactingHandler{h}
}

type redactingHandler struct{ slog.Handler }

func (h redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, redactAddrs(redactText(r.Message, true)), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return h.Handler.Handle(ctx, out)
}

func (h redactingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = redactAttr(a)
	}
	return redactingHandler{h.Handler.WithAttrs(red)}
}

func (h redactingHandler) WithGroup(name string) slog.Handler {
	return redactingHandler{h.Handler.WithGroup(name)}
}

// urlKeys are the attributes whose URLs are redacted too.
var urlKeys = map[string]bool{"err": true, "error": true, "url": true, "path": true, "panic": true}

func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, redactText(v.String(), urlKeys[a.Key]))
	case slog.KindGroup:
		as := v.Group()
		red := make([]any, len(as))
		for i, g := range as {
			red[i] = redactAttr(g)
		}
		return slog.Group(a.Key, red...)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok && err != nil {
			return slog.String(a.Key, redactText(err.Error(), true))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

var (
	// urlPattern finds absolute URLs in free text; they end at white
	// space or a quote.
	urlPattern = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>` + "`" + `]+`)
	// addrPattern finds IPv4 and bracketed IPv6 addresses with a port.
	addrPattern = regexp.MustCompile(`\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b|\[[0-9A-Fa-f]*:[0-9A-Fa-f:.]*(%[0-9A-Za-z]+)?\](:\d+)?`)
)

// redactText removes keys and e-mail addresses from s, and with urls the
// user information, query and fragment of every URL in it.
func redactText(s string, urls bool) string {
	if urls && strings.Contains(s, "://") {
		s = urlPattern.ReplaceAllStringFunc(s, redactURL)
	}
	if urls && strings.HasPrefix(s, "/") {
		// A path with its query, as a developer page might log it.
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			s = s[:i+1] + "[redacted]"
		}
	}
	if strings.Contains(s, "ta_") {
		s = mail.Redact(s)
	}
	// E-mail addresses in any script, as the developer site accepts them:
	// one pattern with the mail log's.
	return mail.RedactEmails(s)
}

func redactAddrs(s string) string {
	return addrPattern.ReplaceAllString(s, "[address]")
}

// redactURL keeps a URL's scheme, host and path, and drops its user
// information, query and fragment, which may hold passwords and tokens.
func redactURL(u string) string {
	scheme, rest, _ := strings.Cut(u, "://")
	var b strings.Builder
	b.WriteString(scheme + "://")
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
		b.WriteString("[redacted]")
		rest = rest[at:]
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		b.WriteString(rest[:i])
		b.WriteString(rest[i:i+1] + "[redacted]")
		return b.String()
	}
	b.WriteString(rest)
	return b.String()
}
