package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// takeTrialSlot takes a slot on the counter of trial keys an address got
// on a UTC day, as the trial endpoint does.
func takeTrialSlot(ctx context.Context, st store.Store, addr string, day time.Time, limit int) (bool, error) {
	return st.TakeSlot(ctx, store.Counter{Purpose: "trial", Subject: addr, Window: day, Expires: day.Add(24 * time.Hour)}, limit)
}

func testTakeSlotPurposes(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	hour := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	c := store.Counter{Purpose: "mail-client-hour", Subject: "hmac-1", Window: hour, Expires: hour.Add(time.Hour)}
	other := c
	other.Purpose = "mail-address-day"
	next := c
	next.Window, next.Expires = hour.Add(time.Hour), hour.Add(2*time.Hour)
	steps := []struct {
		c    store.Counter
		want bool
	}{
		{c, true}, {c, true}, {c, false},
		{other, true}, // another purpose counts apart
		{other, true},
		{other, false},
		{next, true}, // and so does another window
	}
	for i, s := range steps {
		got, err := st.TakeSlot(t.Context(), s.c, 2)
		require.NoError(t, err, "step %d", i)
		assert.Equal(t, s.want, got, "step %d: %+v", i, s.c)
	}
}

func liveKey(accountID int64, hash string) store.Key {
	return store.Key{AccountID: accountID, Prefix: "ta_live_x", Hash: hash, Kind: "live", API: "textanalysis", CreatedAt: jan2}
}

func testKeyLimit(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	a := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanFree})
	k1, err := st.CreateKeyLimited(ctx, liveKey(a.ID, "h-1"), 2)
	require.NoError(t, err)
	assert.Equal(t, liveKey(a.ID, "h-1"), func() store.Key { k := k1; k.ID = 0; return k }())
	_, err = st.CreateKeyLimited(ctx, liveKey(a.ID, "h-2"), 2)
	require.NoError(t, err)
	_, err = st.CreateKeyLimited(ctx, liveKey(a.ID, "h-3"), 2)
	assert.ErrorIs(t, err, store.ErrKeyLimit)
	_, _, err = st.KeyByHash(ctx, "h-3")
	assert.ErrorIs(t, err, store.ErrNotFound, "nothing was stored")

	// A revoked key does not count.
	require.NoError(t, st.RevokeKey(ctx, k1.ID, jan2))
	_, err = st.CreateKeyLimited(ctx, liveKey(a.ID, "h-3"), 2)
	require.NoError(t, err)
	// Other accounts have their own limit; 0 means none.
	b := mustAccount(t, st, store.Account{Email: "bob@example.com", Plan: store.PlanFree})
	_, err = st.CreateKeyLimited(ctx, liveKey(b.ID, "h-4"), 1)
	require.NoError(t, err)
	for i := range 3 {
		_, err = st.CreateKeyLimited(ctx, liveKey(a.ID, fmt.Sprintf("h-unlimited-%d", i)), 0)
		require.NoError(t, err)
	}
	_, err = st.CreateKeyLimited(ctx, liveKey(unknownID, "h-5"), 2)
	assert.ErrorIs(t, err, store.ErrNotFound)
	_, err = st.CreateKeyLimited(ctx, liveKey(b.ID, "h-1"), 5)
	assert.ErrorIs(t, err, store.ErrExists)
}

func testKeyLimitConcurrent(t *testing.T, open Opener) {
	stores := openStores(t, open, 2)
	a := mustAccount(t, stores[0], store.Account{Email: "ada@example.com", Plan: store.PlanFree})
	const goroutines, limit = 20, 3
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		created int
		errs    []error
	)
	start := make(chan struct{})
	for g := range goroutines {
		wg.Go(func() {
			<-start
			_, err := stores[g%2].CreateKeyLimited(t.Context(), liveKey(a.ID, fmt.Sprintf("h-%d", g)), limit)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				created++
			case !assert.ErrorIs(t, err, store.ErrKeyLimit):
				errs = append(errs, err)
			}
		})
	}
	close(start)
	wg.Wait()
	require.Empty(t, errs)
	assert.Equal(t, limit, created)
	keys, err := stores[1].ListKeys(t.Context(), a.ID)
	require.NoError(t, err)
	assert.Len(t, keys, limit)
}

