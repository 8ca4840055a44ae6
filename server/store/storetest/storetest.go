package storetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// An Opener opens a store on one database. The suite may call it several
// times for the same database, concurrently (as server processes starting
// at once would) or after closing an earlier store (as a restart would).
// It closes every store it opens, exactly once.
type Opener func(ctx context.Context) (store.Store, error)

// NewDB prepares a fresh, empty database for one subtest and returns an
// [Opener] for it. It removes the database, if it must, with t.Cleanup.
// Subtests run in parallel, so databases must not share state.
type NewDB func(t *testing.T) Opener

// Run runs the contract suite against the stores newDB provides.
func Run(t *testing.T, newDB NewDB) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, open Opener)
	}{
		{"Accounts", testAccounts},
		{"Keys", testKeys},
		{"Errors", testErrors},
		{"Consume", testConsume},
		{"ConsumeConcurrent", testConsumeConcurrent},
		{"ConsumeBatch", testConsumeBatch},
		{"ConsumeBatchConcurrent", testConsumeBatchConcurrent},
		{"UsagePerPlan", testUsagePerPlan},
		{"Outbox", testOutbox},
		{"OutboxWorkers", testOutboxWorkers},
		{"OutboxRetry", testOutboxRetry},
		{"Ping", testPing},
		{"TwoStoresOneDatabase", testTwoStores},
		{"UsageSince", testUsageSince},
		{"TakeSlot", testTakeTrialSlot},
		{"TakeSlotPurposes", testTakeSlotPurposes},
		{"TakeSlotConcurrent", testTakeTrialSlotConcurrent},
		{"Tokens", testTokens},
		{"Secret", testSecret},
		{"SecretConcurrent", testSecretConcurrent},
		{"Reopen", testReopen},
		{"CanceledContext", testCanceledContext},
		{"Purge", testPurge},
		{"PurgeBatches", testPurgeBatches},
		{"PurgeConcurrent", testPurgeConcurrent},
		{"DeleteAccount", testDeleteAccount},
		{"KeyLimit", testKeyLimit},
		{"KeyLimitConcurrent", testKeyLimitConcurrent},
		{"TouchKey", testTouchKey},
		{"ConfirmSignUp", testConfirmSignUp},
		{"ConfirmSignUpConcurrent", testConfirmSignUpConcurrent},
		{"ConfirmClaim", testConfirmClaim},
		{"ConfirmClaimConcurrent", testConfirmClaimConcurrent},
		{"Sessions", testSessions},
		{"PlanRequests", testPlanRequests},
		{"PurgeSessions", testPurgeSessions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, newDB(t))
		})
	}
}

// Test times are whole microseconds, the finest precision the suite asks
// of an implementation; they are returned exactly, in UTC.
var (
	jan2 = time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	oct  = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	nov  = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	dec  = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
)

// unknownID is an ID no test creates.
const unknownID = 1 << 40

// openStore opens a store and closes it at the end of the test. The
// returned function closes it earlier; calling it twice is harmless.
func openStore(t *testing.T, open Opener) (store.Store, func()) {
	t.Helper()
	st, err := open(t.Context())
	require.NoError(t, err, "open store")
	require.NotNil(t, st)
	var once sync.Once
	closeFn := func() {
		once.Do(func() { assert.NoError(t, st.Close(), "close store") })
	}
	t.Cleanup(closeFn)
	return st, closeFn
}

// openStores opens n stores on one database at once.
func openStores(t *testing.T, open Opener, n int) []store.Store {
	t.Helper()
	stores := make([]store.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = open(t.Context()) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] == nil {
			t.Cleanup(func() { assert.NoError(t, stores[i].Close()) })
		}
	}
	for i := range n {
		require.NoError(t, errs[i], "open store %d of %d concurrently", i+1, n)
	}
	return stores
}

func mustAccount(t *testing.T, st store.Store, a store.Account) store.Account {
	t.Helper()
	a, err := st.CreateAccount(t.Context(), a)
	require.NoError(t, err)
	return a
}

func mustKey(t *testing.T, st store.Store, k store.Key) store.Key {
	t.Helper()
	k, err := st.CreateKey(t.Context(), k)
	require.NoError(t, err)
	return k
}

