package mail

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"sync"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// Outbox defaults (see [Worker]).
const (
	// DefaultPoll is how often a worker looks for due mails when nothing
	// woke it: mails enqueued by another instance, and retries.
	DefaultPoll = time.Second
	// DefaultLease is how long a claimed mail is kept from other workers:
	// longer than one SMTP send may take (20 s), so that a mail is sent
	// twice only when its worker died in the middle.
	DefaultLease = 2 * time.Minute
	// DefaultMaxAttempts is how many times a mail is tried before it is
	// given up (and logged).
	DefaultMaxAttempts = 8
	// DefaultBackoff is the wait after a first failed attempt; it doubles
	// after each, up to DefaultMaxBackoff, with up to 20% added at random.
	// Eight attempts span about 20 minutes.
	DefaultBackoff    = 10 * time.Second
	DefaultMaxBackoff = 10 * time.Minute
	// claimBatch is the most mails one claim takes.
	claimBatch = 16
)

// Queue is what an outbox needs from a store.
type Queue interface {
	EnqueueMail(ctx context.Context, m store.Mail) (store.Mail, error)
	ClaimMails(ctx context.Context, now time.Time, lease time.Duration, n int) ([]store.Mail, error)
	RetryMail(ctx context.Context, id int64, at time.Time) error
	DeleteMail(ctx context.Context, id int64) error
}

// A Worker sends the mails of a durable outbox (a store's mail_outbox
// table) through a Sender, and retries them. Requests enqueue with the
// [Sender] that [Worker.Outbox] returns, so that no request waits for
// SMTP. Run one worker per process: the workers of all processes sharing
// a database share the outbox, and each mail is claimed by one of them at
// a time (see [store.Store.ClaimMails]). A mail is sent at least once: twice
// only when a worker died between sending it and deleting it, or a send
// outlasted Lease.
//
// Set the fields before Run; the zero value of each means its default.
type Worker struct {
	Queue  Queue
	Sender Sender // required: SMTP, Dir or Log
	// Logger gets a line for each mail given up, and for store errors.
	// Lines name the mail's ID, attempts, subject and the recipient's
	// domain, never the address, the body or its links. nil discards.
	Logger      *slog.Logger
	Poll        time.Duration // 0 means DefaultPoll
	Lease       time.Duration // 0 means DefaultLease
	MaxAttempts int           // 0 means DefaultMaxAttempts
	Backoff     time.Duration // 0 means DefaultBackoff
	MaxBackoff  time.Duration // 0 means DefaultMaxBackoff
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	once sync.Once
	wake chan struct{}
}

func (w *Worker) init() {
	w.once.Do(func() { w.wake = make(chan struct{}, 1) })
}

func (w *Worker) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

func (w *Worker) log() *slog.Logger {
	if w.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return w.Logger
}

// Outbox returns a Sender that enqueues each message in the outbox, to
// expire after ttl (0 means store.MailRetention: give the TTL of the link
// the mail holds, since it is no use after), and wakes this worker. Send
// returns once the mail is stored: it is sent shortly after, by this
// process or another.
func (w *Worker) Outbox(ttl time.Duration) Sender {
	w.init()
	return outbox{w: w, ttl: ttl}
}

type outbox struct {
	w   *Worker
	ttl time.Duration
}

// Send enqueues m.
func (o outbox) Send(ctx context.Context, m Message) error {
	now := o.w.now()
	sm := store.Mail{To: m.To, Subject: m.Subject, Body: m.Body, CreatedAt: now}
	if o.ttl > 0 {
		sm.ExpiresAt = now.Add(o.ttl)
	}
	if _, err := o.w.Queue.EnqueueMail(ctx, sm); err != nil {
		return fmt.Errorf("mail: enqueue: %w", err)
	}
	select {
	case o.w.wake <- struct{}{}:
	default:
	}
	return nil
}

// Run sends due mails until ctx ends: at once when this process enqueued
// one, else every Poll. It returns when ctx ends, after the send in
// progress.
func (w *Worker) Run(ctx context.Context) {
	w.init()
	poll := cmp.Or(w.Poll, DefaultPoll)
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.wake:
		}
		for {
			n, err := w.RunOnce(ctx)
			if err != nil {
				if ctx.Err() == nil {
					w.log().ErrorContext(ctx, "mail outbox", "error", err)
				}
				break
			}
			if n < claimBatch {
				break
			}
		}
		if !t.Stop() {
			select {
			case <-t.C:
			default:
			}
		}
		t.Reset(poll)
	}
}

// RunOnce claims the mails due now (at most one batch), tries to send
// each, and returns how many it claimed. A sent mail is deleted; a failed
// one is tried again after a backoff, or given up after MaxAttempts, with
// a log line.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	lease := cmp.Or(w.Lease, DefaultLease)
	mails, err := w.Queue.ClaimMails(ctx, w.now(), lease, claimBatch)
	if err != nil {
		return 0, err
	}
	var errs []error
	for _, m := range mails {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lease/2)
		err := w.Sender.Send(sctx, Message{To: m.To, Subject: m.Subject, Body: m.Body})
		cancel()
		// The outcome is recorded even when ctx ended meanwhile: a sent
		// mail must not be sent again.
		rctx := context.WithoutCancel(ctx)
		switch {
		case err == nil:
			errs = append(errs, w.Queue.DeleteMail(rctx, m.ID))
		case m.Attempts >= cmp.Or(w.MaxAttempts, DefaultMaxAttempts):
			w.log().ErrorContext(ctx, "mail given up", "mail_id", m.ID, "attempts", m.Attempts, "subject", m.Subject,
				"to_domain", domainOf(m.To), "error", redactError(err))
			errs = append(errs, w.Queue.DeleteMail(rctx, m.ID))
		default:
			retry := w.now().Add(w.backoff(m.Attempts))
			w.log().WarnContext(ctx, "mail not sent; will retry", "mail_id", m.ID, "attempts", m.Attempts,
				"retry_at", retry.UTC().Format(time.RFC3339), "to_domain", domainOf(m.To), "error", redactError(err))
			errs = append(errs, w.Queue.RetryMail(rctx, m.ID, retry))
		}
	}
	return len(mails), errors.Join(errs...)
}

// backoff is the wait after the attempts-th failed attempt.
func (w *Worker) backoff(attempts int) time.Duration {
	d, ceiling := cmp.Or(w.Backoff, DefaultBackoff), cmp.Or(w.MaxBackoff, DefaultMaxBackoff)
	for i := 1; i < attempts && d < ceiling; i++ {
		d *= 2
	}
	d = min(d, ceiling)
	return d + time.Duration(rand.Int64N(int64(d)/5+1))
}

// addrPattern matches the local part of an e-mail address, which an SMTP
// server's refusal often quotes.
var addrPattern = regexp.MustCompile(`[^\s<>"'(),;:@]+@`)

// redactError is err's text with keys, link tokens and the local parts of
// addresses removed, for a log line.
func redactError(err error) string {
	return addrPattern.ReplaceAllString(Redact(RedactLinks(err.Error())), "…@")
}