func testTouchKey(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	a := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanFree})
	k := mustKey(t, st, liveKey(a.ID, "h-1"))
	assert.True(t, k.LastUsedAt.IsZero())
	steps := []struct {
		at, want time.Time
	}{
		{jan2, jan2},
		{jan2.Add(30 * time.Second), jan2}, // within the interval: no write
		{jan2.Add(store.KeyTouchInterval + time.Second), jan2.Add(store.KeyTouchInterval + time.Second)},
		{jan2, jan2.Add(store.KeyTouchInterval + time.Second)}, // never back in time
	}
	for i, s := range steps {
		require.NoError(t, st.TouchKey(ctx, k.ID, s.at), "step %d", i)
		got, _, err := st.KeyByHash(ctx, "h-1")
		require.NoError(t, err)
		assert.Equal(t, s.want, got.LastUsedAt, "step %d", i)
		byID, err := st.Key(ctx, k.ID)
		require.NoError(t, err)
		assert.Equal(t, s.want, byID.LastUsedAt, "step %d", i)
	}
	assert.NoError(t, st.TouchKey(ctx, unknownID, jan2))
}

func signUpToken(hash, mail string, expires time.Time) store.Token {
	return store.Token{Hash: hash, Purpose: store.PurposeSignUp, Email: mail, ExpiresAt: expires}
}

func testConfirmSignUp(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	expires := jan2.Add(48 * time.Hour)
	require.NoError(t, st.CreateToken(ctx, signUpToken("tok-1", "ada@example.com", expires)))

	t.Run("new address", func(t *testing.T) {
		a, k, err := st.ConfirmSignUp(ctx, "tok-1", jan2, liveKey(unknownID, "h-1"), 2)
		require.NoError(t, err)
		assert.Equal(t, "ada@example.com", a.Email)
		assert.Equal(t, store.PlanFree, a.Plan)
		assert.True(t, a.EmailConfirmed)
		assert.Equal(t, a.ID, k.AccountID)
		gotK, gotA, err := st.KeyByHash(ctx, "h-1")
		require.NoError(t, err)
		assert.Equal(t, k, gotK)
		assert.Equal(t, a, gotA)
		// The link works once.
		_, _, err = st.ConfirmSignUp(ctx, "tok-1", jan2, liveKey(0, "h-2"), 2)
		assert.ErrorIs(t, err, store.ErrNotFound)
		_, err = st.Token(ctx, "tok-1", store.PurposeSignUp, jan2)
		assert.ErrorIs(t, err, store.ErrNotFound)
	})

	t.Run("refused tokens", func(t *testing.T) {
		require.NoError(t, st.CreateToken(ctx, signUpToken("tok-expired", "x@example.com", jan2)))
		require.NoError(t, st.CreateToken(ctx, store.Token{Hash: "tok-claim", Purpose: store.PurposeClaim, Email: "x@example.com", ExpiresAt: expires}))
		for _, hash := range []string{"tok-expired", "tok-claim", "tok-unknown"} {
			_, _, err := st.ConfirmSignUp(ctx, hash, jan2, liveKey(0, "h-"+hash), 2)
			assert.ErrorIs(t, err, store.ErrNotFound, hash)
		}
		_, err := st.AccountByEmail(ctx, "x@example.com")
		assert.ErrorIs(t, err, store.ErrNotFound, "no account was made")
		// The claim's token was not taken.
		_, err = st.Token(ctx, "tok-claim", store.PurposeClaim, jan2)
		assert.NoError(t, err)
	})

	t.Run("existing account", func(t *testing.T) {
		b := mustAccount(t, st, store.Account{Email: "bob@example.com", Plan: store.PlanPayg, MonthlyCap: 7, CreatedAt: jan2})
		require.NoError(t, st.CreateToken(ctx, signUpToken("tok-2", "bob@example.com", expires)))
		a, k, err := st.ConfirmSignUp(ctx, "tok-2", jan2, liveKey(0, "h-3"), 2)
		require.NoError(t, err)
		b.EmailConfirmed = true
		assert.Equal(t, b, a, "the same account, now confirmed, plan kept")
		assert.Equal(t, b.ID, k.AccountID)
	})

	t.Run("key limit", func(t *testing.T) {
		require.NoError(t, st.CreateToken(ctx, signUpToken("tok-3", "ada@example.com", expires)))
		_, _, err := st.ConfirmSignUp(ctx, "tok-3", jan2, liveKey(0, "h-4"), 1)
		assert.ErrorIs(t, err, store.ErrKeyLimit)
		_, _, err = st.KeyByHash(ctx, "h-4")
		assert.ErrorIs(t, err, store.ErrNotFound)
		// Nothing changed: the link still works under a higher limit.
		_, k, err := st.ConfirmSignUp(ctx, "tok-3", jan2, liveKey(0, "h-4"), 2)
		require.NoError(t, err)
		assert.NotZero(t, k.ID)
	})
}

