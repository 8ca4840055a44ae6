package developer

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/mail"
	"github.com/textanalysis/go-textanalysis/server/store"
)

// The account page: a sign-in by e-mailed link, then the account's keys,
// usage and plan.

// session returns the signed-in account, if any, and the cookie's value.
func (s *Site) session(r *http.Request) (store.Account, string, bool) {
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return store.Account{}, "", false
	}
	a, err := s.cfg.Gate.Session(r.Context(), c.Value)
	if err != nil {
		if !errors.Is(err, access.ErrBadToken) {
			s.log.Error("developer session", "err", err)
		}
		return store.Account{}, "", false
	}
	return a, c.Value, true
}

func (s *Site) setCookie(w http.ResponseWriter, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: value, Path: s.cookiePath, MaxAge: maxAge,
		HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode})
}

func (s *Site) toAccount(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, s.cfg.SiteURL+"/account", http.StatusSeeOther)
}

// signedIn returns the session's account, or answers with the sign-in
// page (401) and returns false.
func (s *Site) signedIn(w http.ResponseWriter, r *http.Request) (store.Account, bool) {
	a, _, ok := s.session(r)
	if !ok {
		s.page(w, http.StatusUnauthorized, "signin.html", pageData{Title: "Sign in", Error: "Your sign-in has expired or you signed out; sign in again."})
	}
	return a, ok
}

