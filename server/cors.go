package server

import "net/http"

// CORS for the API paths (DESIGN.md §8): the operations, GET /,
// /openapi.json and the markdown docs may be called from a web page on any
// site. Keys travel in headers, never in cookies, so allowing every origin
// lends a page no credential it does not already hold; answers are sent
// without Access-Control-Allow-Credentials. Preflight requests (OPTIONS
// with Access-Control-Request-Method) are answered 204 with the methods of
// the path and the headers a client sends: X-API-Key, Authorization,
// Content-Type and X-Request-Id. The developer site and /mcp keep their own
// origin checks, and the HTML reference is same-origin.
const (
	corsAllowHeaders  = "X-API-Key, Authorization, Content-Type, X-Request-Id"
	corsExposeHeaders = "X-Gw-Remaining, X-Gw-Reset, Retry-After, X-Request-Id"
	// corsMaxAge lets a browser reuse a preflight answer for a day.
	corsMaxAge = "86400"
)

// cors adds the CORS headers to every answer of next on a request that
// names an Origin, and answers preflight requests itself with methods
// (e.g. "GET, POST") allowed.
func cors(methods string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Origin") == "" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", methods)
			h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
			h.Set("Access-Control-Max-Age", corsMaxAge)
		} else {
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		}
		next.ServeHTTP(w, r)
	})
}
