package main

import (
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/textanalysis/go-textanalysis/server"
	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
)

func parsePlan(s string) (store.Plan, error) {
	p := store.Plan(strings.ToLower(s))
	if p == "pay-as-you-go" || p == "paygo" {
		p = store.PlanPayg
	}
	if !p.Valid() {
		return "", usagef("unknown plan %q: trial, free, payg or sandbox", s)
	}
	return p, nil
}

func kindOf(p store.Plan) string {
	switch p {
	case store.PlanTrial:
		return access.KindTrial
	case store.PlanSandbox:
		return access.KindSbx
	}
	return access.KindLive
}

func writeJSONTo(w io.Writer, v any) error {
	return server.EncodeJSON(w, v, true)
}

func keysCommand() *cli.Command {
	return &cli.Command{
		Name:  "keys",
		Usage: "create, list and revoke API keys, change plans and delete accounts, in the configured store",
		Description: `Works on the store the server uses, also while a server runs on it: --db FILE,
else TEXTANALYSIS_DATABASE_URL (as serve reads it), else textanalysis.db in the
working directory. Only "keys create" makes a store that is not there, and warns when
it does; the others refuse. A key is shown once, when it is created; the store keeps
only its hash. A trial key's claim link uses TEXTANALYSIS_DEVELOPER_URL, else
TEXTANALYSIS_BASE_URL + /developer, as serve does.

Examples:
   textanalysis keys create --plan free --email ada@example.com --json
   textanalysis keys list
   textanalysis keys revoke ta_live_ab12cd…
   textanalysis keys list --db /srv/textanalysis/textanalysis.db
   textanalysis keys plan --email ada@example.com --plan payg --cap 5000000
   textanalysis keys delete-account ada@example.com`,
		Subcommands: []*cli.Command{
			{
				Name:  "create",
				Usage: "create a key (and the account of --email when it has none)",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "plan", Value: "free", Usage: "`PLAN` of a new account: trial, free, payg or sandbox"},
					&cli.StringFlag{Name: "email", Usage: "account's e-mail `ADDRESS`"},
					&cli.StringFlag{Name: "name", Usage: "a `NAME` to tell the key apart"},
					&cli.Int64Flag{Name: "cap", Usage: "Pay as you go monthly cap in `REQUESTS` (0: the default 1,000,000)"},
					&cli.BoolFlag{Name: "json", Usage: "print a JSON object with the new key"},
					dbFlag(),
				},
				Action: keysCreate,
			},
			{
				Name:  "list",
				Usage: "list keys (prefixes only) with their accounts and plans",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "email", Usage: "only the keys of this account"},
					&cli.BoolFlag{Name: "json", Usage: "print JSON"},
					dbFlag(),
				},
				Action: keysList,
			},
			{
				Name:      "revoke",
				Usage:     "revoke a key by ID, by the prefix keys list shows (ta_live_ab12cd…), or by the whole key",
				ArgsUsage: "ID|PREFIX|KEY",
				Flags:     []cli.Flag{dbFlag()},
				Action:    keysRevoke,
			},
			{
				Name:  "plan",
				Usage: "move an account to another plan",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "email", Usage: "the account's e-mail `ADDRESS`"},
					&cli.Int64Flag{Name: "account", Usage: "the account `ID`"},
					&cli.StringFlag{Name: "plan", Required: true, Usage: "new `PLAN`: free, payg or sandbox"},
					&cli.Int64Flag{Name: "cap", Usage: "Pay as you go monthly cap in `REQUESTS` (0: the default)"},
					dbFlag(),
				},
				Action: keysPlan,
			},
			{
				Name:      "delete-account",
				Usage:     "erase an account: delete its keys and its e-mail address, keep anonymous usage for invoices",
				ArgsUsage: "EMAIL|ACCOUNT_ID",
				Description: `Deletes every key of the account (they answer 401 invalid_key at once, also on a
running server), its pending claim and confirmation links, and its e-mail address.
Usage counts are billing records and stay: the account keeps its ID, plan, cap and
creation time, with no e-mail and a deletion time, and "textanalysis usage" still
lists its months. An account with no usage is removed entirely. It cannot be undone;
the address may sign up again as a new account.`,
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "json", Usage: "print a JSON object of what was deleted"},
					dbFlag(),
				},
				Action: keysDeleteAccount,
			},
		},
	}
}

