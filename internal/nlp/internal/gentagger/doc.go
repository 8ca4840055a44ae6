// Command gentagger writes internal/nlp's tagger model, tagger.bin.gz, from
// the averaged-perceptron weights embedded in prose (jdkato/prose/v2, MIT,
// Joseph Kato; weights from textblob-aptagger, Matthew Honnibal). Run it with
// `go generate ./internal/nlp`; the output depends only on prose's version,
// so two runs write the same bytes.
//
// The file is gzip over a simple binary layout (uvarint lengths and counts):
// the magic "nlptag1\n"; the classes in prose's classes.gob order; the tag
// dictionary (word, class index) sorted by word; the features sorted by
// name, each with its (class index, weight) pairs in class order. prose's
// weights are averages rounded to three decimals; each is stored as the
// zigzag varint of weight*1000, and the generator checks that n/1000
// gives back exactly the float64 prose holds, so the tagger sums the very
// same numbers.
package main
