// Package mail sends the developer site's e-mails: over SMTP when a server
// is configured ([SMTP]), else into the log ([Log]), with API keys
// redacted there, because keys never go to a log.
//
// Both are safe for concurrent use.
//
//	m, err := mail.NewSMTP("smtp://user:pass@smtp.example.com:587?from=api@example.com")
//	err = m.Send(ctx, mail.Message{To: "ada@example.com", Subject: "Your key", Body: "..."})
package mail
