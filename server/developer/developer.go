package developer

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/mail"
	"github.com/textanalysis/go-textanalysis/server/store"
)

//go:embed templates/*.html
var templateFS embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"date": func(t time.Time) string {
		if t.IsZero() {
			return "never"
		}
		return t.UTC().Format("2006-01-02 15:04 UTC")
	},
	"day":   func(t time.Time) string { return t.UTC().Format("2006-01-02") },
	"count": func(n int64) string { return thousands(n) },
}).ParseFS(templateFS, "templates/*.html"))

// Config configures the site.
type Config struct {
	Gate *access.Gate // required
	Mail mail.Sender  // nil means mail.Log with Logger; serve gives an outbox ([mail.Worker.Outbox])
	// BaseURL is the API's public address, SiteURL the developer site's,
	// MCPURL the MCP endpoint's; they appear in answers and e-mails.
	// SiteURL's path is the session cookie's path, and an https SiteURL
	// makes the cookie Secure.
	BaseURL string
	SiteURL string
	MCPURL  string
	// OpenAPI is the document served at /openapi.json.
	OpenAPI []byte
	// TrustedProxies are the peers whose X-Forwarded-For names the client;
	// from any other peer the socket's address counts.
	TrustedProxies []netip.Prefix
	// OperatorEmail receives the account page's requests for Pay as you go
	// or a higher cap; "" logs them (account and request IDs only).
	OperatorEmail string
	Logger        *slog.Logger // nil discards
}

// Site is the developer site's handler.
type Site struct {
	cfg     Config
	log     *slog.Logger
	mux     *http.ServeMux
	handler http.Handler
	// cookiePath and secure shape the session cookie.
	cookiePath string
	secure     bool
}

// SessionCookie is the name of the account page's session cookie. It is
// HttpOnly, SameSite=Lax, Secure when SiteURL is https, and lasts
// access.SessionTTL; the store keeps only a hash of its value.
const SessionCookie = "ta_session"

// New builds the site. Paths are relative to where it is mounted: strip
// the mount prefix (http.StripPrefix) before calling it. Every form is
// protected against cross-origin posts (http.CrossOriginProtection):
// a browser's POST from another site gets 403.
func New(cfg Config) (*Site, error) {
	if cfg.Gate == nil {
		return nil, errors.New("developer: Config.Gate is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Mail == nil {
		cfg.Mail = mail.Log{Logger: cfg.Logger}
	}
	cfg.SiteURL = strings.TrimRight(cfg.SiteURL, "/")
	s := &Site{cfg: cfg, log: cfg.Logger, mux: http.NewServeMux(), cookiePath: "/"}
	cop := http.NewCrossOriginProtection()
	if u, err := url.Parse(cfg.SiteURL); err == nil && u.Host != "" {
		s.secure = u.Scheme == "https"
		if u.Path != "" {
			s.cookiePath = u.Path
		}
		// Behind a proxy that rewrites Host, the site's own origin must
		// still pass the Origin check.
		if err := cop.AddTrustedOrigin(u.Scheme + "://" + u.Host); err != nil {
			return nil, fmt.Errorf("developer: site URL: %w", err)
		}
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.page(w, http.StatusForbidden, "message.html", pageData{Title: "Request refused",
			Error: "This form was sent from another site. Open the developer site and send it from there."})
	}))
	s.mux.HandleFunc("GET /{$}", s.home)
	s.mux.HandleFunc("POST /signup", s.signup)
	s.mux.HandleFunc("GET /signup/confirm", s.signupPage)
	s.mux.HandleFunc("POST /signup/confirm", s.signupConfirm)
	s.mux.HandleFunc("POST /trial", s.trial)
	// The trial endpoint is JSON for programs: its 405 is JSON too, as the
	// API's are, not the mux's plain text.
	s.mux.HandleFunc("/trial", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", http.MethodPost)
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"detail": "Method Not Allowed"})
	})
	s.mux.HandleFunc("GET /claim", s.claimPage)
	s.mux.HandleFunc("POST /claim", s.claim)
	s.mux.HandleFunc("GET /confirm", s.confirmPage)
	s.mux.HandleFunc("POST /confirm", s.confirm)
	s.mux.HandleFunc("GET /account", s.account)
	s.mux.HandleFunc("POST /account/signin", s.signinRequest)
	s.mux.HandleFunc("GET /account/signin", s.signinPage)
	s.mux.HandleFunc("POST /account/session", s.signin)
	s.mux.HandleFunc("POST /account/signout", s.signout)
	s.mux.HandleFunc("POST /account/keys", s.newKey)
	s.mux.HandleFunc("POST /account/keys/revoke", s.revokeKey)
	s.mux.HandleFunc("POST /account/plan", s.requestPlan)
	s.mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(cfg.OpenAPI)
	})
	s.handler = cop.Handler(s.mux)
	return s, nil
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

