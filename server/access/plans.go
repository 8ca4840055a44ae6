package access

import (
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// Default plans, allowances and rate limits; Config fields override them.
const (
	DefaultTrialAllowance   = 100
	DefaultTrialDuration    = 7 * 24 * time.Hour
	DefaultFreeAllowance    = 1_000
	DefaultSandboxAllowance = 200
	DefaultPaygCap          = 1_000_000
	// PricePerRequestUSD is what Pay as you go charges: 0.10 USD per 1,000.
	PricePerRequestUSD = 0.0001
)

// Limits of the developer site (mails, live keys per account); Config fields override them.
// A client address is counted whole for IPv4 and by its /64 for IPv6 (see
// [ClientKey]); an e-mail address in its canonical form (see
// [CanonicalEmail]). Only HMACs of either are stored.
const (
	// DefaultTrialsPerAddress caps trial keys per client address per UTC
	// day.
	DefaultTrialsPerAddress = 3
	// DefaultMailsPerClientHour and DefaultMailsPerClientDay cap the mails
	// the site sends on a form's request (sign-up, sign-in and claim
	// links) per client address, in a clock hour and a UTC day.
	DefaultMailsPerClientHour = 5
	DefaultMailsPerClientDay  = 20
	// DefaultMailsPerAddressDay caps those mails per e-mail address per
	// UTC day.
	DefaultMailsPerAddressDay = 3
	// DefaultMaxLiveKeys caps an account's unrevoked keys.
	DefaultMaxLiveKeys = 5
)

// Lifetimes of links and sessions.
const (
	// ConfirmLinkTTL is how long a sign-up's or a claim's confirmation
	// link works.
	ConfirmLinkTTL = 48 * time.Hour
	// SignInLinkTTL is how long a sign-in link works.
	SignInLinkTTL = time.Hour
	// SessionTTL is how long a sign-in to the account page lasts.
	SessionTTL = 12 * time.Hour
)

// A Rate is a token bucket: PerSecond requests a second, bursts of Burst.
type Rate struct {
	PerSecond float64
	Burst     int
}

// DefaultRates are the per-second limits of each plan, bursts of twice that.
var DefaultRates = map[store.Plan]Rate{
	store.PlanTrial:   {PerSecond: 2, Burst: 4},
	store.PlanFree:    {PerSecond: 5, Burst: 10},
	store.PlanPayg:    {PerSecond: 50, Burst: 100},
	store.PlanSandbox: {PerSecond: 1, Burst: 2},
}

// MonthStart is the first instant of t's calendar month, UTC.
func MonthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// NextMonth is the first instant of the month after t's, UTC.
func NextMonth(t time.Time) time.Time {
	return MonthStart(t).AddDate(0, 1, 0)
}

// window is an account's current allowance period.
type window struct {
	start, reset time.Time
	allowance    int64
}

func (g *Gate) window(a store.Account, now time.Time) window {
	switch a.Plan {
	case store.PlanTrial:
		// A trial has one period: from issue to expiry. It never refills;
		// its "reset" is when it ends.
		return window{start: a.CreatedAt.UTC(), reset: a.TrialExpiresAt.UTC(), allowance: g.cfg.TrialAllowance}
	case store.PlanPayg:
		cap := a.MonthlyCap
		if cap <= 0 {
			cap = g.cfg.PaygCap
		}
		return window{start: MonthStart(now), reset: NextMonth(now), allowance: cap}
	case store.PlanSandbox:
		return window{start: MonthStart(now), reset: NextMonth(now), allowance: g.cfg.SandboxAllowance}
	}
	return window{start: MonthStart(now), reset: NextMonth(now), allowance: g.cfg.FreeAllowance}
}
