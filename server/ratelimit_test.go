package server

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
)

// A per-second refusal says when the next request is allowed: its reset is
// Retry-After seconds away, not the allowance's refill at the month's end
// (which X-Gw-Reset still gives).
func TestRateLimitedResetIsTheNextAllowedRequest(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 300_000_000, time.UTC)
	one := access.Rate{PerSecond: 1, Burst: 1}
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{
		Rates: map[store.Plan]access.Rate{store.PlanTrial: one, store.PlanFree: one, store.PlanPayg: one, store.PlanSandbox: one},
		Now:   func() time.Time { return now },
	}, Config{})
	key := ms.issue(t, store.PlanFree, "rate@example.com").Secret
	first := call(t, http.MethodGet, ms.URL+"/sentiment?text=fine", key, "")
	require.Equal(t, http.StatusOK, first.status, first.body)
	res := call(t, http.MethodGet, ms.URL+"/sentiment?text=fine", key, "")
	require.Equal(t, http.StatusTooManyRequests, res.status, res.body)
	var body struct {
		Error, Action, Reset string
	}
	require.NoError(t, json.Unmarshal([]byte(res.body), &body))
	assert.Equal(t, "rate_limited", body.Error)
	assert.Equal(t, "wait", body.Action)
	retry, err := strconv.Atoi(res.header.Get("Retry-After"))
	require.NoError(t, err)
	assert.Equal(t, 1, retry)
	reset, err := time.Parse(time.RFC3339, body.Reset)
	require.NoError(t, err)
	assert.False(t, reset.Before(now.Add(700*time.Millisecond)), "reset %s is before the next allowed request", reset)
	// Written in whole seconds, reset is rounded up: never early, at most a
	// second after Retry-After.
	assert.False(t, reset.After(now.Add(time.Duration(retry+1)*time.Second)), "reset %s is far after Retry-After", reset)
	assert.Equal(t, "2026-04-01T00:00:00Z", res.header.Get("X-Gw-Reset"), "the allowance still refills on the 1st")
}