func testAccounts(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()

	// Given times are kept, in UTC, and e-mail addresses are lower-cased.
	ada, err := st.CreateAccount(ctx, store.Account{
		Email: "Ada@Example.COM", Plan: store.PlanFree, EmailConfirmed: true,
		CreatedAt: jan2.In(time.FixedZone("UTC+1", 3600)),
	})
	require.NoError(t, err)
	assert.NotZero(t, ada.ID)
	wantAda := store.Account{ID: ada.ID, Email: "ada@example.com", Plan: store.PlanFree, EmailConfirmed: true, CreatedAt: jan2}
	assert.Equal(t, wantAda, ada)

	// A zero CreatedAt becomes now.
	before := time.Now().Add(-time.Second)
	trial := mustAccount(t, st, store.Account{Plan: store.PlanTrial, TrialExpiresAt: jan2.AddDate(0, 0, 7)})
	after := time.Now().Add(time.Second)
	assert.Equal(t, time.UTC, trial.CreatedAt.Location())
	assert.True(t, trial.CreatedAt.After(before) && trial.CreatedAt.Before(after), "CreatedAt %v is not now", trial.CreatedAt)
	assert.Empty(t, trial.Email)

	// Accounts without e-mail never collide.
	sandbox := mustAccount(t, st, store.Account{Plan: store.PlanSandbox})
	assert.NotEqual(t, trial.ID, sandbox.ID)
	assert.NotEqual(t, ada.ID, sandbox.ID)

	t.Run("Account", func(t *testing.T) {
		for _, want := range []store.Account{wantAda, trial, sandbox} {
			got, err := st.Account(ctx, want.ID)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		}
	})

	t.Run("AccountByEmail", func(t *testing.T) {
		for _, email := range []string{"ada@example.com", "ADA@EXAMPLE.COM", "Ada@Example.Com"} {
			t.Run(email, func(t *testing.T) {
				got, err := st.AccountByEmail(ctx, email)
				require.NoError(t, err)
				assert.Equal(t, wantAda, got)
			})
		}
	})

	t.Run("UpdateAccount", func(t *testing.T) {
		upd := trial
		upd.Email = "Grace@Example.com"
		upd.Plan = store.PlanPayg
		upd.EmailConfirmed = true
		upd.MonthlyCap = 5000
		upd.TrialExpiresAt = time.Time{}
		upd.CreatedAt = jan2 // not changed by UpdateAccount
		require.NoError(t, st.UpdateAccount(ctx, upd))

		want := trial
		want.Email = "grace@example.com"
		want.Plan = store.PlanPayg
		want.EmailConfirmed = true
		want.MonthlyCap = 5000
		want.TrialExpiresAt = time.Time{}
		got, err := st.Account(ctx, trial.ID)
		require.NoError(t, err)
		assert.Equal(t, want, got)
		got, err = st.AccountByEmail(ctx, "GRACE@example.com")
		require.NoError(t, err)
		assert.Equal(t, want, got)
		trial = want

		// Updating with the same e-mail is no conflict, and clearing it frees it.
		require.NoError(t, st.UpdateAccount(ctx, want))
		want.Email = ""
		require.NoError(t, st.UpdateAccount(ctx, want))
		_, err = st.AccountByEmail(ctx, "grace@example.com")
		assert.ErrorIs(t, err, store.ErrNotFound)
		got, err = st.Account(ctx, trial.ID)
		require.NoError(t, err)
		assert.Equal(t, want, got)
		trial = want
	})

	t.Run("ListAccounts", func(t *testing.T) {
		got, err := st.ListAccounts(ctx)
		require.NoError(t, err)
		assert.Equal(t, []store.Account{wantAda, trial, sandbox}, got)
	})
}