func testConfirmSignUpConcurrent(t *testing.T, open Opener) {
	stores := openStores(t, open, 2)
	require.NoError(t, stores[0].CreateToken(t.Context(), signUpToken("tok", "ada@example.com", dec)))
	const goroutines = 10
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		oks  int
		errs []error
	)
	for g := range goroutines {
		wg.Go(func() {
			_, _, err := stores[g%2].ConfirmSignUp(t.Context(), "tok", nov, liveKey(0, fmt.Sprintf("h-%d", g)), 5)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				oks++
			case !assert.ErrorIs(t, err, store.ErrNotFound):
				errs = append(errs, err)
			}
		})
	}
	wg.Wait()
	require.Empty(t, errs)
	assert.Equal(t, 1, oks, "a link acts once")
	keys, err := stores[0].ListKeys(t.Context(), 0)
	require.NoError(t, err)
	assert.Len(t, keys, 1)
}

// trialToClaim makes a trial account with a key and returns both.
func trialToClaim(t *testing.T, st store.Store, hash string) (store.Account, store.Key) {
	t.Helper()
	a := mustAccount(t, st, store.Account{Plan: store.PlanTrial, CreatedAt: jan2, TrialExpiresAt: dec})
	k := mustKey(t, st, store.Key{AccountID: a.ID, Prefix: "ta_trial_x", Hash: hash, Kind: "trial", API: "textanalysis", CreatedAt: jan2})
	return a, k
}

func claimToken(hash string, trial store.Account, k store.Key, mail string) store.Token {
	return store.Token{Hash: hash, Purpose: store.PurposeClaim, AccountID: trial.ID, KeyID: k.ID, Email: mail, ExpiresAt: dec}
}

func testConfirmClaim(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	trial, k := trialToClaim(t, st, "h-trial")
	// Two pending claims of one key, to two addresses.
	require.NoError(t, st.CreateToken(ctx, claimToken("tok-ada", trial, k, "ada@example.com")))
	require.NoError(t, st.CreateToken(ctx, claimToken("tok-eve", trial, k, "eve@example.com")))

	c, err := st.ConfirmClaim(ctx, "tok-ada", nov, 5)
	require.NoError(t, err)
	assert.Equal(t, "ada@example.com", c.Account.Email)
	assert.Equal(t, store.PlanFree, c.Account.Plan)
	assert.True(t, c.Account.EmailConfirmed)
	assert.Equal(t, trial.ID, c.From)
	want := k
	want.AccountID = c.Account.ID
	assert.Equal(t, want, c.Key)
	old, err := st.Account(ctx, trial.ID)
	require.NoError(t, err)
	assert.Equal(t, store.PlanFree, old.Plan, "the trial account ended")
	assert.True(t, old.TrialExpiresAt.IsZero())

	// The second claim fails, and its link is used up.
	_, err = st.ConfirmClaim(ctx, "tok-eve", nov, 5)
	assert.ErrorIs(t, err, store.ErrAlreadyClaimed)
	_, err = st.ConfirmClaim(ctx, "tok-eve", nov, 5)
	assert.ErrorIs(t, err, store.ErrNotFound)
	got, _, err := st.KeyByHash(ctx, "h-trial")
	require.NoError(t, err)
	assert.Equal(t, c.Account.ID, got.AccountID, "the key stayed where the first claim put it")
	_, err = st.AccountByEmail(ctx, "eve@example.com")
	assert.ErrorIs(t, err, store.ErrNotFound)
	// And the first link is used up too.
	_, err = st.ConfirmClaim(ctx, "tok-ada", nov, 5)
	assert.ErrorIs(t, err, store.ErrNotFound)

	t.Run("into a Pay-as-you-go account", func(t *testing.T) {
		p := mustAccount(t, st, store.Account{Email: "pay@example.com", Plan: store.PlanPayg, MonthlyCap: 9, CreatedAt: jan2})
		trial, k := trialToClaim(t, st, "h-trial-2")
		require.NoError(t, st.CreateToken(ctx, claimToken("tok-pay", trial, k, "pay@example.com")))
		c, err := st.ConfirmClaim(ctx, "tok-pay", nov, 5)
		require.NoError(t, err)
		p.EmailConfirmed = true
		assert.Equal(t, p, c.Account)
		assert.Equal(t, p.ID, c.Key.AccountID)
	})

	t.Run("key limit", func(t *testing.T) {
		full := mustAccount(t, st, store.Account{Email: "full@example.com", Plan: store.PlanFree})
		mustKey(t, st, liveKey(full.ID, "h-full"))
		trial, k := trialToClaim(t, st, "h-trial-3")
		require.NoError(t, st.CreateToken(ctx, claimToken("tok-full", trial, k, "full@example.com")))
		_, err := st.ConfirmClaim(ctx, "tok-full", nov, 1)
		assert.ErrorIs(t, err, store.ErrKeyLimit)
		got, _, err := st.KeyByHash(ctx, "h-trial-3")
		require.NoError(t, err)
		assert.Equal(t, trial.ID, got.AccountID, "nothing moved")
		_, err = st.Token(ctx, "tok-full", store.PurposeClaim, nov)
		assert.NoError(t, err, "the link still works")
	})

	t.Run("expired or wrong purpose", func(t *testing.T) {
		trial, k := trialToClaim(t, st, "h-trial-4")
		tok := claimToken("tok-expired", trial, k, "late@example.com")
		tok.ExpiresAt = nov
		require.NoError(t, st.CreateToken(ctx, tok))
		require.NoError(t, st.CreateToken(ctx, store.Token{Hash: "tok-signup", Purpose: store.PurposeSignUp, AccountID: trial.ID, KeyID: k.ID, Email: "late@example.com", ExpiresAt: dec}))
		for _, hash := range []string{"tok-expired", "tok-signup"} {
			_, err := st.ConfirmClaim(ctx, hash, nov, 5)
			assert.ErrorIs(t, err, store.ErrNotFound, hash)
		}
	})
}