type deletedAccount struct {
	AccountID int64  `json:"account_id"`
	Plan      string `json:"plan"`
	Keys      int64  `json:"keys_deleted"`
	Tokens    int64  `json:"tokens_deleted"`
	UsageKept bool   `json:"usage_kept"`
	DeletedAt string `json:"deleted_at"`
}

func keysDeleteAccount(c *cli.Context) error {
	if c.Args().Len() != 1 {
		return usagef("give one e-mail address or account ID")
	}
	arg := strings.TrimSpace(c.Args().First())
	g, closeStore, err := openGate(c, false)
	if err != nil {
		return err
	}
	defer closeStore()
	st := g.Store()
	var a store.Account
	if id, perr := strconv.ParseInt(arg, 10, 64); perr == nil {
		a, err = st.Account(c.Context, id)
	} else {
		a, err = st.AccountByEmail(c.Context, arg)
	}
	if errors.Is(err, store.ErrNotFound) {
		return usagef("no account %q", arg)
	}
	if err != nil {
		return err
	}
	at := time.Now().UTC()
	if a.Deleted() {
		at = a.DeletedAt
	}
	d, err := st.DeleteAccount(c.Context, a.ID, at)
	if err != nil {
		return err
	}
	out := deletedAccount{AccountID: a.ID, Plan: string(a.Plan), Keys: d.Keys, Tokens: d.Tokens, UsageKept: d.Kept, DeletedAt: at.Format(time.RFC3339)}
	if c.Bool("json") {
		return writeJSONTo(c.App.Writer, out)
	}
	w := c.App.Writer
	switch {
	case a.Deleted():
		fmt.Fprintf(w, "account %d was deleted already, at %s; its usage rows are kept\n", a.ID, out.DeletedAt)
	case d.Kept:
		fmt.Fprintf(w, "deleted account %d: %s and %s removed, e-mail address erased; its usage rows are kept for invoices (account %d, %s plan, no e-mail)\n",
			a.ID, count(d.Keys, "key"), count(d.Tokens, "link"), a.ID, a.Plan)
	default:
		fmt.Fprintf(w, "deleted account %d: %s and %s removed; it had no usage, so nothing of it is kept\n", a.ID, count(d.Keys, "key"), count(d.Tokens, "link"))
	}
	return nil
}

// count is "1 key", "2 keys".
func count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}

type createdKey struct {
	Key       string `json:"key"`
	Prefix    string `json:"prefix"`
	KeyID     int64  `json:"key_id"`
	AccountID int64  `json:"account_id"`
	Email     string `json:"email,omitempty"`
	Plan      string `json:"plan"`
	ExpiresAt string `json:"expires_at,omitempty"`
	ClaimURL  string `json:"claim_url,omitempty"`
}

func keysCreate(c *cli.Context) error {
	plan, err := parsePlan(c.String("plan"))
	if err != nil {
		return err
	}
	g, closeStore, err := openGate(c, true)
	if err != nil {
		return err
	}
	defer closeStore()
	st := g.Store()
	now := time.Now().UTC()
	var acct store.Account
	if e := c.String("email"); e != "" {
		email, err := access.NormalizeEmail(e)
		if err != nil {
			return &usageError{err}
		}
		acct, err = st.AccountByEmail(c.Context, email)
		switch {
		case errors.Is(err, store.ErrNotFound):
			acct, err = st.CreateAccount(c.Context, store.Account{Email: email, Plan: plan, MonthlyCap: c.Int64("cap"), CreatedAt: now, TrialExpiresAt: trialEnd(plan, now)})
			if err != nil {
				return err
			}
		case err != nil:
			return err
		case c.IsSet("plan") && acct.Plan != plan:
			return usagef("%s is on the %s plan; change it with: textanalysis keys plan --email %s --plan %s", email, acct.Plan, email, plan)
		}
	} else {
		acct, err = st.CreateAccount(c.Context, store.Account{Plan: plan, MonthlyCap: c.Int64("cap"), CreatedAt: now, TrialExpiresAt: trialEnd(plan, now)})
		if err != nil {
			return err
		}
	}
	iss, err := g.IssueKey(c.Context, acct, kindOf(acct.Plan), c.String("name"))
	if err != nil {
		return err
	}
	out := createdKey{Key: iss.Secret, Prefix: iss.Key.Prefix, KeyID: iss.Key.ID, AccountID: acct.ID, Email: acct.Email, Plan: string(acct.Plan)}
	if acct.Plan == store.PlanTrial {
		out.ExpiresAt = acct.TrialExpiresAt.Format(time.RFC3339)
		out.ClaimURL = g.ClaimURL(iss.Key)
	}
	if c.Bool("json") {
		return writeJSONTo(c.App.Writer, out)
	}
	fmt.Fprintf(c.App.Writer, "%s\n\nKey %d for account %d (%s plan). It is shown only now; the store keeps its hash.\n", out.Key, out.KeyID, out.AccountID, out.Plan)
	if out.ClaimURL != "" {
		fmt.Fprintf(c.App.Writer, "The trial ends at %s; its holder keeps the key by claiming it at:\n%s\n", out.ExpiresAt, out.ClaimURL)
	}
	return nil
}

