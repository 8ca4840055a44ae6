package server

import (
	"crypto/sha256"
	"encoding/base64"
	htmltemplate "html/template"
	"net/http"
)

// Security headers, on every response (DESIGN.md §8).
//
//   - X-Content-Type-Options: nosniff, so that no browser runs an answer
//     as anything but its declared type.
//   - Content-Security-Policy: defaultPolicy everywhere (API answers, the
//     /ner/display fragments, the developer site): no script, no plugin,
//     no framing; inline styles only, which displaCy's markup needs. The
//     HTML reference (/docs) replaces it with docsPolicy, which allows its
//     one console script by hash and calls to the API itself.
//   - X-Frame-Options: DENY, for browsers without frame-ancestors.
//   - Referrer-Policy: no-referrer, so that a link followed from a page
//     whose URL holds a token (a confirmation link) does not pass it on.
const (
	defaultPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; " +
		"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)

// consoleJS is the docs console's script. Its text is fixed (the sandbox
// key travels in an attribute), so docsPolicy can allow it by its hash
// and no other script can run on the page.
var (
	consoleJS  = htmltemplate.JS(mustReadTemplate("templates/console.js"))
	docsPolicy = "default-src 'none'; script-src '" + scriptHash(string(consoleJS)) + "'; style-src 'unsafe-inline'; " +
		"connect-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)

func mustReadTemplate(name string) string {
	b, err := templateFS.ReadFile(name)
	if err != nil {
		panic("server: embedded " + name + ": " + err.Error())
	}
	return string(b)
}

// scriptHash is the CSP source expression that allows an inline script
// with exactly this text.
func scriptHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// securityHeaders sets the headers above before the handler runs; a
// handler that needs a wider policy (the docs page) replaces it.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", defaultPolicy)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}
