// Package wordnet reads the database files of Princeton WordNet 3.0
// (wndb(5): data.*, index.*), for the programs that derive tables from
// them (ner/cmd/mkgaz, qa/cmd/genlemmas). Nothing at run time reads
// WordNet: those programs' outputs are committed and embedded.
package wordnet
