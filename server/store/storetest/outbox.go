package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/mail"
	"github.com/textanalysis/go-textanalysis/server/store"
)

// testOutbox: a mail is claimed once per lease, retried when asked,
// deleted when sent; expired mails are neither claimed nor kept.
func testOutbox(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	m1, err := st.EnqueueMail(ctx, store.Mail{To: "ada@example.com", Subject: "one", Body: "link ?token=abc", CreatedAt: jan2})
	require.NoError(t, err)
	assert.Equal(t, store.Mail{ID: m1.ID, To: "ada@example.com", Subject: "one", Body: "link ?token=abc", CreatedAt: jan2, NextAt: jan2, ExpiresAt: jan2.Add(store.MailRetention)}, m1)
	m2, err := st.EnqueueMail(ctx, store.Mail{To: "bob@example.com", Subject: "two", Body: "b", CreatedAt: jan2, ExpiresAt: jan2.Add(time.Hour)})
	require.NoError(t, err)
	_, err = st.EnqueueMail(ctx, store.Mail{To: "cy@example.com", Subject: "later", Body: "c", CreatedAt: jan2, NextAt: jan2.Add(time.Minute)})
	require.NoError(t, err)

	got, err := st.ClaimMails(ctx, jan2, time.Minute, 10)
	require.NoError(t, err)
	require.Len(t, got, 2, "the mail due later is not claimed")
	assert.Equal(t, []int64{m1.ID, m2.ID}, []int64{got[0].ID, got[1].ID})
	assert.Equal(t, 1, got[0].Attempts)
	assert.Equal(t, jan2.Add(time.Minute), got[0].NextAt, "leased")

	got, err = st.ClaimMails(ctx, jan2.Add(30*time.Second), time.Minute, 10)
	require.NoError(t, err)
	assert.Empty(t, got, "no mail is claimed twice while its lease runs")

	require.NoError(t, st.DeleteMail(ctx, m1.ID), "sent")
	require.NoError(t, st.RetryMail(ctx, m2.ID, jan2.Add(50*time.Second)), "failed: retry at +50s")
	require.NoError(t, st.DeleteMail(ctx, unknownID))
	require.NoError(t, st.RetryMail(ctx, unknownID, jan2))

	got, err = st.ClaimMails(ctx, jan2.Add(time.Minute), time.Minute, 1)
	require.NoError(t, err)
	require.Len(t, got, 1, "n bounds a claim")
	assert.Equal(t, m2.ID, got[0].ID, "the earliest due first")
	assert.Equal(t, 2, got[0].Attempts)

	// Expired: not claimed, and purged.
	got, err = st.ClaimMails(ctx, jan2.Add(3*time.Hour), time.Minute, 10)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "later", got[0].Subject, "the mail that expired after an hour is not claimed")
	ps, err := st.Purge(ctx, jan2.Add(3*time.Hour))
	require.NoError(t, err)
	assert.Equal(t, int64(1), ps.Mails)
	ps, err = st.Purge(ctx, jan2.Add(store.MailRetention))
	require.NoError(t, err)
	assert.Equal(t, int64(1), ps.Mails)
	got, err = st.ClaimMails(ctx, jan2, time.Minute, 10)
	require.NoError(t, err)
	assert.Empty(t, got)

	// Erasure takes the account's mails from the outbox.
	a := mustAccount(t, st, store.Account{Email: "gone@example.com", Plan: store.PlanFree})
	_, err = st.EnqueueMail(ctx, store.Mail{To: "Gone@Example.com", Subject: "s", Body: "b", CreatedAt: jan2})
	require.NoError(t, err)
	_, err = st.DeleteAccount(ctx, a.ID, jan2)
	require.NoError(t, err)
	got, err = st.ClaimMails(ctx, jan2, time.Minute, 10)
	require.NoError(t, err)
	assert.Empty(t, got, "no mail to an erased address stays queued")
}

// recorder is a mail.Sender that counts what it delivers, and fails the
// first fail sends of each subject.
type recorder struct {
	mu    sync.Mutex
	sent  map[string]int
	tries map[string]int
	fail  int
}

func (r *recorder) Send(_ context.Context, m mail.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tries[m.Subject]++
	if r.tries[m.Subject] <= r.fail {
		return errors.New("451 4.3.0 <" + m.To + ">: try again later")
	}
	r.sent[m.Subject]++
	return nil
}

// testOutboxWorkers: workers of several processes drain one outbox at
// once, and each mail is sent exactly once.
func testOutboxWorkers(t *testing.T, open Opener) {
	stores := openStores(t, open, 2)
	ctx := t.Context()
	const n = 60
	rec := &recorder{sent: map[string]int{}, tries: map[string]int{}}
	for i := range n {
		_, err := stores[i%2].EnqueueMail(ctx, store.Mail{To: "x@example.com", Subject: fmt.Sprint(i), Body: "b"})
		require.NoError(t, err)
	}
	var wg sync.WaitGroup
	var claimed atomic.Int64
	for i := range 4 {
		w := &mail.Worker{Queue: stores[i%2], Sender: rec}
		wg.Go(func() {
			for {
				k, err := w.RunOnce(ctx)
				assert.NoError(t, err)
				claimed.Add(int64(k))
				if k == 0 || err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int64(n), claimed.Load())
	require.Len(t, rec.sent, n)
	for subject, times := range rec.sent {
		assert.Equal(t, 1, times, "mail %s", subject)
	}
}

// testOutboxRetry: a mail whose sends fail is tried again after a backoff,
// then sent; one that keeps failing is given up after MaxAttempts.
func testOutboxRetry(t *testing.T, open Opener) {
	st, _ := openStore(t, open)
	ctx := t.Context()
	var mu sync.Mutex
	now := jan2
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	rec := &recorder{sent: map[string]int{}, tries: map[string]int{}, fail: 2}
	w := &mail.Worker{Queue: st, Sender: rec, Now: clock, Backoff: time.Second, MaxBackoff: 4 * time.Second, MaxAttempts: 3}
	out := w.Outbox(time.Hour)
	require.NoError(t, out.Send(ctx, mail.Message{To: "ada@example.com", Subject: "retried", Body: "b"}))

	k, err := w.RunOnce(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, k)
	k, err = w.RunOnce(ctx)
	require.NoError(t, err)
	assert.Equal(t, 0, k, "not before the backoff")
	for range 2 {
		advance(5 * time.Second) // past the backoff, up to 1.2 s then 2.4 s
		k, err = w.RunOnce(ctx)
		require.NoError(t, err)
		assert.Equal(t, 1, k)
	}
	assert.Equal(t, map[string]int{"retried": 1}, rec.sent, "sent on the third attempt")
	assert.Equal(t, 3, rec.tries["retried"])

	rec.fail = 100
	require.NoError(t, out.Send(ctx, mail.Message{To: "bob@example.com", Subject: "doomed", Body: "b"}))
	for range 5 {
		_, err = w.RunOnce(ctx)
		require.NoError(t, err)
		advance(10 * time.Second)
	}
	assert.Equal(t, 3, rec.tries["doomed"], "given up after MaxAttempts")
	got, err := st.ClaimMails(ctx, clock().Add(time.Hour/2), time.Minute, 10)
	require.NoError(t, err)
	assert.Empty(t, got, "a mail given up leaves the outbox")
}
