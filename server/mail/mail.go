package mail

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// A Message is a plain-text e-mail.
type Message struct {
	To      string
	Subject string
	Body    string
}

// A Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// keyPattern matches this service's API keys, to keep them out of logs.
var keyPattern = regexp.MustCompile(`ta_(live|trial|sbx)_[0-9A-Za-z]{6}[0-9A-Za-z]*`)

// Redact replaces every API key in s by its readable prefix and an ellipsis.
func Redact(s string) string {
	return keyPattern.ReplaceAllStringFunc(s, func(k string) string {
		i := strings.LastIndexByte(k, '_')
		return k[:i+7] + "…[redacted]"
	})
}

// tokenPattern matches the one-time token of a confirmation or sign-in
// link: whoever reads it can confirm a sign-up or sign in.
var tokenPattern = regexp.MustCompile(`([?&]token=)[^\s&]+`)

// RedactLinks replaces the token of every link in s by "[redacted]".
func RedactLinks(s string) string {
	return tokenPattern.ReplaceAllString(s, "${1}[redacted]")
}

// Log writes messages to a logger instead of sending them: for development,
// where no SMTP server is configured. At level Info the body is logged
// with keys ([Redact]) and link tokens ([RedactLinks]) redacted, so that
// the log never holds a secret by default. Only when the logger is
// enabled for Debug is each link also logged whole, at Debug, so that a
// developer can complete sign-up, sign-in and claim flows from the log;
// never run a public server at level debug without SMTP.
type Log struct {
	Logger *slog.Logger // nil discards
}

// Send logs m.
func (l Log) Send(ctx context.Context, m Message) error {
	if l.Logger == nil {
		return nil
	}
	l.Logger.InfoContext(ctx, "mail not sent: no SMTP server configured", "to_domain", domainOf(m.To), "subject", m.Subject, "body", RedactLinks(Redact(m.Body)))
	if l.Logger.Enabled(ctx, slog.LevelDebug) {
		for _, link := range linkPattern.FindAllString(m.Body, -1) {
			l.Logger.DebugContext(ctx, "mail link (development only)", "subject", m.Subject, "link", link)
		}
	}
	return nil
}

// linkPattern matches a link with a token.
var linkPattern = regexp.MustCompile(`https?://\S*[?&]token=\S+`)

func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return ""
}

// SMTP sends over an SMTP server.
type SMTP struct {
	addr     string
	host     string
	from     string
	username string
	password string
	security string // "starttls", "tls" or "none"
	timeout  time.Duration
}

// NewSMTP configures a sender from a URL:
// smtp://[user:password@]host[:port]?from=ADDRESS[&security=starttls|tls|none].
// The port defaults to 587 (465 with security=tls); security defaults to
// starttls, which the server must offer. Use none only for a server on
// the same host.
func NewSMTP(rawURL string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "smtp" || u.Hostname() == "" {
		return nil, errors.New("mail: SMTP URL must look like smtp://user:pass@host:587?from=address")
	}
	q := u.Query()
	s := &SMTP{host: u.Hostname(), from: q.Get("from"), security: q.Get("security"), timeout: 20 * time.Second}
	if s.from == "" {
		return nil, errors.New("mail: SMTP URL needs ?from=address")
	}
	if s.security == "" {
		s.security = "starttls"
	}
	switch s.security {
	case "starttls", "tls", "none":
	default:
		return nil, fmt.Errorf("mail: unknown security %q (starttls, tls or none)", s.security)
	}
	port := u.Port()
	if port == "" {
		port = "587"
		if s.security == "tls" {
			port = "465"
		}
	}
	s.addr = net.JoinHostPort(s.host, port)
	if u.User != nil {
		s.username = u.User.Username()
		s.password, _ = u.User.Password()
	}
	return s, nil
}

// Send delivers m, within the context's deadline or 20 s.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	if strings.ContainsAny(m.To, "\r\n") || strings.ContainsAny(m.Subject, "\r\n") {
		return errors.New("mail: header values must be on one line")
	}
	deadline := time.Now().Add(s.timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	dialer := &net.Dialer{Deadline: deadline}
	var c *smtp.Client
	var err error
	if s.security == "tls" {
		conn, derr := tls.DialWithDialer(dialer, "tcp", s.addr, &tls.Config{ServerName: s.host})
		if derr != nil {
			return fmt.Errorf("mail: connect: %w", derr)
		}
		c = smtp.NewClient(conn)
	} else {
		conn, derr := dialer.DialContext(ctx, "tcp", s.addr)
		if derr != nil {
			return fmt.Errorf("mail: connect: %w", derr)
		}
		_ = conn.SetDeadline(deadline)
		if s.security == "none" {
			c = smtp.NewClient(conn)
		} else {
			c, err = smtp.NewClientStartTLS(conn, &tls.Config{ServerName: s.host})
			if err != nil {
				conn.Close()
				return fmt.Errorf("mail: starttls: %w", err)
			}
		}
	}
	defer c.Close()
	if s.username != "" {
		if err := c.Auth(sasl.NewPlainClient("", s.username, s.password)); err != nil {
			return fmt.Errorf("mail: auth: %w", err)
		}
	}
	msg := s.format(m)
	if err = c.SendMail(s.from, []string{m.To}, strings.NewReader(msg)); err != nil {
		return fmt.Errorf("mail: send: %w", err)
	}
	return c.Quit()
}

func (s *SMTP) format(m Message) string {
	id := make([]byte, 12)
	_, _ = rand.Read(id)
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\n", s.from)
	fmt.Fprintf(&b, "To: %s\r\n", m.To)
	fmt.Fprintf(&b, "Subject: %s\r\n", mime.QEncoding.Encode("utf-8", m.Subject))
	fmt.Fprintf(&b, "Date: %s\r\n", time.Now().UTC().Format(time.RFC1123Z))
	fmt.Fprintf(&b, "Message-ID: <%s@%s>\r\n", hex.EncodeToString(id), s.host)
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	for _, line := range strings.Split(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\n") {
		// SMTP's dot-stuffing is done by the client; lines stay short.
		b.WriteString(line)
		b.WriteString("\r\n")
	}
	return b.String()
}
