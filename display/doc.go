// Package display renders labelled spans of a text as HTML in the two
// styles of spaCy's displaCy: "ent" (inline highlighted entities, each
// followed by its label) and "span" (underlined spans; overlapping spans are
// stacked below the line, each labelled where it starts).
//
// The output is an HTML fragment with inline styles only (no external CSS,
// fonts or scripts), so it shows as it is in a browser, in an e-mail or inside
// another page. Every piece of the text and every label is HTML-escaped.
// Colours are displaCy's for the 18 OntoNotes labels; other labels are grey.
//
// Spans count Unicode code points of the text, end exclusive, as the ner
// package and spaCy do. [ParseSpans] reads the two wire forms of the API's spans
// parameter (a JSON array or the compact "start:end:LABEL,..." form).
//
// Rendering costs time linear in the text and the spans (times the overlap
// depth in the span format). [Render] streams its output to the writer and
// refuses, before writing, a fragment larger than Options.MaxOutputBytes
// (16 MiB by default), so that a few long overlapping spans cannot turn a
// small input into a huge answer. All functions are safe for concurrent use.
//
//	spans, err := display.ParseSpans("0:3:PERSON,13:19:GPE")
//	if err != nil {
//		return err // a *display.SpanError
//	}
//	var b strings.Builder
//	err = display.Render(&b, "Ada lives in London.", spans, display.Options{})
package display
