package developer

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/mail"
	"github.com/textanalysis/go-textanalysis/server/store"
)

//go:embed templates/*.html
var templateFS embed.FS

var pages = template.Must(template.ParseFS(templateFS, "templates/*.html"))

// Config configures the site.
type Config struct {
	Gate *access.Gate // required
	Mail mail.Sender  // nil means mail.Log with Logger
	// BaseURL is the API's public address, SiteURL the developer site's,
	// MCPURL the MCP endpoint's; they appear in answers and e-mails.
	BaseURL string
	SiteURL string
	MCPURL  string
	// OpenAPI is the document served at /openapi.json.
	OpenAPI []byte
	// TrustedProxies are the peers whose X-Forwarded-For names the client;
	// from any other peer the socket's address counts.
	TrustedProxies []netip.Prefix
	Logger         *slog.Logger // nil discards
}

// Site is the developer site's handler.
type Site struct {
	cfg Config
	log *slog.Logger
	mux *http.ServeMux
}

// New builds the site. Paths are relative to where it is mounted: strip
// the mount prefix (http.StripPrefix) before calling it.
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
	s := &Site{cfg: cfg, log: cfg.Logger, mux: http.NewServeMux()}
	s.mux.HandleFunc("GET /{$}", s.home)
	s.mux.HandleFunc("POST /signup", s.signup)
	s.mux.HandleFunc("POST /trial", s.trial)
	s.mux.HandleFunc("GET /claim", s.claimPage)
	s.mux.HandleFunc("POST /claim", s.claim)
	s.mux.HandleFunc("GET /confirm", s.confirm)
	s.mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(cfg.OpenAPI)
	})
	return s, nil
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

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
}

func (s *Site) page(w http.ResponseWriter, status int, name string, d pageData) {
	d.SiteURL, d.BaseURL, d.MCPURL = s.cfg.SiteURL, s.cfg.BaseURL, s.cfg.MCPURL
	d.Trial, d.Free, d.Sandbox = access.DefaultTrialAllowance, access.DefaultFreeAllowance, access.DefaultSandboxAllowance
	d.PriceUSD = "0.10"
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

func (s *Site) signup(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.page(w, http.StatusBadRequest, "home.html", pageData{Title: "Get an API key", Error: "The form could not be read."})
		return
	}
	email := r.PostForm.Get("email")
	iss, existed, err := s.cfg.Gate.SignUp(r.Context(), email)
	if errors.Is(err, access.ErrBadEmail) {
		s.page(w, http.StatusUnprocessableEntity, "home.html", pageData{Title: "Get an API key", Email: email, Error: "Please enter a valid e-mail address."})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	body := fmt.Sprintf("Here is your go-textanalysis API key (Free plan, %d requests a month):\n\n    %s\n\nSend it in the X-API-Key header, or as Authorization: Bearer <key>.\nAPI: %s\nMCP: %s\nDocs: %s/docs\n\nKeep it secret: anyone with the key uses your allowance.\n",
		access.DefaultFreeAllowance, iss.Secret, s.cfg.BaseURL, s.cfg.MCPURL, s.cfg.BaseURL)
	if err := s.cfg.Mail.Send(r.Context(), mail.Message{To: iss.Account.Email, Subject: "Your go-textanalysis API key", Body: body}); err != nil {
		s.log.Error("send key mail", "err", err)
	}
	if existed {
		// The address has an account: the key goes only to its inbox.
		s.page(w, http.StatusOK, "sent.html", pageData{Title: "Check your inbox", Email: iss.Account.Email,
			Message: "This address already has an account, so a new key was sent to it rather than shown here."})
		return
	}
	s.page(w, http.StatusOK, "key.html", pageData{Title: "Your API key", Key: iss.Secret, Email: iss.Account.Email, Plan: "Free"})
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

func (s *Site) claim(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.page(w, http.StatusBadRequest, "message.html", pageData{Title: "Claim", Error: "The form could not be read."})
		return
	}
	id, sig, ok := claimParams(r.PostForm.Get("key"), r.PostForm.Get("sig"))
	if !ok {
		s.page(w, http.StatusNotFound, "message.html", pageData{Title: "Link not valid", Error: "This claim link is not valid."})
		return
	}
	email := r.PostForm.Get("email")
	token, err := s.cfg.Gate.StartClaim(r.Context(), id, sig, email)
	switch {
	case errors.Is(err, access.ErrBadEmail):
		s.page(w, http.StatusUnprocessableEntity, "claim.html", pageData{Title: "Claim your trial key", KeyID: id, Sig: sig, Email: email, Error: "Please enter a valid e-mail address."})
		return
	case errors.Is(err, access.ErrBadToken):
		s.page(w, http.StatusNotFound, "message.html", pageData{Title: "Link not valid", Error: "This claim link is not valid, or the key was claimed already."})
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	normalized, _ := access.NormalizeEmail(email)
	link := s.cfg.SiteURL + "/confirm?token=" + token
	body := fmt.Sprintf("Confirm this address to move your go-textanalysis trial key to the Free plan (%d requests a month). The key stays the same.\n\n    %s\n\nThe link works for 48 hours. If you did not ask for this, ignore this message.\n", access.DefaultFreeAllowance, link)
	if err := s.cfg.Mail.Send(r.Context(), mail.Message{To: normalized, Subject: "Confirm your e-mail address", Body: body}); err != nil {
		s.log.Error("send confirm mail", "err", err)
		s.page(w, http.StatusBadGateway, "message.html", pageData{Title: "Claim", Error: "The confirmation e-mail could not be sent; please try again later."})
		return
	}
	s.page(w, http.StatusOK, "sent.html", pageData{Title: "Check your inbox", Email: normalized,
		Message: "Click the link in the message we sent to confirm the address; your trial key then moves to the Free plan."})
}

func (s *Site) confirm(w http.ResponseWriter, r *http.Request) {
	a, err := s.cfg.Gate.ConfirmClaim(r.Context(), r.URL.Query().Get("token"))
	if errors.Is(err, access.ErrBadToken) {
		s.page(w, http.StatusNotFound, "message.html", pageData{Title: "Link not valid", Error: "This confirmation link is not valid or has expired."})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.page(w, http.StatusOK, "message.html", pageData{Title: "Key claimed", Email: a.Email,
		Message: "Your trial key now belongs to " + a.Email + " on the " + planName(a.Plan) + " plan. The key is unchanged: nothing you built needs to change."})
}

func planName(p store.Plan) string {
	switch p {
	case store.PlanPayg:
		return "Pay as you go"
	case store.PlanFree:
		return "Free"
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

// clientAddr is the address the per-address trial limit counts: the
// socket's peer, or the right-most X-Forwarded-For hop that is not a
// trusted proxy when the peer is one.
func (s *Site) clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	if !s.trusted(peer) {
		return peer.Unmap().String()
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		for _, h := range strings.Split(v, ",") {
			hops = append(hops, strings.TrimSpace(h))
		}
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(hops[i])
		if err != nil {
			break
		}
		if !s.trusted(a) {
			return a.Unmap().String()
		}
	}
	return peer.Unmap().String()
}

func (s *Site) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
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
