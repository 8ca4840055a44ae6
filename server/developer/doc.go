// Package developer serves the developer site: a page where a person enters
// an e-mail address and gets a Free key at once (also e-mailed), the trial
// endpoint for agents (POST /trial: a key with no account, a few per client
// address a day), the claim page that moves a trial key to the Free plan by
// confirming an e-mail address, and the OpenAPI document.
//
// [New] returns an http.Handler to mount under the site's path (by default
// /developer); it is safe for concurrent use.
package developer
