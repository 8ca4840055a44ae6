package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// purgeNow is the injected "now" of the purge tests: mid-morning, so that
// "today" and "the last 24 hours" differ.
var purgeNow = time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC)

func testPurge(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	now := purgeNow
	today := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

	// Tokens: expired, at expiry, without expiry, and live.
	tokens := []struct {
		hash    string
		expires time.Time
		kept    bool
	}{
		{"tok-expired", now.Add(-time.Hour), false},
		{"tok-at-expiry", now, false},
		{"tok-no-expiry", time.Time{}, false},
		{"tok-live", now.Add(time.Microsecond), true},
	}
	for _, tk := range tokens {
		require.NoError(t, st.CreateToken(ctx, store.Token{Hash: tk.hash, Purpose: "confirm", Email: "x@example.com", ExpiresAt: tk.expires}))
	}

	// Trial slots: an address that used up yesterday's and today's.
	for _, day := range []time.Time{today.AddDate(0, 0, -1), today} {
		for range 3 {
			ok, err := takeTrialSlot(ctx, st, "addr-full", day, 3)
			require.NoError(t, err)
			require.True(t, ok)
		}
	}
	ok, err := takeTrialSlot(ctx, st, "addr-old", today.AddDate(0, 0, -40), 3)
	require.NoError(t, err)
	require.True(t, ok)

	// Trials, by how long ago they expired.
	cutoff := now.Add(-store.TrialRetention)
	type trial struct {
		name    string
		expires time.Time
		usage   bool // has usage rows
		token   bool // has a live confirmation token
		plan    store.Plan
		acct    store.Account
		key     store.Key
	}
	trials := []*trial{
		{name: "unused, long expired", expires: cutoff.Add(-24 * time.Hour), plan: store.PlanTrial},
		{name: "used, long expired", expires: cutoff.Add(-time.Hour), usage: true, plan: store.PlanTrial},
		{name: "expired exactly TrialRetention ago", expires: cutoff, plan: store.PlanTrial},
		{name: "expired just under TrialRetention ago", expires: cutoff.Add(time.Microsecond), plan: store.PlanTrial},
		{name: "expired yesterday", expires: now.Add(-24 * time.Hour), plan: store.PlanTrial},
		{name: "running", expires: now.Add(time.Hour), plan: store.PlanTrial},
		{name: "claim in progress", expires: cutoff.Add(-time.Hour), token: true, plan: store.PlanTrial},
		{name: "claimed long ago", expires: cutoff.Add(-time.Hour), usage: true, plan: store.PlanFree},
	}
	for i, tr := range trials {
		tr.acct = mustAccount(t, st, store.Account{Plan: tr.plan, CreatedAt: tr.expires.AddDate(0, 0, -7), TrialExpiresAt: tr.expires})
		tr.key = mustKey(t, st, store.Key{AccountID: tr.acct.ID, Prefix: "ta_trial_x", Hash: fmt.Sprintf("trial-hash-%d", i), Kind: "trial", API: "textanalysis", CreatedAt: tr.acct.CreatedAt})
		if tr.usage {
			_, ok, err := st.Consume(ctx, tr.acct.ID, tr.acct.CreatedAt, 100)
			require.NoError(t, err)
			require.True(t, ok)
		}
		if tr.token {
			require.NoError(t, st.CreateToken(ctx, store.Token{Hash: "tok-claim-" + tr.name, Purpose: "confirm",
				AccountID: tr.acct.ID, KeyID: tr.key.ID, Email: "claimer@example.com", ExpiresAt: now.Add(time.Hour)}))
		}
	}
	free := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanFree, CreatedAt: jan2})
	freeKey := mustKey(t, st, store.Key{AccountID: free.ID, Prefix: "ta_live_x", Hash: "free-hash", Kind: "live", API: "textanalysis", CreatedAt: jan2})
	_, _, err = st.Consume(ctx, free.ID, oct, 100)
	require.NoError(t, err)
	usageBefore, err := st.UsageSince(ctx, time.Time{})
	require.NoError(t, err)

	got, err := st.Purge(ctx, now.In(time.FixedZone("UTC-11", -11*3600)))
	require.NoError(t, err)
	assert.Equal(t, store.PurgeStats{Tokens: 3, Counters: 2, TrialKeys: 3, TrialAccounts: 3}, got)
	assert.Equal(t, int64(11), got.Total())

	t.Run("tokens", func(t *testing.T) {
		for _, tk := range tokens {
			// Token hides expired ones; asking at an earlier time shows
			// whether the row is still there.
			_, err := st.Token(ctx, tk.hash, "confirm", now.AddDate(-1, 0, 0))
			if tk.kept {
				assert.NoError(t, err, tk.hash)
			} else {
				assert.ErrorIs(t, err, store.ErrNotFound, tk.hash)
			}
		}
	})

	t.Run("trial slots", func(t *testing.T) {
		// Yesterday's count is gone, so the address gets slots for that day
		// again (no caller asks for a past day; this only shows the row was
		// deleted). Today's count is kept.
		ok, err := takeTrialSlot(ctx, st, "addr-full", today.AddDate(0, 0, -1), 3)
		require.NoError(t, err)
		assert.True(t, ok, "yesterday's row was deleted")
		ok, err = takeTrialSlot(ctx, st, "addr-full", today, 3)
		require.NoError(t, err)
		assert.False(t, ok, "today's row was kept")
	})

	t.Run("trials", func(t *testing.T) {
		for _, tr := range trials {
			t.Run(tr.name, func(t *testing.T) {
				purged := tr.plan == store.PlanTrial && !tr.token && !tr.expires.After(cutoff)
				k, a, err := st.KeyByHash(ctx, tr.key.Hash)
				gotAcct, acctErr := st.Account(ctx, tr.acct.ID)
				switch {
				case !purged:
					require.NoError(t, err)
					assert.Equal(t, tr.key, k)
					assert.Equal(t, tr.acct, a)
					require.NoError(t, acctErr)
					assert.Equal(t, tr.acct, gotAcct)
				case tr.usage:
					assert.ErrorIs(t, err, store.ErrNotFound, "the key is deleted")
					require.NoError(t, acctErr, "an account with usage rows stays")
					want := tr.acct
					want.DeletedAt = now
					assert.Equal(t, want, gotAcct)
					assert.True(t, gotAcct.Deleted())
				default:
					assert.ErrorIs(t, err, store.ErrNotFound, "the key is deleted")
					assert.ErrorIs(t, acctErr, store.ErrNotFound, "the account is deleted")
				}
			})
		}
		keys, err := st.ListKeys(ctx, 0)
		require.NoError(t, err)
		assert.Len(t, keys, len(trials)-3+1)
	})

	t.Run("usage and other accounts are kept", func(t *testing.T) {
		usage, err := st.UsageSince(ctx, time.Time{})
		require.NoError(t, err)
		assert.Equal(t, usageBefore, usage)
		k, a, err := st.KeyByHash(ctx, "free-hash")
		require.NoError(t, err)
		assert.Equal(t, freeKey, k)
		assert.Equal(t, free, a)
	})

	t.Run("again", func(t *testing.T) {
		// Only the slot of yesterday that the check above took again.
		got, err := st.Purge(ctx, now)
		require.NoError(t, err)
		assert.Equal(t, store.PurgeStats{Counters: 1}, got)
		got, err = st.Purge(ctx, now)
		require.NoError(t, err)
		assert.Equal(t, store.PurgeStats{}, got)
	})

	t.Run("later", func(t *testing.T) {
		// A day later: the live token and the claim's token have expired,
		// so the trial being claimed goes, with the one that had just under
		// TrialRetention left; so does today's slot.
		got, err := st.Purge(ctx, now.Add(24*time.Hour))
		require.NoError(t, err)
		assert.Equal(t, store.PurgeStats{Tokens: 2, Counters: 1, TrialKeys: 2, TrialAccounts: 2}, got)
		_, _, err = st.KeyByHash(ctx, "free-hash")
		assert.NoError(t, err)
	})
}

