// Package core is the reader behind package qa: passage retrieval (BM25),
// candidate spans from part-of-speech tags, the hashed features of the span
// ranker and the model file format, shared by the qa package and its
// training program (qa/cmd/trainqa), which must compute features exactly
// alike.
//
// Its functions are pure and safe for concurrent use once a model is loaded.
package core