func testKeys(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	ada := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanFree})
	bob := mustAccount(t, st, store.Account{Plan: store.PlanTrial, TrialExpiresAt: jan2.AddDate(0, 0, 7)})

	k1, err := st.CreateKey(ctx, store.Key{
		AccountID: ada.ID, Prefix: "ta_live_3fA9x", Hash: "hash-1", Kind: "live",
		API: "textanalysis", Name: "laptop", CreatedAt: jan2.In(time.FixedZone("UTC-5", -5*3600)),
	})
	require.NoError(t, err)
	assert.NotZero(t, k1.ID)
	assert.Equal(t, store.Key{
		ID: k1.ID, AccountID: ada.ID, Prefix: "ta_live_3fA9x", Hash: "hash-1", Kind: "live",
		API: "textanalysis", Name: "laptop", CreatedAt: jan2,
	}, k1)
	assert.False(t, k1.Revoked())

	before := time.Now().Add(-time.Second)
	k2 := mustKey(t, st, store.Key{AccountID: ada.ID, Prefix: "ta_live_b", Hash: "hash-2", Kind: "live", API: "textanalysis"})
	after := time.Now().Add(time.Second)
	assert.Equal(t, time.UTC, k2.CreatedAt.Location())
	assert.True(t, k2.CreatedAt.After(before) && k2.CreatedAt.Before(after), "CreatedAt %v is not now", k2.CreatedAt)
	k3 := mustKey(t, st, store.Key{AccountID: bob.ID, Prefix: "ta_trial_c", Hash: "hash-3", Kind: "trial", API: "textanalysis"})

	t.Run("KeyByHash", func(t *testing.T) {
		tests := []struct {
			hash    string
			key     store.Key
			account store.Account
		}{
			{"hash-1", k1, ada},
			{"hash-2", k2, ada},
			{"hash-3", k3, bob},
		}
		for _, tt := range tests {
			t.Run(tt.hash, func(t *testing.T) {
				k, a, err := st.KeyByHash(ctx, tt.hash)
				require.NoError(t, err)
				assert.Equal(t, tt.key, k)
				assert.Equal(t, tt.account, a)
			})
		}
	})

	t.Run("Key", func(t *testing.T) {
		for _, want := range []store.Key{k1, k2, k3} {
			got, err := st.Key(ctx, want.ID)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		}
		_, err := st.Key(ctx, unknownID)
		assert.ErrorIs(t, err, store.ErrNotFound)
	})

	t.Run("ListKeys", func(t *testing.T) {
		tests := []struct {
			name      string
			accountID int64
			want      []store.Key
		}{
			{"ada", ada.ID, []store.Key{k1, k2}},
			{"bob", bob.ID, []store.Key{k3}},
			{"all", 0, []store.Key{k1, k2, k3}},
			{"unknown", unknownID, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := st.ListKeys(ctx, tt.accountID)
				require.NoError(t, err)
				if tt.want == nil {
					assert.Empty(t, got)
					return
				}
				assert.Equal(t, tt.want, got)
			})
		}
	})

	t.Run("RevokeKey", func(t *testing.T) {
		revokedAt := jan2.Add(time.Hour)
		require.NoError(t, st.RevokeKey(ctx, k1.ID, revokedAt.In(time.FixedZone("UTC+2", 7200))))
		// Revoking again keeps the first time.
		require.NoError(t, st.RevokeKey(ctx, k1.ID, revokedAt.Add(time.Hour)))

		// A revoked key is still found, so that the server can tell it apart
		// from an unknown one.
		k, a, err := st.KeyByHash(ctx, "hash-1")
		require.NoError(t, err)
		want := k1
		want.RevokedAt = revokedAt
		assert.Equal(t, want, k)
		assert.True(t, k.Revoked())
		assert.Equal(t, ada, a)
		keys, err := st.ListKeys(ctx, ada.ID)
		require.NoError(t, err)
		assert.Equal(t, []store.Key{want, k2}, keys)
		k1 = want
	})

	t.Run("MoveKey", func(t *testing.T) {
		// Claiming: bob's trial key joins ada's account.
		require.NoError(t, st.MoveKey(ctx, k3.ID, ada.ID))
		k, a, err := st.KeyByHash(ctx, "hash-3")
		require.NoError(t, err)
		want := k3
		want.AccountID = ada.ID
		assert.Equal(t, want, k)
		assert.Equal(t, ada, a)
		keys, err := st.ListKeys(ctx, bob.ID)
		require.NoError(t, err)
		assert.Empty(t, keys)
		keys, err = st.ListKeys(ctx, ada.ID)
		require.NoError(t, err)
		assert.Equal(t, []store.Key{k1, k2, want}, keys)
		// Moving to the same account is harmless.
		require.NoError(t, st.MoveKey(ctx, k3.ID, ada.ID))
	})
}