func testConfirmClaimConcurrent(t *testing.T, open Opener) {
	stores := openStores(t, open, 2)
	ctx := t.Context()
	for round := range 5 {
		trial, k := trialToClaim(t, stores[0], fmt.Sprintf("h-%d", round))
		mails := []string{fmt.Sprintf("a%d@example.com", round), fmt.Sprintf("b%d@example.com", round)}
		for i, m := range mails {
			require.NoError(t, stores[0].CreateToken(ctx, claimToken(fmt.Sprintf("tok-%d-%d", round, i), trial, k, m)))
		}
		claims := make([]store.Claim, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 2 {
			wg.Go(func() {
				<-start
				claims[i], errs[i] = stores[i].ConfirmClaim(ctx, fmt.Sprintf("tok-%d-%d", round, i), nov, 5)
			})
		}
		close(start)
		wg.Wait()
		won := -1
		for i, err := range errs {
			if err == nil {
				require.Equal(t, -1, won, "round %d: both claims succeeded", round)
				won = i
				continue
			}
			require.ErrorIs(t, err, store.ErrAlreadyClaimed, "round %d", round)
		}
		require.NotEqual(t, -1, won, "round %d: no claim succeeded", round)
		got, a, err := stores[1].KeyByHash(ctx, fmt.Sprintf("h-%d", round))
		require.NoError(t, err)
		assert.Equal(t, claims[won].Account.ID, got.AccountID)
		assert.Equal(t, mails[won], a.Email)
		_, err = stores[1].AccountByEmail(ctx, mails[1-won])
		assert.ErrorIs(t, err, store.ErrNotFound, "the loser's address got no account")
	}
}

func testSessions(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	a := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanFree, EmailConfirmed: true, CreatedAt: jan2})
	signin := func(hash, mail string, expires time.Time) {
		require.NoError(t, st.CreateToken(ctx, store.Token{Hash: hash, Purpose: store.PurposeSignIn, AccountID: a.ID, Email: mail, ExpiresAt: expires}))
	}
	signin("tok-1", "ada@example.com", dec)
	ses := store.Session{Hash: "ses-1", CreatedAt: nov, ExpiresAt: nov.Add(12 * time.Hour)}
	got, err := st.SignIn(ctx, "tok-1", nov, ses)
	require.NoError(t, err)
	assert.Equal(t, a, got)
	_, err = st.SignIn(ctx, "tok-1", nov, store.Session{Hash: "ses-2", ExpiresAt: dec})
	assert.ErrorIs(t, err, store.ErrNotFound, "a sign-in link works once")

	gotSes, gotA, err := st.Session(ctx, "ses-1", nov.Add(time.Hour))
	require.NoError(t, err)
	ses.AccountID = a.ID
	assert.Equal(t, ses, gotSes)
	assert.Equal(t, a, gotA)
	_, _, err = st.Session(ctx, "ses-1", nov.Add(12*time.Hour))
	assert.ErrorIs(t, err, store.ErrNotFound, "expired")
	_, _, err = st.Session(ctx, "ses-2", nov)
	assert.ErrorIs(t, err, store.ErrNotFound)

	// A link for an address the account no longer has, or expired.
	signin("tok-old-mail", "old@example.com", dec)
	signin("tok-expired", "ada@example.com", nov)
	for _, hash := range []string{"tok-old-mail", "tok-expired", "tok-unknown"} {
		_, err := st.SignIn(ctx, hash, nov, store.Session{Hash: "ses-" + hash, ExpiresAt: dec})
		assert.ErrorIs(t, err, store.ErrNotFound, hash)
	}

	require.NoError(t, st.DeleteSession(ctx, "ses-1"))
	_, _, err = st.Session(ctx, "ses-1", nov)
	assert.ErrorIs(t, err, store.ErrNotFound, "signed out")
	require.NoError(t, st.DeleteSession(ctx, "ses-1"))

	// Deleting the account ends its sessions.
	signin("tok-2", "ada@example.com", dec)
	_, err = st.SignIn(ctx, "tok-2", nov, store.Session{Hash: "ses-3", ExpiresAt: dec})
	require.NoError(t, err)
	_, err = st.CreatePlanRequest(ctx, store.PlanRequest{AccountID: a.ID, Plan: store.PlanPayg})
	require.NoError(t, err)
	_, err = st.DeleteAccount(ctx, a.ID, nov)
	require.NoError(t, err)
	_, _, err = st.Session(ctx, "ses-3", nov)
	assert.ErrorIs(t, err, store.ErrNotFound)
	reqs, err := st.ListPlanRequests(ctx, 0)
	require.NoError(t, err)
	assert.Empty(t, reqs)
}

