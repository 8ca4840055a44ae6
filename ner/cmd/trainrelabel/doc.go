// Command trainrelabel trains the ner package's second stage (package
// ner/internal/relabel) from the out-of-fold entities that trainner -oof
// writes: each fold's tagger was trained without that fold's documents, so
// the relabeler learns from the tagger's mistakes on unseen text, as at run
// time. The number of epochs and the two margins (how much another label,
// or "no entity", must beat the tagger's label by) are chosen by
// cross-validation over the same folds, for the best entity F1 on the
// training data; no development data is read.
//
// The embedded relabeler of the ontonotes model was built with (DATA is the
// shared data directory, shared/data/ner):
//
//	go run ./ner/cmd/trainner -labels ontonotes -train DATA/ontonotes/train.jsonl.gz \
//	    -clusters-from ner/models/ontonotes.bin -epochs 10 -extra2 -extra3 -extra4 \
//	    -case-aug 0.2 -gaz-lower -seeds 4 -oof /tmp/oof.gob.gz -oof-folds 4
//	go run ./ner/cmd/trainrelabel -oof /tmp/oof.gob.gz -epochs 2,3 -prune 0.1 \
//	    -out ner/models/ontonotes-relabel.bin
package main
