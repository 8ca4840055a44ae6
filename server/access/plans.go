package access

import (
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
)

// Defaults of DESIGN.md §5; Config fields override them.
const (
	DefaultTrialAllowance   = 100
	DefaultTrialDuration    = 7 * 24 * time.Hour
	DefaultFreeAllowance    = 1_000
	DefaultSandboxAllowance = 200
	DefaultPaygCap          = 1_000_000
	// PricePerRequestUSD is what Pay as you go charges: 0.10 USD per 1,000.
	PricePerRequestUSD = 0.0001
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