func trialEnd(p store.Plan, now time.Time) time.Time {
	if p == store.PlanTrial {
		return now.Add(access.DefaultTrialDuration)
	}
	return time.Time{}
}

type listedKey struct {
	ID        int64  `json:"id"`
	Prefix    string `json:"prefix"`
	Kind      string `json:"kind"`
	Name      string `json:"name,omitempty"`
	AccountID int64  `json:"account_id"`
	Email     string `json:"email,omitempty"`
	Plan      string `json:"plan"`
	CreatedAt string `json:"created_at"`
	RevokedAt string `json:"revoked_at,omitempty"`
	// LastUsedAt is accurate to about a minute (store.KeyTouchInterval).
	LastUsedAt string `json:"last_used_at,omitempty"`
}

func keysList(c *cli.Context) error {
	g, closeStore, err := openGate(c, false)
	if err != nil {
		return err
	}
	defer closeStore()
	st := g.Store()
	var accountID int64
	if e := c.String("email"); e != "" {
		a, err := st.AccountByEmail(c.Context, e)
		if err != nil {
			return &usageError{fmt.Errorf("no account for %s: %w", e, err)}
		}
		accountID = a.ID
	}
	keys, err := st.ListKeys(c.Context, accountID)
	if err != nil {
		return err
	}
	accounts := map[int64]store.Account{}
	out := []listedKey{}
	for _, k := range keys {
		a, ok := accounts[k.AccountID]
		if !ok {
			if a, err = st.Account(c.Context, k.AccountID); err != nil {
				return err
			}
			accounts[k.AccountID] = a
		}
		lk := listedKey{ID: k.ID, Prefix: k.Prefix + "…", Kind: k.Kind, Name: k.Name, AccountID: a.ID, Email: a.Email, Plan: string(a.Plan), CreatedAt: k.CreatedAt.UTC().Format(time.RFC3339)}
		if k.Revoked() {
			lk.RevokedAt = k.RevokedAt.UTC().Format(time.RFC3339)
		}
		if !k.LastUsedAt.IsZero() {
			lk.LastUsedAt = k.LastUsedAt.UTC().Format(time.RFC3339)
		}
		out = append(out, lk)
	}
	if c.Bool("json") {
		return writeJSONTo(c.App.Writer, out)
	}
	tw := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPREFIX\tACCOUNT\tEMAIL\tPLAN\tCREATED\tREVOKED")
	for _, k := range out {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\t%s\n", k.ID, k.Prefix, k.AccountID, k.Email, k.Plan, k.CreatedAt, k.RevokedAt)
	}
	return tw.Flush()
}

func keysRevoke(c *cli.Context) error {
	if c.Args().Len() != 1 {
		return usagef("give one key ID or prefix")
	}
	arg := revokeArg(c.Args().First())
	g, closeStore, err := openGate(c, false)
	if err != nil {
		return err
	}
	defer closeStore()
	st := g.Store()
	var match []store.Key
	if id, err := strconv.ParseInt(arg, 10, 64); err == nil {
		k, err := st.Key(c.Context, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err == nil {
			match = append(match, k)
		}
	} else {
		// Prefixes are for people reading a list; a scan is fine here.
		keys, err := st.ListKeys(c.Context, 0)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if k.Prefix == arg {
				match = append(match, k)
			}
		}
	}
	switch len(match) {
	case 0:
		return usagef("no key %q (keys list shows each key's ID and prefix)", arg)
	case 1:
	default:
		return usagef("prefix %q matches %d keys; revoke by ID", arg, len(match))
	}
	if err := st.RevokeKey(c.Context, match[0].ID, time.Now().UTC()); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "revoked key %d (%s…)\n", match[0].ID, match[0].Prefix)
	return nil
}