func testPlanRequests(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	a := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanFree})
	b := mustAccount(t, st, store.Account{Email: "bob@example.com", Plan: store.PlanPayg})
	r1, err := st.CreatePlanRequest(ctx, store.PlanRequest{AccountID: a.ID, Plan: store.PlanPayg, CreatedAt: jan2})
	require.NoError(t, err)
	r2, err := st.CreatePlanRequest(ctx, store.PlanRequest{AccountID: b.ID, Plan: store.PlanPayg, MonthlyCap: 5_000_000, CreatedAt: nov})
	require.NoError(t, err)
	assert.Equal(t, store.PlanRequest{ID: r1.ID, AccountID: a.ID, Plan: store.PlanPayg, CreatedAt: jan2}, r1)
	list, err := st.ListPlanRequests(ctx, b.ID)
	require.NoError(t, err)
	assert.Equal(t, []store.PlanRequest{r2}, list)
	list, err = st.ListPlanRequests(ctx, 0)
	require.NoError(t, err)
	assert.Equal(t, []store.PlanRequest{r1, r2}, list)
	_, err = st.CreatePlanRequest(ctx, store.PlanRequest{AccountID: unknownID, Plan: store.PlanPayg})
	assert.ErrorIs(t, err, store.ErrNotFound)
}

func testPurgeSessions(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	a := mustAccount(t, st, store.Account{Email: "ada@example.com", Plan: store.PlanFree})
	for i, exp := range []time.Time{oct, nov, dec} {
		hash := fmt.Sprintf("tok-%d", i)
		require.NoError(t, st.CreateToken(ctx, store.Token{Hash: hash, Purpose: store.PurposeSignIn, AccountID: a.ID, Email: a.Email, ExpiresAt: dec}))
		_, err := st.SignIn(ctx, hash, jan2, store.Session{Hash: fmt.Sprintf("ses-%d", i), ExpiresAt: exp})
		require.NoError(t, err)
	}
	// Counters of an hour window: ended, ending now, and live.
	for i, end := range []time.Time{nov.Add(-time.Hour), nov, nov.Add(time.Hour)} {
		ok, err := st.TakeSlot(ctx, store.Counter{Purpose: "mail-client-hour", Subject: "s", Window: end.Add(-time.Hour), Expires: end}, 1)
		require.NoError(t, err)
		require.True(t, ok, "counter %d", i)
	}
	got, err := st.Purge(ctx, nov)
	require.NoError(t, err)
	assert.Equal(t, store.PurgeStats{Sessions: 2, Counters: 2}, got)
	_, _, err = st.Session(ctx, "ses-2", nov)
	assert.NoError(t, err, "the live session is kept")
	ok, err := st.TakeSlot(ctx, store.Counter{Purpose: "mail-client-hour", Subject: "s", Window: nov, Expires: nov.Add(time.Hour)}, 1)
	require.NoError(t, err)
	assert.False(t, ok, "the live counter is kept")
}