// testErrors checks every documented error, and that a failed call
// changes nothing.
func testErrors(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	ada := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanFree, CreatedAt: jan2})
	bob := mustAccount(t, st, store.Account{Email: "bob@example.com", Plan: store.PlanFree, CreatedAt: jan2})
	key := mustKey(t, st, store.Key{AccountID: ada.ID, Prefix: "ta_live_x", Hash: "hash-1", Kind: "live", API: "textanalysis", CreatedAt: jan2})
	tok := store.Token{Hash: "tok-1", Purpose: "claim", AccountID: ada.ID, KeyID: key.ID, ExpiresAt: jan2.Add(time.Hour)}
	require.NoError(t, st.CreateToken(ctx, tok))

	tests := []struct {
		name string
		call func() error
		want error
	}{
		{"CreateAccount existing e-mail", func() error {
			_, err := st.CreateAccount(ctx, store.Account{Email: "ADA@example.com", Plan: store.PlanFree})
			return err
		}, store.ErrExists},
		{"Account unknown", func() error {
			_, err := st.Account(ctx, unknownID)
			return err
		}, store.ErrNotFound},
		{"AccountByEmail unknown", func() error {
			_, err := st.AccountByEmail(ctx, "nobody@example.com")
			return err
		}, store.ErrNotFound},
		{"AccountByEmail empty", func() error {
			_, err := st.AccountByEmail(ctx, "")
			return err
		}, store.ErrNotFound},
		{"UpdateAccount unknown", func() error {
			return st.UpdateAccount(ctx, store.Account{ID: unknownID, Plan: store.PlanFree})
		}, store.ErrNotFound},
		{"UpdateAccount e-mail of another account", func() error {
			a := bob
			a.Email = "Ada@Example.com"
			a.Plan = store.PlanPayg
			return st.UpdateAccount(ctx, a)
		}, store.ErrExists},
		{"CreateKey existing hash", func() error {
			_, err := st.CreateKey(ctx, store.Key{AccountID: bob.ID, Prefix: "ta_live_y", Hash: "hash-1", Kind: "live", API: "textanalysis"})
			return err
		}, store.ErrExists},
		{"CreateKey unknown account", func() error {
			_, err := st.CreateKey(ctx, store.Key{AccountID: unknownID, Prefix: "ta_live_z", Hash: "hash-2", Kind: "live", API: "textanalysis"})
			return err
		}, store.ErrNotFound},
		{"KeyByHash unknown", func() error {
			_, _, err := st.KeyByHash(ctx, "hash-unknown")
			return err
		}, store.ErrNotFound},
		{"RevokeKey unknown", func() error {
			return st.RevokeKey(ctx, unknownID, jan2)
		}, store.ErrNotFound},
		{"MoveKey unknown key", func() error {
			return st.MoveKey(ctx, unknownID, bob.ID)
		}, store.ErrNotFound},
		{"MoveKey unknown account", func() error {
			return st.MoveKey(ctx, key.ID, unknownID)
		}, store.ErrNotFound},
		{"Consume unknown account", func() error {
			_, _, err := st.Consume(ctx, unknownID, nov, 10)
			return err
		}, store.ErrNotFound},
		{"CreateToken existing hash", func() error {
			return st.CreateToken(ctx, store.Token{Hash: "tok-1", Purpose: "confirm", Email: "x@example.com", ExpiresAt: jan2})
		}, store.ErrExists},
		{"Token unknown", func() error {
			_, err := st.Token(ctx, "tok-unknown", "claim", jan2)
			return err
		}, store.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.want)
		})
	}

	t.Run("nothing changed", func(t *testing.T) {
		got, err := st.ListAccounts(ctx)
		require.NoError(t, err)
		assert.Equal(t, []store.Account{ada, bob}, got)
		keys, err := st.ListKeys(ctx, 0)
		require.NoError(t, err)
		assert.Equal(t, []store.Key{key}, keys)
		gotTok, err := st.Token(ctx, "tok-1", "claim", jan2)
		require.NoError(t, err)
		assert.Equal(t, tok, gotTok)
		usage, err := st.UsageSince(ctx, time.Time{})
		require.NoError(t, err)
		assert.Empty(t, usage)
	})
}