// testPurgeBatches purges more rows than fit in one batch.
func testPurgeBatches(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	const n = 2*store.PurgeBatch + 7
	var wg sync.WaitGroup
	errs := make(chan error, n)
	const workers = 8
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				if err := st.CreateToken(ctx, store.Token{Hash: fmt.Sprintf("tok-%d", i), Purpose: "confirm", ExpiresAt: jan2}); err != nil {
					errs <- err
				}
				if _, err := takeTrialSlot(ctx, st, fmt.Sprintf("addr-%d", i), oct, 3); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.NoError(t, st.CreateToken(ctx, store.Token{Hash: "tok-live", Purpose: "confirm", ExpiresAt: nov}))

	got, err := st.Purge(ctx, oct.AddDate(0, 0, 1))
	require.NoError(t, err)
	assert.Equal(t, store.PurgeStats{Tokens: n, Counters: n}, got)
	_, err = st.Token(ctx, "tok-live", "confirm", oct)
	assert.NoError(t, err, "a live token is kept")
}

// testPurgeConcurrent purges one database from two stores at once, as two
// server processes would: together they delete every row once.
func testPurgeConcurrent(t *testing.T, open Opener) {
	stores := openStores(t, open, 2)
	ctx := t.Context()
	const n = store.PurgeBatch + 50
	for i := range n {
		require.NoError(t, stores[0].CreateToken(ctx, store.Token{Hash: fmt.Sprintf("tok-%d", i), Purpose: "claim", ExpiresAt: jan2}))
	}
	for i := range 20 {
		a := mustAccount(t, stores[0], store.Account{Plan: store.PlanTrial, TrialExpiresAt: jan2})
		mustKey(t, stores[0], store.Key{AccountID: a.ID, Prefix: "ta_trial_x", Hash: fmt.Sprintf("hash-%d", i), Kind: "trial", API: "textanalysis"})
	}
	var wg sync.WaitGroup
	results := make([]store.PurgeStats, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() { results[i], errs[i] = stores[i].Purge(ctx, nov) })
	}
	wg.Wait()
	for i := range 2 {
		require.NoError(t, errs[i])
	}
	sum := store.PurgeStats{
		Tokens:        results[0].Tokens + results[1].Tokens,
		Counters:      results[0].Counters + results[1].Counters,
		TrialKeys:     results[0].TrialKeys + results[1].TrialKeys,
		TrialAccounts: results[0].TrialAccounts + results[1].TrialAccounts,
	}
	// SKIP LOCKED may let one store stop early while the other holds rows:
	// a last purge finds whatever is left.
	last, err := stores[0].Purge(ctx, nov)
	require.NoError(t, err)
	sum.Tokens += last.Tokens
	sum.TrialKeys += last.TrialKeys
	sum.TrialAccounts += last.TrialAccounts
	assert.Equal(t, store.PurgeStats{Tokens: n, TrialKeys: 20, TrialAccounts: 20}, sum)
	keys, err := stores[1].ListKeys(ctx, 0)
	require.NoError(t, err)
	assert.Empty(t, keys)
}

