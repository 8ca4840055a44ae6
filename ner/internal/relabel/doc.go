// Package relabel is the named-entity recognizer's second stage: a
// multiclass linear model that reads an entity the tagger found (its words,
// their shapes and word clusters, two words of context on each side, the
// gazetteer's labels for the phrase, the external gazetteer's labels for
// it (an [Ext], kept in the model file), and the tagging's score with the
// entity under each label and as no entity) and may give it another label
// or drop it. It is trained by ner/cmd/trainrelabel on the tagger's
// out-of-fold output over the training data (ner/cmd/trainner -oof), so
// that it learns from the kind of mistakes the tagger makes on text it has
// not seen.
//
// A Model is read-only after Read and safe for concurrent use; its scratch
// space ([Features], [Candidate]) is per goroutine. Relabeling an entity
// costs a few microseconds.
package relabel
