package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
)

func testConsumeBatch(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	a := mustAccount(t, st, store.Account{Plan: store.PlanTrial})
	b := mustAccount(t, st, store.Account{Plan: store.PlanFree})

	tests := []struct {
		name  string
		takes []store.Take
		want  []store.Taken
	}{
		{"empty", nil, []store.Taken{}},
		{"fits", []store.Take{{AccountID: a.ID, Period: nov, N: 3, Limit: 10}}, []store.Taken{{Granted: 3, Count: 3}}},
		{
			"takes no more than remains, in order",
			[]store.Take{
				{AccountID: a.ID, Period: nov, N: 5, Limit: 10},
				{AccountID: a.ID, Period: nov, N: 5, Limit: 10},
				{AccountID: b.ID, Period: nov, N: 2, Limit: 10},
			},
			[]store.Taken{{Granted: 5, Count: 8}, {Granted: 2, Count: 10}, {Granted: 2, Count: 2}},
		},
		{"at the limit", []store.Take{{AccountID: a.ID, Period: nov, N: 1, Limit: 10}}, []store.Taken{{Count: 10}}},
		{"a lowered limit keeps the count", []store.Take{{AccountID: a.ID, Period: nov, N: 4, Limit: 6}}, []store.Taken{{Count: 10}}},
		{"a raised one counts on", []store.Take{{AccountID: a.ID, Period: nov, N: 4, Limit: 12}}, []store.Taken{{Granted: 2, Count: 12}}},
		{
			"zero or negative takes and limits count nothing",
			[]store.Take{
				{AccountID: b.ID, Period: nov, N: 0, Limit: 10},
				{AccountID: b.ID, Period: oct, N: 3, Limit: 0},
				{AccountID: b.ID, Period: oct, N: -1, Limit: 5},
			},
			[]store.Taken{{Count: 2}, {}, {}},
		},
		{
			"an unknown account is an error of its take only",
			[]store.Take{
				{AccountID: unknownID, Period: nov, N: 1, Limit: 10},
				{AccountID: b.ID, Period: dec, N: 1, Limit: 10},
			},
			[]store.Taken{{Err: store.ErrNotFound}, {Granted: 1, Count: 1}},
		},
		{"an unknown account alone", []store.Take{{AccountID: unknownID, Period: nov, N: 1, Limit: 10}}, []store.Taken{{Err: store.ErrNotFound}}},
		{"the same instant is the same period", []store.Take{{AccountID: b.ID, Period: nov.In(time.FixedZone("UTC+1", 3600)), N: 1, Limit: 10}}, []store.Taken{{Granted: 1, Count: 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := st.ConsumeBatch(ctx, tt.takes)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	for _, u := range []struct {
		account int64
		period  time.Time
		want    int64
	}{{a.ID, nov, 12}, {b.ID, nov, 3}, {b.ID, oct, 0}, {b.ID, dec, 1}} {
		got, err := st.Used(ctx, u.account, u.period)
		require.NoError(t, err)
		assert.Equal(t, u.want, got, "Used(%d, %v)", u.account, u.period)
	}
	// UsageSince lists no row for a take that counted nothing.
	rows, err := st.UsageSince(ctx, oct)
	require.NoError(t, err)
	for _, r := range rows {
		assert.NotEqual(t, oct, r.Period, "no row for October")
	}
}

// testConsumeBatchConcurrent runs batches of several accounts, in
// different orders, from two stores on one database at once: they never
// deadlock, and never count past a limit.
func testConsumeBatchConcurrent(t *testing.T, open Opener) {
	stores := openStores(t, open, 2)
	accts := []store.Account{
		mustAccount(t, stores[0], store.Account{Plan: store.PlanFree}),
		mustAccount(t, stores[0], store.Account{Plan: store.PlanFree}),
		mustAccount(t, stores[0], store.Account{Plan: store.PlanFree}),
	}
	const goroutines, calls, limit = 20, 10, 250
	granted := make([][3]int64, goroutines)
	var wg sync.WaitGroup
	errs := make([]error, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			st := stores[g%2]
			for c := range calls {
				// Each goroutine asks for the accounts in its own order.
				var takes []store.Take
				for j := range accts {
					k := (j + g + c) % len(accts)
					takes = append(takes, store.Take{AccountID: accts[k].ID, Period: nov, N: int64(1 + (g+j)%3), Limit: limit})
				}
				got, err := st.ConsumeBatch(t.Context(), takes)
				if err != nil {
					errs[g] = err
					return
				}
				for j, tk := range got {
					k := (j + g + c) % len(accts)
					granted[g][k] += tk.Granted
					if tk.Count > limit {
						errs[g] = assert.AnError
					}
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	for k, a := range accts {
		var sum int64
		for g := range goroutines {
			sum += granted[g][k]
		}
		used, err := stores[1].Used(t.Context(), a.ID, nov)
		require.NoError(t, err)
		// 20 × 10 calls ask for 400 of each account: exactly the limit is
		// granted, and the store counted exactly what was granted.
		assert.Equal(t, int64(limit), sum, "account %d: granted", k)
		assert.Equal(t, int64(limit), used, "account %d: counted", k)
	}
}

func testPing(t *testing.T, open Opener) {
	st, closeFn := openStore(t, open)
	require.NoError(t, st.Ping(t.Context()))
	closeFn()
	assert.Error(t, st.Ping(t.Context()), "a closed store does not answer")
}

// testUsagePerPlan: the requests of a period are counted once against the
// allowance, whatever the plan, and apart by the plan they were admitted
// on, so that an account moved from Free to Pay as you go mid-month is
// billed for the requests made after the move only (issue 13: 999 Free
// and 2 Pay-as-you-go requests were billed as 1,001).
func testUsagePerPlan(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	a := mustAccount(t, st, store.Account{Email: "moved@example.com", Plan: store.PlanFree})
	b := mustAccount(t, st, store.Account{Plan: store.PlanPayg})

	batch := func(takes ...store.Take) []store.Taken {
		t.Helper()
		got, err := st.ConsumeBatch(ctx, takes)
		require.NoError(t, err)
		return got
	}
	// The one-statement path (one take that fits)...
	assert.Equal(t, []store.Taken{{Granted: 999, Count: 999}}, batch(store.Take{AccountID: a.ID, Period: nov, N: 999, Limit: 1000, Plan: store.PlanFree}))
	a.Plan = store.PlanPayg
	require.NoError(t, st.UpdateAccount(ctx, a))
	assert.Equal(t, []store.Taken{{Granted: 2, Count: 1001}}, batch(store.Take{AccountID: a.ID, Period: nov, N: 2, Limit: 1_000_000, Plan: store.PlanPayg}))
	// ...and the transaction of several takes, granting part of a take:
	// only what was granted is counted for its plan.
	assert.Equal(t, []store.Taken{{Granted: 3, Count: 1004}, {Granted: 1, Count: 1005}, {Granted: 4, Count: 4}},
		batch(
			store.Take{AccountID: a.ID, Period: nov, N: 3, Limit: 1005, Plan: store.PlanPayg},
			store.Take{AccountID: a.ID, Period: nov, N: 3, Limit: 1005, Plan: store.PlanFree},
			store.Take{AccountID: b.ID, Period: nov, N: 4, Limit: 10, Plan: store.PlanPayg},
		))
	// A request counted without a plan, as the previous release counts.
	_, ok, err := st.Consume(ctx, b.ID, nov, 10)
	require.NoError(t, err)
	require.True(t, ok)

	got, err := st.UsageSince(ctx, nov)
	require.NoError(t, err)
	assert.Equal(t, []store.Usage{
		{AccountID: a.ID, Email: "moved@example.com", Plan: store.PlanPayg, Period: nov, Count: 1005, Payg: 5, Other: 1000},
		{AccountID: b.ID, Plan: store.PlanPayg, Period: nov, Count: 5, Payg: 4},
	}, got)
	assert.Equal(t, int64(5), got[0].Billed(), "999 Free + 2 + 3 Pay as you go + 1 Free: 5 billed, not 1,005")
	assert.Equal(t, int64(5), got[1].Billed(), "a request counted without a plan is billed at the account's plan")
	assert.Equal(t, int64(1), got[1].Unattributed())
}
