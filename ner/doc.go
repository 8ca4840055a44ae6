// Package ner finds named entities — people, organisations, places, dates,
// amounts and the other OntoNotes 5 types — in English text, with exact
// code-point offsets.
//
// The recognizer is a learned sequence labeller: an averaged structured
// perceptron over word, shape, affix, window and gazetteer features, decoded
// with Viterbi under BILOU or BIO constraints, with its own fast tokenizer;
// each model then rereads each entity found with a second-stage
// classifier that may change its label or drop it. The
// weights are trained from public research corpora by the program in
// ner/cmd/trainner and embedded in the binary; [Models] lists each model,
// the data it was trained on and the labels it produces.
//
// Build one [Recognizer] per model and process and share it: [New] loads a
// model (tens of milliseconds, once per model and process);
// [Recognizer.Recognize] is cheap, deterministic and safe for concurrent use.
//
//	r, err := ner.New(ner.Options{})
//	if err != nil {
//		return err
//	}
//	ents, err := r.Recognize(ctx, "Ada Lovelace was born in London in 1815.")
//	for _, e := range ents {
//		fmt.Println(e.Label, e.Text, e.Start, e.End)
//	}
package ner
