// Package mail sends the developer site's e-mails: over SMTP when a server
// is configured ([SMTP]), into files for development ([Dir]), else into
// the log ([Log]), with API keys, link tokens and e-mail addresses
// redacted there, because secrets and addresses never go to a log.
//
// Requests don't send: they enqueue into a durable outbox, a table of the
// store ([Worker.Outbox]), and a [Worker] in each server process claims
// the due mails (one worker per mail at a time, across processes), sends
// them, retries failures with a growing backoff, and gives up after
// [DefaultMaxAttempts] with a log line that holds no address or link. A
// mail leaves the outbox when sent or given up, or when it expires.
//
// All are safe for concurrent use.
//
//	w := &mail.Worker{Queue: st, Sender: smtpSender, Logger: logger}
//	go w.Run(ctx)
//	err := w.Outbox(0).Send(ctx, mail.Message{To: "ada@example.com", Subject: "Your key", Body: "..."})
package mail