type pageData struct {
	Title    string
	SiteURL  string
	BaseURL  string
	MCPURL   string
	Key      string
	Email    string
	Message  string
	Error    string
	KeyID    int64
	Sig      string
	Plan     string
	Trial    int64
	Free     int64
	Sandbox  int64
	PriceUSD string
	// A confirmation page: the form's action, its token and button.
	Action string
	Token  string
	Button string
	// The account page.
	Account  *accountView
	PaygCap  int64
	MaxKeys  int
	Warnings []string
}

// accountView is what the account page shows of a signed-in account.
type accountView struct {
	Email     string
	Plan      string
	Payg      bool
	Used      int64
	Allowance int64
	Reset     time.Time
	AmountUSD string
	Keys      []store.Key
	Live      int
	CanAdd    bool
	Requests  []store.PlanRequest
}

func (s *Site) page(w http.ResponseWriter, status int, name string, d pageData) {
	d.SiteURL, d.BaseURL, d.MCPURL = s.cfg.SiteURL, s.cfg.BaseURL, s.cfg.MCPURL
	d.Trial, d.Free, d.Sandbox = access.DefaultTrialAllowance, access.DefaultFreeAllowance, access.DefaultSandboxAllowance
	d.PriceUSD = "0.10"
	d.MaxKeys = s.cfg.Gate.MaxLiveKeys()
	d.PaygCap = access.DefaultPaygCap
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, d); err != nil {
		s.log.Error("developer page", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	// A page that shows a key must not be cached anywhere.
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

func (s *Site) home(w http.ResponseWriter, r *http.Request) {
	s.page(w, http.StatusOK, "home.html", pageData{Title: "Get an API key"})
}

// maxFormBytes bounds the forms' bodies.
const maxFormBytes = 8 << 10

// form parses a POST form; on failure it answers and returns false.
func (s *Site) form(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.page(w, http.StatusBadRequest, "message.html", pageData{Title: "Form not read", Error: "The form could not be read."})
		return false
	}
	return true
}

// mailLimited answers a request refused by a mail cap: 429 with
// Retry-After, and no mail sent.
func (s *Site) mailLimited(w http.ResponseWriter, err error) {
	var lim *access.MailLimitError
	reset := time.Now().Add(time.Hour)
	msg := "Too many mails were asked for from your network. No mail was sent."
	if errors.As(err, &lim) {
		reset = lim.Reset
		if lim.PerEmail {
			msg = "Too many mails were sent to this address today. No mail was sent."
		}
	}
	w.Header().Set("Retry-After", strconv.FormatInt(access.RetryAfterSeconds(time.Until(reset)), 10))
	s.page(w, http.StatusTooManyRequests, "message.html", pageData{Title: "Please wait",
		Error: msg + " Try again after " + reset.UTC().Format("2006-01-02 15:04") + " UTC."})
}

// send mails m; it logs a failure and reports it.
func (s *Site) send(ctx context.Context, m mail.Message, what string) bool {
	if err := s.cfg.Mail.Send(ctx, m); err != nil {
		s.log.Error("send mail", "mail", what, "err", err)
		return false
	}
	return true
}

func (s *Site) mailFailed(w http.ResponseWriter) {
	s.page(w, http.StatusBadGateway, "message.html", pageData{Title: "Mail not sent", Error: "The e-mail could not be sent; please try again later."})
}

func (s *Site) signup(w http.ResponseWriter, r *http.Request) {
	if !s.form(w, r) {
		return
	}
	email := r.PostForm.Get("email")
	start, err := s.cfg.Gate.StartSignUp(r.Context(), s.clientAddr(r), email)
	switch {
	case errors.Is(err, access.ErrBadEmail):
		s.page(w, http.StatusUnprocessableEntity, "home.html", pageData{Title: "Get an API key", Email: email, Error: "Please enter a valid e-mail address."})
		return
	case errors.Is(err, access.ErrMailLimit):
		s.mailLimited(w, err)
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	link := s.cfg.SiteURL + "/signup/confirm?token=" + start.Token
	body := fmt.Sprintf("Someone, we hope you, asked for a go-textanalysis API key for this address.\n\n"+
		"To get it, open this link and press the button on the page:\n\n    %s\n\n"+
		"The key is made and shown only then (Free plan, %s requests a month). The link works once, for %d hours.\n"+
		"If you did not ask for this, ignore this message: no key exists until the button is pressed.\n",
		link, thousands(access.DefaultFreeAllowance), int(access.ConfirmLinkTTL.Hours()))
	if !s.send(r.Context(), mail.Message{To: start.Email, Subject: "Confirm your address for a go-textanalysis API key", Body: body}, "signup") {
		s.mailFailed(w)
		return
	}
	s.page(w, http.StatusOK, "sent.html", pageData{Title: "Check your inbox", Email: start.Email,
		Message: "Open the link in that message and press the button on its page: your key is made and shown then, once. No key exists before."})
}

func (s *Site) signupPage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	t, err := s.cfg.Gate.PendingLink(r.Context(), token, store.PurposeSignUp)
	if err != nil {
		s.badLink(w, r, err)
		return
	}
	s.page(w, http.StatusOK, "confirm.html", pageData{Title: "Confirm your address", Email: t.Email,
		Message: "Press the button to confirm " + t.Email + " and get a key on the account of that address (made on the Free plan if it has none). The key is shown once, on the next page.",
		Action:  s.cfg.SiteURL + "/signup/confirm", Token: token, Button: "Confirm and show my key"})
}

// badLink answers a link that is wrong, used or expired, or a store error.
func (s *Site) badLink(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, access.ErrBadToken) {
		s.page(w, http.StatusNotFound, "message.html", pageData{Title: "Link not valid", Error: "This link is not valid: it was used already, has expired, or was copied incompletely."})
		return
	}
	s.fail(w, r, err)
}