// revokeArg turns what a person copies into what keys are found by: an ID,
// or a prefix as keys list, the account page and the logs show it, with
// "…" or "..." after it, or a whole key, of which the prefix is taken.
func revokeArg(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimSuffix(s, "…"), "...")
	if p := access.PrefixOf(s); p != "" {
		return p
	}
	return s
}

func keysPlan(c *cli.Context) error {
	plan, err := parsePlan(c.String("plan"))
	if err != nil {
		return err
	}
	if plan == store.PlanTrial {
		return usagef("an account cannot move back to trial")
	}
	g, closeStore, err := openGate(c, false)
	if err != nil {
		return err
	}
	defer closeStore()
	st := g.Store()
	var a store.Account
	switch {
	case c.String("email") != "":
		a, err = st.AccountByEmail(c.Context, c.String("email"))
	case c.Int64("account") != 0:
		a, err = st.Account(c.Context, c.Int64("account"))
	default:
		return usagef("name the account with --email or --account")
	}
	if errors.Is(err, store.ErrNotFound) {
		return usagef("no such account")
	}
	if err != nil {
		return err
	}
	a.Plan = plan
	a.TrialExpiresAt = time.Time{}
	if c.IsSet("cap") {
		a.MonthlyCap = c.Int64("cap")
	}
	if err := st.UpdateAccount(c.Context, a); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "account %d is now on the %s plan\n", a.ID, a.Plan)
	return nil
}

// A usageLine is one row of textanalysis usage: an invoice line, and when
// the account was erased (keys delete-account), so that an empty e-mail
// reads as erased, not as a trial or sandbox account.
type usageLine struct {
	access.InvoiceLine
	ErasedAt string `json:"erased_at,omitempty"`
}

// usageLines returns the month's invoice lines by account ID.
func usageLines(ctx context.Context, g *access.Gate, month time.Time) ([]usageLine, error) {
	lines, err := g.Invoice(ctx, month)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(lines, func(a, b access.InvoiceLine) int { return cmp.Compare(a.AccountID, b.AccountID) })
	out := make([]usageLine, 0, len(lines))
	for _, l := range lines {
		ul := usageLine{InvoiceLine: l}
		if l.Email == "" {
			a, err := g.Store().Account(ctx, l.AccountID)
			if err != nil {
				return nil, err
			}
			if a.Deleted() {
				ul.ErasedAt = a.DeletedAt.UTC().Format(time.RFC3339)
			}
		}
		out = append(out, ul)
	}
	return out, nil
}

func usageCommand() *cli.Command {
	return &cli.Command{
		Name:  "usage",
		Usage: "requests per account for a month, with the Pay as you go amount, as CSV or JSON",
		Description: `Counts come from the store the server uses. requests is the month's requests
on any plan; payg_requests those made while the account was on Pay as you go,
the only ones charged: 0.10 USD per 1,000 requests (0.0001 USD a request), the
month's amount rounded to the cent. An account moved from Free to Pay as you go
mid-month pays for the requests after the move only; plan is the plan now.
Rows are ordered by account ID; an account erased with "keys delete-account" has
no e-mail and its erased_at set.

Examples:
   textanalysis usage
   textanalysis usage --month 2026-10 --format json`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "month", Usage: "`YYYY-MM` (default: this month, UTC)"},
			&cli.StringFlag{Name: "format", Value: "csv", Usage: "csv or json"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			month := time.Now().UTC()
			if m := c.String("month"); m != "" {
				t, err := time.Parse("2006-01", m)
				if err != nil {
					return usagef("--month %q: want YYYY-MM", m)
				}
				month = t
			}
			format := c.String("format")
			if format != "csv" && format != "json" {
				return usagef("--format must be csv or json")
			}
			g, closeStore, err := openGate(c, false)
			if err != nil {
				return err
			}
			defer closeStore()
			lines, err := usageLines(c.Context, g, month)
			if err != nil {
				return err
			}
			if format == "json" {
				return writeJSONTo(c.App.Writer, lines)
			}
			w := csv.NewWriter(c.App.Writer)
			_ = w.Write([]string{"month", "account_id", "email", "plan", "requests", "payg_requests", "amount_usd", "erased_at"})
			for _, l := range lines {
				_ = w.Write([]string{l.Month, strconv.FormatInt(l.AccountID, 10), l.Email, l.Plan, strconv.FormatInt(l.Requests, 10),
					strconv.FormatInt(l.PaygRequests, 10), strconv.FormatFloat(l.AmountUSD, 'f', 2, 64), l.ErasedAt})
			}
			w.Flush()
			return w.Error()
		},
	}
}
