// Package developer serves the developer site:
//
//   - sign-up: a page takes an e-mail address and mails a confirmation
//     link; the link's page shows a button, and only its POST makes the
//     account (Free plan) and a key, shown once; the mail that follows
//     names only the key's prefix;
//   - the account page, reached by an e-mailed sign-in link: the account's
//     keys (prefix, name, created, last used), revoke, a new key up to
//     access.Config.MaxLiveKeys, the month's usage, and a request for Pay
//     as you go or a higher cap, recorded and mailed to the operator;
//   - the trial endpoint for agents (POST /trial: a key with no account, a
//     few per client address a day) and the claim page that moves a trial
//     key into an account by confirming an e-mail address;
//   - the OpenAPI document.
//
// Every link acts once and only on POST (a mail scanner's GET changes
// nothing). Mails are capped per client address (IPv6 by /64) and per
// e-mail address in canonical form; past a cap the site answers 429 and
// sends nothing. Every form is protected against cross-origin posts.
//
// [New] returns an http.Handler to mount under the site's path (by default
// /developer); it is safe for concurrent use.
package developer
