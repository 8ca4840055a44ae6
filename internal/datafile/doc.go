// Package datafile opens the data files the training programs read, which
// are plain or gzip-compressed by their name (".gz"), so that each trainer
// does not carry its own copy of the same few lines.
package datafile
