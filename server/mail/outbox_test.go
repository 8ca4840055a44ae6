package mail_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/mail"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

type refusing struct{}

func (refusing) Send(_ context.Context, m mail.Message) error {
	return errors.New("550 5.1.1 <" + m.To + ">: no such user; body was: " + m.Body)
}

// TestWorkerLogsNoSecrets: the lines of a retried and of a given-up mail
// name its ID, subject and the recipient's domain, never the address, a
// key or a link's token, even when the SMTP server's refusal quotes them.
func TestWorkerLogsNoSecrets(t *testing.T) {
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "mail.db"))
	require.NoError(t, err)
	defer st.Close()
	var logs bytes.Buffer
	now := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	w := &mail.Worker{Queue: st, Sender: refusing{}, MaxAttempts: 2, Now: func() time.Time { return now },
		Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	secret := "https://dev.example.com/signin?token=s3cr3t-t0ken and ta_live_abcdef0123456789abcdef0123456789"
	require.NoError(t, w.Outbox(0).Send(t.Context(), mail.Message{To: "ada.lovelace@example.com", Subject: "Sign in", Body: secret}))
	for range 2 {
		n, err := w.RunOnce(t.Context())
		require.NoError(t, err)
		require.Equal(t, 1, n)
		now = now.Add(time.Hour)
	}
	out := logs.String()
	assert.Contains(t, out, `"msg":"mail not sent; will retry"`)
	assert.Contains(t, out, `"msg":"mail given up"`)
	assert.Contains(t, out, `"to_domain":"example.com"`)
	for _, leak := range []string{"ada.lovelace", "s3cr3t-t0ken", "abcdef0123456789abcdef0123456789"} {
		assert.NotContains(t, out, leak)
	}
}
