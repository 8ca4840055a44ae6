package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// purgeSpy passes purges to a real store, reports each one's time, and
// fails the ones listed in fail (by call number, from 0).
type purgeSpy struct {
	store.Store
	calls chan time.Time
	fail  map[int]bool
	n     int
}

func (p *purgeSpy) Purge(ctx context.Context, now time.Time) (store.PurgeStats, error) {
	defer func() { p.n++ }()
	p.calls <- now
	if p.fail[p.n] {
		return store.PurgeStats{}, errors.New("disk on fire")
	}
	return p.Store.Purge(ctx, now)
}

func TestRunPurge(t *testing.T) {
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "ta.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	require.NoError(t, st.CreateToken(t.Context(), store.Token{Hash: "old", Purpose: "confirm", ExpiresAt: now.Add(-time.Hour)}))
	require.NoError(t, st.CreateToken(t.Context(), store.Token{Hash: "new", Purpose: "confirm", ExpiresAt: now.Add(time.Hour)}))

	spy := &purgeSpy{Store: st, calls: make(chan time.Time), fail: map[int]bool{1: true}}
	logs := &syncBuffer{}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		RunPurge(ctx, spy, PurgeOptions{
			Interval: time.Millisecond, Jitter: -1, Now: func() time.Time { return now },
			Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		})
	}()
	// The first purge runs at once; a failed one does not stop the loop.
	// When the fourth starts, the first three have logged.
	for i := range 4 {
		select {
		case got := <-spy.calls:
			assert.Equal(t, now, got, "purge %d", i)
		case <-time.After(10 * time.Second):
			t.Fatalf("purge %d did not run", i)
		}
	}
	cancel()
	// Let a purge that started meanwhile report, then check that the loop
	// has stopped.
	select {
	case <-spy.calls:
	case <-done:
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("RunPurge did not return after cancel")
	}

	type line struct {
		Level  string `json:"level"`
		Msg    string `json:"msg"`
		Tokens int64  `json:"tokens"`
		Error  string `json:"error"`
	}
	var lines []line
	for _, s := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var l line
		require.NoError(t, json.Unmarshal([]byte(s), &l), s)
		lines = append(lines, l)
	}
	require.GreaterOrEqual(t, len(lines), 3)
	assert.Equal(t, []line{
		{Level: "INFO", Msg: "purged expired rows", Tokens: 1},
		{Level: "ERROR", Msg: "purge failed", Error: "disk on fire"},
		{Level: "DEBUG", Msg: "purged expired rows"},
	}, lines[:3])
	_, err = st.Token(t.Context(), "new", "confirm", now)
	assert.NoError(t, err, "the live token is kept")
}

// A deleted account's key, and a trial key purged TrialRetention after it
// expired, answer 401 invalid_key over HTTP; until then an expired trial
// answers trial_expired with its claim_url.
func TestDeletedAndPurgedKeysAreInvalid(t *testing.T) {
	var clock atomic.Int64
	start := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	clock.Store(start.UnixMicro())
	now := func() time.Time { return time.UnixMicro(clock.Load()).UTC() }
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates, Now: now}, Config{})
	free := ms.issue(t, store.PlanFree, "leaving@example.com")
	trial := ms.issue(t, store.PlanTrial, "")

	refusalOf := func(key string) (int, refusal) {
		t.Helper()
		res := call(t, "GET", ms.URL+"/sentiment?text=fine", key, "")
		var body refusal
		if res.status != http.StatusOK {
			require.NoError(t, json.Unmarshal([]byte(res.body), &body), res.body)
		}
		return res.status, body
	}
	status, _ := refusalOf(free.Secret)
	require.Equal(t, http.StatusOK, status)
	status, _ = refusalOf(trial.Secret)
	require.Equal(t, http.StatusOK, status)

	_, err := ms.store.DeleteAccount(t.Context(), free.Account.ID, now())
	require.NoError(t, err)
	// Deleted through the store, as `textanalysis keys` or another
	// instance would: the key cache forgets it within its TTL.
	clock.Add(access.DefaultKeyCacheTTL.Microseconds())
	status, body := refusalOf(free.Secret)
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Equal(t, "invalid_key", body.Error)

	tests := []struct {
		name      string
		at        time.Time
		wantError string
	}{
		{"expired", trial.Account.TrialExpiresAt, "trial_expired"},
		{"kept for TrialRetention", trial.Account.TrialExpiresAt.Add(store.TrialRetention - time.Second), "trial_expired"},
		{"purged after it", trial.Account.TrialExpiresAt.Add(store.TrialRetention), "invalid_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock.Store(tt.at.UnixMicro())
			_, err := ms.store.Purge(t.Context(), tt.at)
			require.NoError(t, err)
			status, body := refusalOf(trial.Secret)
			assert.Equal(t, http.StatusUnauthorized, status)
			assert.Equal(t, tt.wantError, body.Error)
			if tt.wantError == "trial_expired" {
				assert.Contains(t, body.ClaimURL, "/claim?key=")
			}
		})
	}
}
