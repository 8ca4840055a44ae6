// Package modelfile writes and reads the binary files in which the
// analysis packages embed their trained models (ner's tagger and
// relabeler, qa's scorer and reranker, sentiment's hybrid): a gzip
// stream of little-endian numbers, uvarints and length-prefixed strings,
// with weights quantised to int16 under one scale per table.
//
// Writer and Reader keep the first error and turn every later call into
// a no-op, so that an encoder or decoder is a plain list of fields with
// one error check at the end, and a truncated or corrupt file gives an
// error, never a panic or a huge allocation: every length a Reader takes
// from the file is checked against a bound the caller gives.
package modelfile