func testConsume(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	a := mustAccount(t, st, store.Account{Plan: store.PlanTrial})
	b := mustAccount(t, st, store.Account{Plan: store.PlanTrial})

	type step struct {
		account int64
		period  time.Time
		limit   int64
		count   int64
		ok      bool
	}
	steps := []step{
		{a.ID, nov, 3, 1, true},
		{a.ID, nov, 3, 2, true},
		{a.ID, nov, 3, 3, true},
		{a.ID, nov, 3, 3, false}, // at the limit: refused, nothing counted
		{a.ID, nov, 3, 3, false},
		{a.ID, nov, 5, 4, true},  // a raised limit (a new plan) counts on
		{a.ID, nov, 2, 4, false}, // a lowered one reports the count as it is
		{a.ID, dec, 3, 1, true},  // periods are independent
		{b.ID, nov, 3, 1, true},  // and so are accounts
		{b.ID, oct, 0, 0, false}, // a zero limit refuses the first request
		{b.ID, oct, -1, 0, false},
		{b.ID, nov.In(time.FixedZone("UTC+1", 3600)), 3, 2, true}, // the same instant is the same period
	}
	for i, s := range steps {
		count, ok, err := st.Consume(ctx, s.account, s.period, s.limit)
		require.NoError(t, err, "step %d", i)
		assert.Equal(t, [2]any{s.count, s.ok}, [2]any{count, ok}, "step %d: %+v", i, s)
	}

	used := []struct {
		account int64
		period  time.Time
		want    int64
	}{
		{a.ID, nov, 4},
		{a.ID, dec, 1},
		{a.ID, oct, 0},
		{b.ID, nov, 2},
		{b.ID, oct, 0},
		{unknownID, nov, 0},
	}
	for _, u := range used {
		got, err := st.Used(ctx, u.account, u.period)
		require.NoError(t, err)
		assert.Equal(t, u.want, got, "Used(%d, %v)", u.account, u.period)
	}
}

// consumeResult is one call's outcome in the concurrency tests.
type consumeResult struct {
	count int64
	ok    bool
	err   error
}

// consumeConcurrently calls Consume from 50 goroutines, 3 times each, on
// the given stores in turn, with a limit of 100.
func consumeConcurrently(t *testing.T, stores []store.Store, accountID int64, period time.Time) []consumeResult {
	t.Helper()
	const goroutines, calls = 50, 3
	results := make([]consumeResult, goroutines*calls)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range goroutines {
		wg.Go(func() {
			<-start
			st := stores[g%len(stores)]
			for c := range calls {
				r := &results[g*calls+c]
				r.count, r.ok, r.err = st.Consume(t.Context(), accountID, period, 100)
			}
		})
	}
	close(start)
	wg.Wait()
	return results
}

// assertExact checks that 150 calls with limit 100 counted exactly.
func assertExact(t *testing.T, results []consumeResult) {
	t.Helper()
	var counts []int64
	refused := 0
	for _, r := range results {
		require.NoError(t, r.err)
		if r.ok {
			counts = append(counts, r.count)
			continue
		}
		refused++
		assert.Equal(t, int64(100), r.count, "a refused call reports the full count")
	}
	slices.Sort(counts)
	want := make([]int64, 100)
	for i := range want {
		want[i] = int64(i + 1)
	}
	assert.Equal(t, want, counts, "the accepted calls got every count from 1 to 100 once")
	assert.Equal(t, 50, refused)
}

func testConsumeConcurrent(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	a := mustAccount(t, st, store.Account{Plan: store.PlanTrial})
	b := mustAccount(t, st, store.Account{Plan: store.PlanFree})

	assertExact(t, consumeConcurrently(t, []store.Store{st}, a.ID, nov))
	used, err := st.Used(t.Context(), a.ID, nov)
	require.NoError(t, err)
	assert.Equal(t, int64(100), used)

	// Another period of the same account starts from zero.
	assertExact(t, consumeConcurrently(t, []store.Store{st}, a.ID, dec))
	// Another account was not touched.
	used, err = st.Used(t.Context(), b.ID, nov)
	require.NoError(t, err)
	assert.Zero(t, used)
}

