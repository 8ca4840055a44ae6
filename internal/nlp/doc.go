// Package nlp wraps the pieces of prose (jdkato/prose/v2) and its punkt
// sentence splitter that several analysis packages share: tokens with
// part-of-speech tags and sentences, each with code-point offsets into the
// text as given.
//
// prose rebuilds its tagger on every NewDocument call unless a model is
// passed in (about 290 ms a call); this package loads the tagger and the
// sentence splitter once per process, on first use, and reuses them. All
// functions are safe for concurrent use.
//
//	for _, tok := range nlp.Tag("Ada Lovelace wrote notes.") {
//		fmt.Println(tok.Text, tok.Tag, tok.Start, tok.End)
//	}
package nlp