func (s *Site) signupConfirm(w http.ResponseWriter, r *http.Request) {
	if !s.form(w, r) {
		return
	}
	iss, err := s.cfg.Gate.ConfirmSignUp(r.Context(), r.PostForm.Get("token"))
	if errors.Is(err, access.ErrKeyLimit) {
		s.page(w, http.StatusConflict, "message.html", pageData{Title: "Too many keys",
			Error: fmt.Sprintf("This address's account has %d live keys, the most an account may hold. Sign in on the account page, revoke a key, and use this link again.", s.cfg.Gate.MaxLiveKeys())})
		return
	}
	if err != nil {
		s.badLink(w, r, err)
		return
	}
	s.keyNotice(r.Context(), iss)
	s.page(w, http.StatusOK, "key.html", pageData{Title: "Your API key", Key: iss.Secret, Email: iss.Account.Email, Plan: planName(iss.Account.Plan)})
}

// keyNotice mails an account that a key was made. The key itself is not
// in it: it was shown once, on the page, and a mailbox is a poor place for
// a live secret; the prefix is enough to recognise it on the account page.
func (s *Site) keyNotice(ctx context.Context, iss access.Issued) {
	body := fmt.Sprintf("A new go-textanalysis API key was made for %s on %s:\n\n    %s…  (%s plan)\n\n"+
		"It was shown once, on the page where it was made; we keep only a hash of it.\n"+
		"See your keys, revoke one, or make another on the account page:\n\n    %s/account\n\n"+
		"If you did not make this key, revoke it there.\n",
		iss.Account.Email, iss.Key.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), iss.Key.Prefix, planName(iss.Account.Plan), s.cfg.SiteURL)
	s.send(ctx, mail.Message{To: iss.Account.Email, Subject: "A new go-textanalysis API key", Body: body}, "key notice")
}

// trialAnswer is DESIGN.md §5's trial response.
type trialAnswer struct {
	Key       string `json:"key"`
	Plan      string `json:"plan"`
	BaseURL   string `json:"base_url"`
	MCPURL    string `json:"mcp_url"`
	ClaimURL  string `json:"claim_url"`
	Remaining int64  `json:"remaining"`
	ExpiresAt string `json:"expires_at"`
}