// testTwoStores opens two stores on one database at once, as two server
// processes starting together would, and splits the load between them.
func testTwoStores(t *testing.T, open Opener) {
	stores := openStores(t, open, 2)
	a := mustAccount(t, stores[0], store.Account{Plan: store.PlanTrial})

	// Each store sees what the other wrote.
	got, err := stores[1].Account(t.Context(), a.ID)
	require.NoError(t, err)
	assert.Equal(t, a, got)

	assertExact(t, consumeConcurrently(t, stores, a.ID, nov))
	for i, st := range stores {
		used, err := st.Used(t.Context(), a.ID, nov)
		require.NoError(t, err)
		assert.Equal(t, int64(100), used, "store %d", i)
	}

	var taken atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for g := range 50 {
		wg.Go(func() {
			ok, err := takeTrialSlot(t.Context(), stores[g%2], "addr-hmac", nov, 3)
			if err != nil {
				errs <- err
			}
			if ok {
				taken.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Equal(t, int64(3), taken.Load())
}

func testUsageSince(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	// Created in this order so that IDs and e-mails sort differently.
	zed := mustAccount(t, st, store.Account{Email: "zed@example.com", Plan: store.PlanPayg})
	trial := mustAccount(t, st, store.Account{Plan: store.PlanTrial})
	amy := mustAccount(t, st, store.Account{Email: "amy@example.com", Plan: store.PlanFree})

	consume := []struct {
		account int64
		period  time.Time
		n       int
	}{
		{amy.ID, dec, 2},
		{zed.ID, dec, 1},
		{trial.ID, nov, 4},
		{amy.ID, nov, 3},
		{zed.ID, nov, 5},
		{zed.ID, oct, 7},
	}
	for _, c := range consume {
		for range c.n {
			_, ok, err := st.Consume(ctx, c.account, c.period, 100)
			require.NoError(t, err)
			require.True(t, ok)
		}
	}

	tests := []struct {
		name  string
		since time.Time
		want  []store.Usage
	}{
		{"from November", nov, []store.Usage{
			{AccountID: zed.ID, Email: "zed@example.com", Plan: store.PlanPayg, Period: nov, Count: 5},
			{AccountID: trial.ID, Plan: store.PlanTrial, Period: nov, Count: 4},
			{AccountID: amy.ID, Email: "amy@example.com", Plan: store.PlanFree, Period: nov, Count: 3},
			{AccountID: zed.ID, Email: "zed@example.com", Plan: store.PlanPayg, Period: dec, Count: 1},
			{AccountID: amy.ID, Email: "amy@example.com", Plan: store.PlanFree, Period: dec, Count: 2},
		}},
		{"from mid-November", nov.AddDate(0, 0, 14), []store.Usage{
			{AccountID: zed.ID, Email: "zed@example.com", Plan: store.PlanPayg, Period: dec, Count: 1},
			{AccountID: amy.ID, Email: "amy@example.com", Plan: store.PlanFree, Period: dec, Count: 2},
		}},
		{"from December in another zone", dec.In(time.FixedZone("UTC-8", -8*3600)), []store.Usage{
			{AccountID: zed.ID, Email: "zed@example.com", Plan: store.PlanPayg, Period: dec, Count: 1},
			{AccountID: amy.ID, Email: "amy@example.com", Plan: store.PlanFree, Period: dec, Count: 2},
		}},
		{"from the start", time.Time{}, []store.Usage{
			{AccountID: zed.ID, Email: "zed@example.com", Plan: store.PlanPayg, Period: oct, Count: 7},
			{AccountID: zed.ID, Email: "zed@example.com", Plan: store.PlanPayg, Period: nov, Count: 5},
			{AccountID: trial.ID, Plan: store.PlanTrial, Period: nov, Count: 4},
			{AccountID: amy.ID, Email: "amy@example.com", Plan: store.PlanFree, Period: nov, Count: 3},
			{AccountID: zed.ID, Email: "zed@example.com", Plan: store.PlanPayg, Period: dec, Count: 1},
			{AccountID: amy.ID, Email: "amy@example.com", Plan: store.PlanFree, Period: dec, Count: 2},
		}},
		{"from next year", dec.AddDate(1, 0, 0), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := st.UsageSince(ctx, tt.since)
			require.NoError(t, err)
			if tt.want == nil {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func testTakeTrialSlot(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	day := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	steps := []struct {
		addr  string
		day   time.Time
		limit int
		want  bool
	}{
		{"addr-a", day, 3, true},
		{"addr-a", day, 3, true},
		{"addr-a", day, 3, true},
		{"addr-a", day, 3, false}, // the fourth of the day is refused
		{"addr-a", day, 3, false},
		{"addr-a", day.AddDate(0, 0, 1), 3, true}, // the next day is new
		{"addr-b", day, 3, true},                  // and so is another address
		{"addr-c", day, 0, false},
		{"addr-a", day, 4, true}, // a raised limit grants more
		{"addr-a", day, 4, false},
	}
	for i, s := range steps {
		got, err := takeTrialSlot(t.Context(), st, s.addr, s.day, s.limit)
		require.NoError(t, err, "step %d", i)
		assert.Equal(t, s.want, got, "step %d: %+v", i, s)
	}
}

func testTakeTrialSlotConcurrent(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	day := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	const goroutines, calls = 50, 3
	var taken atomic.Int64
	errs := make(chan error, goroutines*calls)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range goroutines {
		wg.Go(func() {
			<-start
			for range calls {
				ok, err := takeTrialSlot(t.Context(), st, "addr-hmac", day, 3)
				if err != nil {
					errs <- err
				}
				if ok {
					taken.Add(1)
				}
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Equal(t, int64(3), taken.Load())
}

func testTokens(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	expires := jan2.Add(24 * time.Hour)
	claim := store.Token{Hash: "tok-claim", Purpose: "claim", AccountID: 7, KeyID: 9, ExpiresAt: expires}
	confirm := store.Token{Hash: "tok-confirm", Purpose: "confirm", Email: "Ada@Example.com", ExpiresAt: expires}
	require.NoError(t, st.CreateToken(ctx, claim))
	in := confirm
	in.ExpiresAt = expires.In(time.FixedZone("UTC+9", 9*3600))
	require.NoError(t, st.CreateToken(ctx, in))

	tests := []struct {
		name    string
		hash    string
		purpose string
		now     time.Time
		want    store.Token // zero: ErrNotFound
	}{
		{"claim before expiry", "tok-claim", "claim", jan2, claim},
		{"claim just before expiry", "tok-claim", "claim", expires.Add(-time.Microsecond), claim},
		{"claim at expiry", "tok-claim", "claim", expires, store.Token{}},
		{"claim after expiry", "tok-claim", "claim", expires.Add(time.Hour), store.Token{}},
		{"claim as confirm", "tok-claim", "confirm", jan2, store.Token{}},
		{"confirm", "tok-confirm", "confirm", jan2, confirm},
		{"unknown", "tok-unknown", "claim", jan2, store.Token{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := st.Token(ctx, tt.hash, tt.purpose, tt.now)
			if tt.want == (store.Token{}) {
				assert.ErrorIs(t, err, store.ErrNotFound)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}

	t.Run("DeleteToken", func(t *testing.T) {
		require.NoError(t, st.DeleteToken(ctx, "tok-claim"))
		_, err := st.Token(ctx, "tok-claim", "claim", jan2)
		assert.ErrorIs(t, err, store.ErrNotFound)
		// Deleting is idempotent.
		require.NoError(t, st.DeleteToken(ctx, "tok-claim"))
		require.NoError(t, st.DeleteToken(ctx, "tok-never-created"))
		// Other tokens stay.
		got, err := st.Token(ctx, "tok-confirm", "confirm", jan2)
		require.NoError(t, err)
		assert.Equal(t, confirm, got)
		// The hash can be used again.
		require.NoError(t, st.CreateToken(ctx, claim))
	})
}

// counting returns a generate function that yields value and counts its calls.
func counting(value []byte, calls *atomic.Int64) func() ([]byte, error) {
	return func() ([]byte, error) {
		calls.Add(1)
		return bytes.Clone(value), nil
	}
}

func testSecret(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	// Binary values, zero bytes included, round-trip.
	value := []byte{0, 1, 2, 0xfe, 0xff, 0, 'x'}
	var calls atomic.Int64

	got, err := st.Secret(ctx, "hmac", counting(value, &calls))
	require.NoError(t, err)
	assert.Equal(t, value, got)
	assert.Equal(t, int64(1), calls.Load())

	// An existing secret is returned without generating.
	got, err = st.Secret(ctx, "hmac", counting([]byte("other"), &calls))
	require.NoError(t, err)
	assert.Equal(t, value, got)
	assert.Equal(t, int64(1), calls.Load())

	// Names are independent.
	got, err = st.Secret(ctx, "session", counting([]byte("second"), &calls))
	require.NoError(t, err)
	assert.Equal(t, []byte("second"), got)

	// A generate error is returned, and nothing is stored.
	errGen := errors.New("no entropy")
	_, err = st.Secret(ctx, "failing", func() ([]byte, error) { return nil, errGen })
	assert.ErrorIs(t, err, errGen)
	got, err = st.Secret(ctx, "failing", counting([]byte("third"), &calls))
	require.NoError(t, err)
	assert.Equal(t, []byte("third"), got)
}

func testSecretConcurrent(t *testing.T, open Opener) {
	stores := openStores(t, open, 2)
	const goroutines = 20
	values := make([][]byte, goroutines)
	errs := make([]error, goroutines)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range goroutines {
		wg.Go(func() {
			<-start
			values[g], errs[g] = stores[g%2].Secret(t.Context(), "hmac", func() ([]byte, error) {
				b := make([]byte, 32)
				_, err := rand.Read(b)
				return b, err
			})
		})
	}
	close(start)
	wg.Wait()
	for g := range goroutines {
		require.NoError(t, errs[g])
		require.Len(t, values[g], 32)
		assert.Equal(t, values[0], values[g], "caller %d got another secret", g)
	}
}

// testReopen checks that everything survives closing and reopening the
// database, as it must survive a server restart.
func testReopen(t *testing.T, open Opener) {
	ctx := t.Context()
	st, closeFirst := openStore(t, open)
	acct := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanFree, MonthlyCap: 42, CreatedAt: jan2})
	key := mustKey(t, st, store.Key{AccountID: acct.ID, Prefix: "ta_live_x", Hash: "hash-1", Kind: "live", API: "textanalysis", CreatedAt: jan2})
	require.NoError(t, st.RevokeKey(ctx, key.ID, jan2.Add(time.Minute)))
	key.RevokedAt = jan2.Add(time.Minute)
	for i := range 7 {
		n, ok, err := st.Consume(ctx, acct.ID, nov, 10)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, int64(i+1), n)
	}
	for range 2 {
		ok, err := takeTrialSlot(ctx, st, "addr", nov, 3)
		require.NoError(t, err)
		require.True(t, ok)
	}
	tok := store.Token{Hash: "tok", Purpose: "confirm", AccountID: acct.ID, Email: "ada@example.com", ExpiresAt: dec}
	require.NoError(t, st.CreateToken(ctx, tok))
	secret, err := st.Secret(ctx, "hmac", func() ([]byte, error) { return []byte("s3cret"), nil })
	require.NoError(t, err)
	closeFirst()

	st, _ = openStore(t, open)
	got, err := st.Account(ctx, acct.ID)
	require.NoError(t, err)
	assert.Equal(t, acct, got)
	k, a, err := st.KeyByHash(ctx, "hash-1")
	require.NoError(t, err)
	assert.Equal(t, key, k)
	assert.Equal(t, acct, a)
	gotTok, err := st.Token(ctx, "tok", "confirm", nov)
	require.NoError(t, err)
	assert.Equal(t, tok, gotTok)
	gotSecret, err := st.Secret(ctx, "hmac", func() ([]byte, error) { return nil, fmt.Errorf("generated again") })
	require.NoError(t, err)
	assert.Equal(t, secret, gotSecret)

	// The counts go on where they stopped.
	n, err := st.Used(ctx, acct.ID, nov)
	require.NoError(t, err)
	assert.Equal(t, int64(7), n)
	n, ok, err := st.Consume(ctx, acct.ID, nov, 10)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, int64(8), n)
	ok, err = takeTrialSlot(ctx, st, "addr", nov, 3)
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = takeTrialSlot(ctx, st, "addr", nov, 3)
	require.NoError(t, err)
	assert.False(t, ok)

	// A new account gets a new ID.
	b := mustAccount(t, st, store.Account{Plan: store.PlanTrial})
	assert.NotEqual(t, acct.ID, b.ID)
}

func testCanceledContext(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	a := mustAccount(t, st, store.Account{Plan: store.PlanTrial})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, _, err := st.Consume(ctx, a.ID, nov, 10)
	assert.Error(t, err)
	_, err = st.Account(ctx, a.ID)
	assert.Error(t, err)
	// Nothing was counted.
	n, err := st.Used(t.Context(), a.ID, nov)
	require.NoError(t, err)
	assert.Zero(t, n)
}
