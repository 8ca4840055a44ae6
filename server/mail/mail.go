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
	"os"
	"path/filepath"
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

// emailPattern finds the e-mail addresses the developer site accepts
// (access.NormalizeEmail): net/mail takes letters of any script in the
// local part and the domain (RFC 6532), and domain literals.
var emailPattern = regexp.MustCompile(`[\p{L}\p{M}\p{N}.!#$%&'*+/=?^_{|}~-]+@(?:(?:[\p{L}\p{M}\p{N}-]+\.)+[\p{L}\p{M}\p{N}-]{2,}|\[[^\]\s]*\])`)

// RedactEmails replaces the local part of every e-mail address in s by
// "[redacted]", keeping the domain, which is enough to diagnose delivery.
func RedactEmails(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	return emailPattern.ReplaceAllStringFunc(s, func(addr string) string {
		return "[redacted]" + addr[strings.LastIndexByte(addr, '@'):]
	})
}

// Log writes messages to a logger instead of sending them, for a server
// with no SMTP configured. The body is logged with keys ([Redact]), link
// tokens ([RedactLinks]) and e-mail addresses ([RedactEmails]) redacted,
// at every level, so that the log never holds a secret or an address:
// turning on debug logging to diagnose a server must not leak sign-in
// links, and mails name their recipient in the body (a key notice, a
// claim). Its logger may be any (serve gives it its plain JSON logger),
// so the redaction is done here. To follow the links in development, use
// [Dir].
type Log struct {
	Logger *slog.Logger // nil discards
}

// Send logs m.
func (l Log) Send(ctx context.Context, m Message) error {
	if l.Logger == nil {
		return nil
	}
	l.Logger.InfoContext(ctx, "mail not sent: no SMTP server configured", "to_domain", domainOf(m.To), "subject", m.Subject, "body", RedactEmails(RedactLinks(Redact(m.Body))))
	return nil
}

// Dir delivers each message as a file in a directory, whole, for
// development and tests: a developer opens the newest file to follow a
// confirmation or sign-in link. The files hold secrets (links, and the
// address they went to), so they are created readable by the owner only.
type Dir struct {
	Path string
}

// Send writes m to a new file named after the time and a random suffix,
// in RFC 5322 form, so that a mail client can open it.
func (d Dir) Send(ctx context.Context, m Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.MkdirAll(d.Path, 0o700); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	var suffix [4]byte
	_, _ = rand.Read(suffix[:])
	name := fmt.Sprintf("%s-%s.eml", time.Now().UTC().Format("20060102T150405.000000000Z"), hex.EncodeToString(suffix[:]))
	msg := fmt.Sprintf("To: %s\r\nSubject: %s\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		m.To, mime.QEncoding.Encode("utf-8", m.Subject), time.Now().UTC().Format(time.RFC1123Z), m.Body)
	if err := os.WriteFile(filepath.Join(d.Path, name), []byte(msg), 0o600); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	return nil
}

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