func (s *Site) trial(w http.ResponseWriter, r *http.Request) {
	iss, err := s.cfg.Gate.IssueTrial(r.Context(), s.clientAddr(r))
	if errors.Is(err, access.ErrTrialLimit) {
		now := time.Now().UTC()
		tomorrow := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
		w.Header().Set("Retry-After", strconv.FormatInt(int64(tomorrow.Sub(now).Seconds())+1, 10))
		writeJSON(w, http.StatusTooManyRequests, map[string]string{
			"detail": "This address has had its trial keys for today. Try again tomorrow (UTC), or get a Free key with an e-mail address at " + s.cfg.SiteURL + "/.",
			"error":  "trial_limit", "action": "wait", "reset": tomorrow.Format(time.RFC3339), "upgrade_url": s.cfg.SiteURL + "/",
		})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, trialAnswer{
		Key: iss.Secret, Plan: string(store.PlanTrial), BaseURL: s.cfg.BaseURL, MCPURL: s.cfg.MCPURL,
		ClaimURL:  s.absolute(s.cfg.Gate.ClaimURL(iss.Key)),
		Remaining: s.cfg.Gate.TrialAllowance(), ExpiresAt: iss.Account.TrialExpiresAt.UTC().Format(time.RFC3339),
	})
}

// absolute makes a site-relative link absolute when the gate was given a
// relative developer URL.
func (s *Site) absolute(link string) string {
	if strings.HasPrefix(link, "http://") || strings.HasPrefix(link, "https://") {
		return link
	}
	return s.cfg.SiteURL + strings.TrimPrefix(link, "/developer")
}

func (s *Site) claimPage(w http.ResponseWriter, r *http.Request) {
	id, sig, ok := claimParams(r.URL.Query().Get("key"), r.URL.Query().Get("sig"))
	if !ok || !s.cfg.Gate.CheckClaim(id, sig) {
		s.page(w, http.StatusNotFound, "message.html", pageData{Title: "Link not valid", Error: "This claim link is not valid. Use the claim_url you were given with the trial key."})
		return
	}
	s.page(w, http.StatusOK, "claim.html", pageData{Title: "Claim your trial key", KeyID: id, Sig: sig})
}

func claimParams(key, sig string) (int64, string, bool) {
	id, err := strconv.ParseInt(key, 10, 64)
	if err != nil || id <= 0 || len(sig) != 32 {
		return 0, "", false
	}
	return id, sig, true
}

// claimEffect says, from the plan of the account a claimed key would
// join (nil: none yet), exactly what confirming the claim does.
func claimEffect(email string, target *store.Account, paygCap int64) string {
	switch {
	case target == nil:
		return fmt.Sprintf("This key will move to a new account for %s on the Free plan (%s requests a month). The key itself stays the same.", email, thousands(access.DefaultFreeAllowance))
	case target.Plan == store.PlanPayg:
		return fmt.Sprintf("This key will join the account of %s on the Pay as you go plan; its requests will be billed to that account (%s USD per 1,000 requests, up to its monthly cap of %s requests). Confirm only if you want whoever holds this key to spend that account's money.",
			email, "0.10", thousands(paygCap))
	case target.Plan == store.PlanFree:
		return fmt.Sprintf("This key will join the existing account of %s on the Free plan; it will share that account's %s requests a month with the account's other keys.", email, thousands(access.DefaultFreeAllowance))
	}
	return fmt.Sprintf("This key will join the existing account of %s on the %s plan and use its allowance.", email, planName(target.Plan))
}

