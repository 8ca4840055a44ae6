// Package lr holds the learned sentiment model of package sentiment: the
// text features (hashed words and bigrams with negation marking, for the
// whole text, the part after its last contrast word and each clause, plus
// VADER's scores), the model file format and the embedded weights.
//
// The weights are written by sentiment/internal/train from the training
// sets in ../shared/data/sentiment/train/. Every function is safe for
// concurrent use; a [Model] is immutable once loaded.
package lr
