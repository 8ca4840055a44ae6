// Package modelfiletest holds what the tests of every reader of a model
// file written with internal/modelfile check alike: a damaged file gives
// an error, never a panic or a model built from part of the data.
package modelfiletest
