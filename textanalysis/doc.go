// Package textanalysis is the facade over the five analysis packages: one
// [Analyzer] ties together page extraction ([extract]), named entities
// ([ner]), entity display ([display]), sentiment ([sentiment]) and question
// answering ([qa]), and composes them (a URL's main text answers a question;
// recognized entities are drawn as HTML).
//
// Build one Analyzer per process with [New] and share it: New loads the
// default models (a second or so); other models load once, on first use.
// Every method is safe for concurrent use. The package knows nothing of
// HTTP, keys or metering; the server and the CLI are its clients.
//
//	an, err := textanalysis.New(textanalysis.Options{})
//	if err != nil { ... }
//	res, err := an.Entities(ctx, "Ada Lovelace was born in London.", "")
package textanalysis