func (s *Site) claim(w http.ResponseWriter, r *http.Request) {
	if !s.form(w, r) {
		return
	}
	id, sig, ok := claimParams(r.PostForm.Get("key"), r.PostForm.Get("sig"))
	if !ok {
		s.page(w, http.StatusNotFound, "message.html", pageData{Title: "Link not valid", Error: "This claim link is not valid."})
		return
	}
	email := r.PostForm.Get("email")
	start, err := s.cfg.Gate.StartClaim(r.Context(), s.clientAddr(r), id, sig, email)
	switch {
	case errors.Is(err, access.ErrBadEmail):
		s.page(w, http.StatusUnprocessableEntity, "claim.html", pageData{Title: "Claim your trial key", KeyID: id, Sig: sig, Email: email, Error: "Please enter a valid e-mail address."})
		return
	case errors.Is(err, access.ErrBadToken):
		s.page(w, http.StatusNotFound, "message.html", pageData{Title: "Link not valid", Error: "This claim link is not valid, or the key was claimed already."})
		return
	case errors.Is(err, access.ErrMailLimit):
		s.mailLimited(w, err)
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	effect := claimEffect(start.Email, start.Target, s.paygCap(start.Target))
	link := s.cfg.SiteURL + "/confirm?token=" + start.Token
	body := fmt.Sprintf("Someone holding a go-textanalysis trial key asked to claim it with this address.\n\n%s\n\n"+
		"To confirm, open this link and press the button on the page:\n\n    %s\n\n"+
		"The link works once, for %d hours. If you did not ask for this, ignore this message: nothing changes unless the button is pressed.\n",
		effect, link, int(access.ConfirmLinkTTL.Hours()))
	if !s.send(r.Context(), mail.Message{To: start.Email, Subject: "Confirm the claim of a go-textanalysis trial key", Body: body}, "claim") {
		s.mailFailed(w)
		return
	}
	s.page(w, http.StatusOK, "sent.html", pageData{Title: "Check your inbox", Email: start.Email,
		Message: "Open the link in that message and press the button on its page to confirm the address; the message says what the claim will do."})
}

func (s *Site) paygCap(a *store.Account) int64 {
	if a == nil {
		return 0
	}
	return s.cfg.Gate.PaygCap(*a)
}

func (s *Site) confirmPage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	t, err := s.cfg.Gate.PendingLink(r.Context(), token, store.PurposeClaim)
	if err != nil {
		s.badLink(w, r, err)
		return
	}
	// What the claim will do, from the target account as it is now.
	target, err := s.cfg.Gate.ClaimTarget(r.Context(), t.Email)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	msg := claimEffect(t.Email, target, s.paygCap(target))
	if k, err := s.cfg.Gate.Store().Key(r.Context(), t.KeyID); err == nil {
		msg = "Trial key " + k.Prefix + "…: " + msg
	}
	s.page(w, http.StatusOK, "confirm.html", pageData{Title: "Confirm the claim", Email: t.Email, Message: msg,
		Action: s.cfg.SiteURL + "/confirm", Token: token, Button: "Confirm the claim"})
}

func (s *Site) confirm(w http.ResponseWriter, r *http.Request) {
	if !s.form(w, r) {
		return
	}
	c, err := s.cfg.Gate.ConfirmClaim(r.Context(), r.PostForm.Get("token"))
	switch {
	case errors.Is(err, access.ErrAlreadyClaimed):
		s.page(w, http.StatusConflict, "message.html", pageData{Title: "Claimed already",
			Error: "This key was claimed already, through another confirmation link. Nothing changed, and this link is now used up."})
		return
	case errors.Is(err, access.ErrKeyLimit):
		s.page(w, http.StatusConflict, "message.html", pageData{Title: "Too many keys",
			Error: fmt.Sprintf("That account has %d live keys, the most an account may hold. Sign in on the account page, revoke a key, and use this link again.", s.cfg.Gate.MaxLiveKeys())})
		return
	case err != nil:
		s.badLink(w, r, err)
		return
	}
	msg := "Trial key " + c.Key.Prefix + "… now belongs to " + c.Account.Email + " on the " + planName(c.Account.Plan) + " plan. The key is unchanged: nothing you built needs to change."
	if c.Account.Plan == store.PlanPayg {
		msg += " Its requests are billed to that account."
	}
	s.page(w, http.StatusOK, "message.html", pageData{Title: "Key claimed", Email: c.Account.Email, Message: msg})
}

func planName(p store.Plan) string {
	switch p {
	case store.PlanPayg:
		return "Pay as you go"
	case store.PlanFree:
		return "Free"
	case store.PlanTrial:
		return "trial"
	case store.PlanSandbox:
		return "sandbox"
	}
	return string(p)
}

func (s *Site) fail(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("developer site", "path", r.URL.Path, "err", err)
	if strings.HasSuffix(r.URL.Path, "/trial") {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"detail": "Internal server error.", "error": "internal"})
		return
	}
	s.page(w, http.StatusInternalServerError, "message.html", pageData{Title: "Something went wrong", Error: "Something went wrong on our side; please try again."})
}

// clientAddr is the address the per-address limits count
// ([access.ClientAddr]).
func (s *Site) clientAddr(r *http.Request) string {
	return access.ClientAddr(r, s.cfg.TrustedProxies)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"detail":"Internal server error.","error":"internal"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// thousands writes n with comma separators: 1000000 → "1,000,000".
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
