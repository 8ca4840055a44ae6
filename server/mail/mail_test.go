package mail

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An in-process SMTP server records what it receives.
type backend struct {
	mu   sync.Mutex
	msgs []received
}

type received struct {
	from, user string
	to         []string
	data       string
}

func (b *backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{b: b}, nil }

type session struct {
	b   *backend
	cur received
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != "api" || password != "s3cret" {
			return smtp.ErrAuthFailed
		}
		s.cur.user = username
		return nil
	}), nil
}
func (s *session) Mail(from string, _ *smtp.MailOptions) error { s.cur.from = from; return nil }
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.cur.to = append(s.cur.to, to)
	return nil
}
func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.data = string(b)
	s.b.mu.Lock()
	s.b.msgs = append(s.b.msgs, s.cur)
	s.b.mu.Unlock()
	return nil
}
func (s *session) Reset()        {}
func (s *session) Logout() error { return nil }

func startSMTP(t *testing.T) (*backend, string) {
	t.Helper()
	be := &backend{}
	srv := smtp.NewServer(be)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 5 * time.Second
	srv.WriteTimeout = 5 * time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return be, ln.Addr().String()
}

func TestSMTPDelivers(t *testing.T) {
	be, addr := startSMTP(t)
	m, err := NewSMTP("smtp://api:s3cret@" + addr + "?from=keys@example.com&security=none")
	require.NoError(t, err)
	err = m.Send(context.Background(), Message{To: "ada@example.com", Subject: "Your key — welcome", Body: "Key: ta_live_abcdef123\n.\nBye"})
	require.NoError(t, err)
	require.Len(t, be.msgs, 1)
	got := be.msgs[0]
	assert.Equal(t, "keys@example.com", got.from)
	assert.Equal(t, []string{"ada@example.com"}, got.to)
	assert.Equal(t, "api", got.user)
	assert.Contains(t, got.data, "To: ada@example.com\r\n")
	assert.Contains(t, got.data, "Subject: =?utf-8?q?Your_key_=E2=80=94_welcome?=")
	assert.Contains(t, got.data, "Key: ta_live_abcdef123\r\n.\r\nBye")
}

func TestSMTPErrors(t *testing.T) {
	_, addr := startSMTP(t)
	tests := []struct {
		name, url string
	}{
		{"bad password", "smtp://api:wrong@" + addr + "?from=a@example.com&security=none"},
		{"starttls required but absent", "smtp://" + addr + "?from=a@example.com&security=starttls"},
		{"nothing listening", "smtp://127.0.0.1:1?from=a@example.com&security=none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := NewSMTP(tt.url)
			require.NoError(t, err)
			assert.Error(t, m.Send(context.Background(), Message{To: "b@example.com", Subject: "s", Body: "b"}))
		})
	}
	for _, bad := range []string{"http://host", "smtp://host", "smtp://host?from=a@b.c&security=ssl"} {
		_, err := NewSMTP(bad)
		assert.Error(t, err, bad)
	}
	m, err := NewSMTP("smtp://" + addr + "?from=a@example.com&security=none")
	require.NoError(t, err)
	assert.Error(t, m.Send(context.Background(), Message{To: "b@example.com\r\nBcc: c@example.com", Subject: "s", Body: "b"}))
}

func TestLogRedactsKeys(t *testing.T) {
	var buf bytes.Buffer
	l := Log{Logger: slog.New(slog.NewJSONHandler(&buf, nil))}
	key := "ta_live_AbCdEf0123456789ABCDEFGHIJKLMNOP"
	require.NoError(t, l.Send(context.Background(), Message{To: "ada@example.com", Subject: "Your key", Body: "Your key: " + key + "\nConfirm: https://x/confirm?token=abc"}))
	out := buf.String()
	assert.NotContains(t, out, key)
	assert.Contains(t, out, "ta_live_AbCdEf…[redacted]")
	assert.NotContains(t, out, "token=abc", "a link's token is a secret")
	assert.Contains(t, out, "confirm?token=[redacted]")
	assert.NotContains(t, out, "ada@example.com")
	assert.True(t, strings.Contains(out, "example.com"))

	// Debug logging must not leak links either: an operator turns it on
	// to diagnose a public server.
	buf.Reset()
	l = Log{Logger: slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	require.NoError(t, l.Send(context.Background(), Message{To: "ada@example.com", Subject: "Sign in", Body: "Open\n\n    https://x/account/signin?token=0123abcd\n\nonce."}))
	assert.NotContains(t, buf.String(), "0123abcd")
}

// The developer site's mails name addresses in their bodies (the key
// notice, the claim's effect, the operator's plan request): without SMTP
// they go to the log, which must not hold an address, whatever its script.
func TestLogRedactsAddresses(t *testing.T) {
	tests := []struct{ name, body, local, domain string }{
		{"key notice", "A new go-textanalysis API key was made for ada.lovelace+api@example.com on 2026-01-02:", "ada.lovelace+api", "@example.com"},
		{"claim", "This key will move to a new account for zq7claimer@example.net on the Free plan.", "zq7claimer", "@example.net"},
		{"operator", "Account 7 (o'brien@mail.example.org), now on the Free plan, asks for Pay as you go.", "o'brien", "@mail.example.org"},
		{"non-ASCII local part", "A new key was made for jörg.müller@example.de on", "jörg", "@example.de"},
		{"non-ASCII domain", "This key will move to a new account for bob@bücher.example on", "bob", "@bücher.example"},
		{"all non-ASCII", "made for 用户@例子.广告 on", "用户", "@例子.广告"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			l := Log{Logger: slog.New(slog.NewJSONHandler(&buf, nil))}
			require.NoError(t, l.Send(context.Background(), Message{To: "x@example.com", Subject: "s", Body: tt.body}))
			out := buf.String()
			assert.NotContains(t, out, tt.local)
			assert.Contains(t, out, "[redacted]"+tt.domain)
		})
	}
}

func TestRedactLinks(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://x/confirm?token=abc", "https://x/confirm?token=[redacted]"},
		{"a https://x/c?a=1&token=abc&b=2 z", "a https://x/c?a=1&token=[redacted]&b=2 z"},
		{"no token here", "no token here"},
		{"?token=", "?token="},
	} {
		assert.Equal(t, tt.want, RedactLinks(tt.in), tt.in)
	}
}

func TestDirKeepsWholeMessages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	d := Dir{Path: dir}
	for _, subject := range []string{"Confirm", "Sign in"} {
		require.NoError(t, d.Send(context.Background(), Message{To: "ada@example.com", Subject: subject, Body: "https://x/c?token=0123abcd"}))
	}
	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, files, 2)
	info, err := files[0].Info()
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "mails hold secrets")
	b, err := os.ReadFile(filepath.Join(dir, files[0].Name()))
	require.NoError(t, err)
	assert.Contains(t, string(b), "To: ada@example.com\r\n")
	assert.Contains(t, string(b), "https://x/c?token=0123abcd")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, d.Send(ctx, Message{To: "a@example.com"}), context.Canceled)
}