func testDeleteAccount(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	at := jan2.Add(48 * time.Hour)

	ada := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanPayg, EmailConfirmed: true, MonthlyCap: 5000, CreatedAt: jan2})
	k1 := mustKey(t, st, store.Key{AccountID: ada.ID, Prefix: "ta_live_a", Hash: "ada-1", Kind: "live", API: "textanalysis", CreatedAt: jan2})
	k2 := mustKey(t, st, store.Key{AccountID: ada.ID, Prefix: "ta_live_b", Hash: "ada-2", Kind: "live", API: "textanalysis", CreatedAt: jan2})
	require.NoError(t, st.RevokeKey(ctx, k2.ID, jan2.Add(time.Hour)))
	for _, p := range []time.Time{oct, nov, nov} {
		_, _, err := st.Consume(ctx, ada.ID, p, 100)
		require.NoError(t, err)
	}
	bob := mustAccount(t, st, store.Account{Email: "bob@example.com", Plan: store.PlanFree, CreatedAt: jan2})
	bobKey := mustKey(t, st, store.Key{AccountID: bob.ID, Prefix: "ta_live_c", Hash: "bob-1", Kind: "live", API: "textanalysis", CreatedAt: jan2})
	_, _, err := st.Consume(ctx, bob.ID, nov, 100)
	require.NoError(t, err)
	// A trial someone is claiming for Ada's address, and tokens of Ada's
	// account and key; Bob's token stays.
	trial := mustAccount(t, st, store.Account{Plan: store.PlanTrial, TrialExpiresAt: dec, CreatedAt: jan2})
	trialKey := mustKey(t, st, store.Key{AccountID: trial.ID, Prefix: "ta_trial_d", Hash: "trial-1", Kind: "trial", API: "textanalysis", CreatedAt: jan2})
	for _, tk := range []store.Token{
		{Hash: "tok-claim-to-ada", Purpose: "confirm", AccountID: trial.ID, KeyID: trialKey.ID, Email: "Ada@Example.com", ExpiresAt: dec},
		{Hash: "tok-ada-account", Purpose: "claim", AccountID: ada.ID, ExpiresAt: dec},
		{Hash: "tok-ada-key", Purpose: "claim", KeyID: k1.ID, ExpiresAt: dec},
		{Hash: "tok-bob", Purpose: "confirm", AccountID: bob.ID, Email: "bob@example.com", ExpiresAt: dec},
	} {
		require.NoError(t, st.CreateToken(ctx, tk))
	}

	got, err := st.DeleteAccount(ctx, ada.ID, at)
	require.NoError(t, err)
	assert.Equal(t, store.Deletion{Keys: 2, Tokens: 3, Kept: true}, got)

	t.Run("keys are gone", func(t *testing.T) {
		for _, h := range []string{"ada-1", "ada-2"} {
			_, _, err := st.KeyByHash(ctx, h)
			assert.ErrorIs(t, err, store.ErrNotFound, h)
		}
		_, err := st.Key(ctx, k1.ID)
		assert.ErrorIs(t, err, store.ErrNotFound)
		keys, err := st.ListKeys(ctx, ada.ID)
		require.NoError(t, err)
		assert.Empty(t, keys)
	})

	t.Run("the e-mail address is gone", func(t *testing.T) {
		_, err := st.AccountByEmail(ctx, "ada@example.com")
		assert.ErrorIs(t, err, store.ErrNotFound)
		for _, h := range []string{"tok-claim-to-ada", "tok-ada-account", "tok-ada-key"} {
			_, err := st.Token(ctx, h, "confirm", jan2)
			assert.ErrorIs(t, err, store.ErrNotFound, h)
			_, err = st.Token(ctx, h, "claim", jan2)
			assert.ErrorIs(t, err, store.ErrNotFound, h)
		}
		accounts, err := st.ListAccounts(ctx)
		require.NoError(t, err)
		for _, a := range accounts {
			assert.NotEqual(t, "ada@example.com", a.Email)
		}
	})

	t.Run("an anonymous record stays for the usage rows", func(t *testing.T) {
		want := store.Account{ID: ada.ID, Plan: store.PlanPayg, MonthlyCap: 5000, CreatedAt: jan2, DeletedAt: at}
		a, err := st.Account(ctx, ada.ID)
		require.NoError(t, err)
		assert.Equal(t, want, a)
		usage, err := st.UsageSince(ctx, time.Time{})
		require.NoError(t, err)
		assert.Equal(t, []store.Usage{
			{AccountID: ada.ID, Plan: store.PlanPayg, Period: oct, Count: 1},
			{AccountID: ada.ID, Plan: store.PlanPayg, Period: nov, Count: 2},
			{AccountID: bob.ID, Email: "bob@example.com", Plan: store.PlanFree, Period: nov, Count: 1},
		}, usage)
	})

	t.Run("others are untouched", func(t *testing.T) {
		k, a, err := st.KeyByHash(ctx, "bob-1")
		require.NoError(t, err)
		assert.Equal(t, bobKey, k)
		assert.Equal(t, bob, a)
		_, err = st.Token(ctx, "tok-bob", "confirm", jan2)
		assert.NoError(t, err)
		k, _, err = st.KeyByHash(ctx, "trial-1")
		require.NoError(t, err)
		assert.Equal(t, trialKey, k)
	})

	t.Run("a deleted account takes no changes", func(t *testing.T) {
		upd := ada
		upd.Email = "ada@example.org"
		assert.ErrorIs(t, st.UpdateAccount(ctx, upd), store.ErrNotFound)
		_, err := st.CreateKey(ctx, store.Key{AccountID: ada.ID, Prefix: "ta_live_e", Hash: "ada-3", Kind: "live", API: "textanalysis"})
		assert.ErrorIs(t, err, store.ErrNotFound)
		assert.ErrorIs(t, st.MoveKey(ctx, trialKey.ID, ada.ID), store.ErrNotFound)
		k, _, err := st.KeyByHash(ctx, "trial-1")
		require.NoError(t, err)
		assert.Equal(t, trial.ID, k.AccountID, "the key did not move")
	})

	t.Run("again", func(t *testing.T) {
		got, err := st.DeleteAccount(ctx, ada.ID, at.Add(time.Hour))
		require.NoError(t, err)
		assert.Equal(t, store.Deletion{Kept: true}, got)
		a, err := st.Account(ctx, ada.ID)
		require.NoError(t, err)
		assert.Equal(t, at, a.DeletedAt, "the first time is kept")
	})

	t.Run("the address can sign up again", func(t *testing.T) {
		again := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanFree})
		assert.Greater(t, again.ID, ada.ID)
		a, err := st.AccountByEmail(ctx, "ada@example.com")
		require.NoError(t, err)
		assert.Equal(t, again, a)
	})

	t.Run("without usage nothing stays", func(t *testing.T) {
		cy := mustAccount(t, st, store.Account{Email: "cy@example.com", Plan: store.PlanFree})
		cyKey := mustKey(t, st, store.Key{AccountID: cy.ID, Prefix: "ta_live_f", Hash: "cy-1", Kind: "live", API: "textanalysis"})
		got, err := st.DeleteAccount(ctx, cy.ID, at)
		require.NoError(t, err)
		assert.Equal(t, store.Deletion{Keys: 1}, got)
		_, err = st.Account(ctx, cy.ID)
		assert.ErrorIs(t, err, store.ErrNotFound)
		_, err = st.DeleteAccount(ctx, cy.ID, at)
		assert.ErrorIs(t, err, store.ErrNotFound)

		// The highest IDs were deleted; they are not given again.
		a := mustAccount(t, st, store.Account{Plan: store.PlanFree})
		k := mustKey(t, st, store.Key{AccountID: a.ID, Prefix: "ta_live_g", Hash: "new-1", Kind: "live", API: "textanalysis"})
		assert.Greater(t, a.ID, cy.ID)
		assert.Greater(t, k.ID, cyKey.ID)
	})

	t.Run("unknown", func(t *testing.T) {
		_, err := st.DeleteAccount(ctx, unknownID, at)
		assert.ErrorIs(t, err, store.ErrNotFound)
	})
}
