// Command trainrelabel trains the ner package's second stage (package
// ner/internal/relabel) from the out-of-fold entities that trainner -oof
// writes: each fold's tagger was trained without that fold's documents, so
// the relabeler learns from the tagger's mistakes on unseen text, as at run
// time. The number of epochs and the two margins (how much another label,
// or "no entity", must beat the tagger's label by) are chosen by
// cross-validation over the same folds, for the best entity F1 on the
// training data; no development data is read.
//
// With -ext-gaz, the external gazetteer (ner/data/external-gazetteer.tsv.gz,
// written by ner/cmd/mkgaz) adds features: the labels, common-word mark and
// primary label the list gives the entity's phrase as written and in lower
// case, the same without a leading "the", and its last word as written
// (and a feature for none found). The list is kept in the model file
// (after the weights; files without it still read) and looked up at run
// time, so the tagger is unchanged.
//
// The embedded relabeler of the ontonotes model was built with (DATA is the
// shared data directory, shared/data/ner):
//
//	go run ./ner/cmd/trainner -labels ontonotes -train DATA/ontonotes/train.jsonl.gz \
//	    -clusters-from ner/models/ontonotes.bin -epochs 10 -extra2 -extra3 -extra4 \
//	    -case-aug 0.2 -gaz-lower -seeds 4 -oof ${TMPDIR:-/tmp}/oof.gob.gz -oof-folds 4
//	go run ./ner/cmd/trainrelabel -oof ${TMPDIR:-/tmp}/oof.gob.gz -epochs 2,3 -prune 0.1 \
//	    -ext-gaz ner/data/external-gazetteer.tsv.gz -out ner/models/ontonotes-relabel.bin
//
// (cross-validated entity F1 over the four training folds: tagger alone
// 84.60, relabeler 84.82 without -ext-gaz and 84.86 with it; sha256 of
// the model 6c7243fa27463aeed2b85310ae3f77c1fa35b90f96ef73de3a5dcea04583f036,
// the same bytes on a second run). The conll model's, from the
// out-of-fold output of its own recipe (ner/README.md, "Rebuilding the
// models"), without -ext-gaz (the list's labels are OntoNotes'):
//
//	go run ./ner/cmd/trainrelabel -oof ${TMPDIR:-/tmp}/oof-conll.gob.gz -epochs 2,3 \
//	    -prune 0.1 -out ner/models/conll-relabel.bin
//
// (training folds: tagger alone 87.84, relabeler 88.11; sha256
// 57281996aa2a2fe0835578d386f71db7376480271d9bcffc0c81018b7006f00e, the
// same bytes on a second run).
package main