func (s *Site) account(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.session(r)
	if !ok {
		s.page(w, http.StatusOK, "signin.html", pageData{Title: "Sign in"})
		return
	}
	v, err := s.accountView(r, a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.page(w, http.StatusOK, "account.html", pageData{Title: "Your account", Account: v, Message: doneMessages[r.URL.Query().Get("done")]})
}

// doneMessages are what the account page says after a form redirected to
// it with ?done=; nothing from the URL is shown as is.
var doneMessages = map[string]string{
	"revoked":   "The key was revoked: it now answers 401 revoked_key.",
	"requested": "Your request was recorded and sent to the operator, who will reply by e-mail.",
}

func (s *Site) accountView(r *http.Request, a store.Account) (*accountView, error) {
	ctx := r.Context()
	u, err := s.cfg.Gate.Usage(ctx, a)
	if err != nil {
		return nil, err
	}
	keys, err := s.cfg.Gate.AccountKeys(ctx, a)
	if err != nil {
		return nil, err
	}
	reqs, err := s.cfg.Gate.PlanRequests(ctx, a)
	if err != nil {
		return nil, err
	}
	v := &accountView{Email: a.Email, Plan: planName(a.Plan), Payg: a.Plan == store.PlanPayg, Used: u.Used,
		Allowance: u.Allowance, Reset: u.Reset, Keys: keys, Requests: reqs}
	if v.Payg {
		v.AmountUSD = fmt.Sprintf("%.2f", float64(u.Used)*access.PricePerRequestUSD)
	}
	for _, k := range keys {
		if !k.Revoked() {
			v.Live++
		}
	}
	v.CanAdd = v.Live < s.cfg.Gate.MaxLiveKeys()
	return v, nil
}

func (s *Site) signinRequest(w http.ResponseWriter, r *http.Request) {
	if !s.form(w, r) {
		return
	}
	email := r.PostForm.Get("email")
	start, err := s.cfg.Gate.StartSignIn(r.Context(), s.clientAddr(r), email)
	switch {
	case errors.Is(err, access.ErrBadEmail):
		s.page(w, http.StatusUnprocessableEntity, "signin.html", pageData{Title: "Sign in", Email: email, Error: "Please enter a valid e-mail address."})
		return
	case errors.Is(err, access.ErrMailLimit):
		s.mailLimited(w, err)
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	// The page is the same whether the address has an account or not; the
	// mail says which.
	m := mail.Message{To: start.Email, Subject: "Sign in to go-textanalysis"}
	if start.Token != "" {
		m.Body = fmt.Sprintf("To sign in to your go-textanalysis account, open this link and press the button on the page:\n\n    %s/account/signin?token=%s\n\n"+
			"The link works once, for %d minutes. If you did not ask for this, ignore this message.\n",
			s.cfg.SiteURL, start.Token, int(access.SignInLinkTTL.Minutes()))
	} else {
		m.Body = fmt.Sprintf("Someone asked to sign in to go-textanalysis with this address, but it has no account.\n"+
			"To get a key (and an account), sign up at:\n\n    %s/\n\nIf you did not ask for this, ignore this message.\n", s.cfg.SiteURL)
	}
	if !s.send(r.Context(), m, "signin") {
		s.mailFailed(w)
		return
	}
	s.page(w, http.StatusOK, "sent.html", pageData{Title: "Check your inbox", Email: start.Email,
		Message: "If this address has an account, the message holds a sign-in link; open it and press the button on its page."})
}

func (s *Site) signinPage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	t, err := s.cfg.Gate.PendingLink(r.Context(), token, store.PurposeSignIn)
	if err != nil {
		s.badLink(w, r, err)
		return
	}
	s.page(w, http.StatusOK, "confirm.html", pageData{Title: "Sign in", Email: t.Email,
		Message: "Press the button to sign in as " + t.Email + ".",
		Action:  s.cfg.SiteURL + "/account/session", Token: token, Button: "Sign in"})
}

func (s *Site) signin(w http.ResponseWriter, r *http.Request) {
	if !s.form(w, r) {
		return
	}
	secret, _, err := s.cfg.Gate.SignIn(r.Context(), r.PostForm.Get("token"))
	if err != nil {
		s.badLink(w, r, err)
		return
	}
	s.setCookie(w, secret, int(access.SessionTTL.Seconds()))
	s.toAccount(w, r)
}

func (s *Site) signout(w http.ResponseWriter, r *http.Request) {
	if _, secret, ok := s.session(r); ok {
		if err := s.cfg.Gate.SignOut(r.Context(), secret); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.setCookie(w, "", -1)
	s.toAccount(w, r)
}

// maxKeyName bounds a key's name, in bytes.
const maxKeyName = 64

func (s *Site) newKey(w http.ResponseWriter, r *http.Request) {
	if !s.form(w, r) {
		return
	}
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	name := strings.TrimSpace(r.PostForm.Get("name"))
	if len(name) > maxKeyName {
		name = name[:maxKeyName]
		name = strings.ToValidUTF8(name, "")
	}
	if name == "" {
		name = "account page"
	}
	iss, err := s.cfg.Gate.NewAccountKey(r.Context(), a, name)
	if errors.Is(err, access.ErrKeyLimit) {
		s.page(w, http.StatusConflict, "message.html", pageData{Title: "Too many keys",
			Error: fmt.Sprintf("This account has %d live keys, the most an account may hold. Revoke one to make another.", s.cfg.Gate.MaxLiveKeys())})
		return
	}
	var lim *access.MailLimitError
	if errors.As(err, &lim) {
		w.Header().Set("Retry-After", strconv.FormatInt(access.RetryAfterSeconds(time.Until(lim.Reset)), 10))
		s.page(w, http.StatusTooManyRequests, "message.html", pageData{Title: "Please wait",
			Error: fmt.Sprintf("This account has made its %d keys today. No key was made; try again after %s UTC.", access.NewKeysPerDay, lim.Reset.UTC().Format("2006-01-02 15:04"))})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.keyNotice(r.Context(), iss)
	s.page(w, http.StatusOK, "key.html", pageData{Title: "Your new API key", Key: iss.Secret, Email: a.Email, Plan: planName(a.Plan)})
}

func (s *Site) revokeKey(w http.ResponseWriter, r *http.Request) {
	if !s.form(w, r) {
		return
	}
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	id, err := strconv.ParseInt(r.PostForm.Get("key"), 10, 64)
	if err == nil {
		err = s.cfg.Gate.RevokeAccountKey(r.Context(), a, id)
	} else {
		err = access.ErrNoKey
	}
	if errors.Is(err, access.ErrNoKey) {
		s.page(w, http.StatusNotFound, "message.html", pageData{Title: "No such key", Error: "This account has no such key."})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, s.cfg.SiteURL+"/account?done=revoked", http.StatusSeeOther)
}

func (s *Site) requestPlan(w http.ResponseWriter, r *http.Request) {
	if !s.form(w, r) {
		return
	}
	a, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	var monthlyCap int64
	if v := strings.ReplaceAll(strings.TrimSpace(r.PostForm.Get("cap")), ",", ""); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > access.MaxRequestedCap {
			s.page(w, http.StatusUnprocessableEntity, "message.html", pageData{Title: "Cap not valid",
				Error: fmt.Sprintf("The monthly cap must be a whole number of requests up to %s.", thousands(access.MaxRequestedCap))})
			return
		}
		monthlyCap = n
	}
	req, err := s.cfg.Gate.RequestPlan(r.Context(), a, monthlyCap)
	if errors.Is(err, access.ErrMailLimit) {
		s.mailLimited(w, err)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.tellOperator(r, a, req)
	http.Redirect(w, r, s.cfg.SiteURL+"/account?done=requested", http.StatusSeeOther)
}

// tellOperator mails a plan request to the operator, or logs it (IDs
// only) when no operator address is configured or the mail fails; the
// request is in the store either way.
func (s *Site) tellOperator(r *http.Request, a store.Account, req store.PlanRequest) {
	what := "Pay as you go"
	cmd := fmt.Sprintf("textanalysis keys plan --account %d --plan payg", a.ID)
	if req.MonthlyCap > 0 {
		what += fmt.Sprintf(" with a monthly cap of %s requests", thousands(req.MonthlyCap))
		cmd += fmt.Sprintf(" --cap %d", req.MonthlyCap)
	}
	if s.cfg.OperatorEmail != "" {
		body := fmt.Sprintf("Account %d (%s), now on the %s plan, asks for %s (request %d, %s).\n\n"+
			"No payment provider is connected: arrange billing with the holder, then grant it with\n\n    %s\n",
			a.ID, a.Email, planName(a.Plan), what, req.ID, req.CreatedAt.UTC().Format(time.RFC3339), cmd)
		if s.send(r.Context(), mail.Message{To: s.cfg.OperatorEmail, Subject: fmt.Sprintf("Plan request from account %d", a.ID), Body: body}, "plan request") {
			return
		}
	}
	s.log.Info("plan request", "account_id", a.ID, "request_id", req.ID, "plan", string(req.Plan), "monthly_cap", req.MonthlyCap, "grant", cmd)
}
