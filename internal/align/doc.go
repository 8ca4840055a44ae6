// Package align converts between byte offsets and Unicode code-point offsets,
// and finds tokens that a tokenizer may have normalised back in the text they
// came from.
//
// It is the one place in the module that turns byte offsets into the
// code-point offsets every public API and wire shape uses. Its functions are
// pure and safe for concurrent use.
//
//	idx := align.NewIndex(text)
//	start, end := idx.Runes(byteStart), idx.Runes(byteEnd)
package align
