// Command trainner trains the ner package's models from the shared NER data
// (JSON-lines sentences with code-point entity spans) and writes the compact
// model files that the ner package embeds.
//
// The embedded models were built with (DATA is the shared data directory,
// shared/data/ner; each run takes a few minutes on one core, -seeds 4 about
// 15 CPU-minutes for ontonotes):
//
//	CL=DATA/ontonotes/train.jsonl.gz,DATA/conll2003/train.jsonl.gz,DATA/wnut17/train.jsonl.gz
//	QA=DATA/../qa/train
//	CL2=$CL,$QA/squadlike-wiki.json.gz,$QA/qed.json.gz,$QA/qamr.json.gz,DATA/../sentiment/train/imdb.jsonl.gz
//	go run ./ner/cmd/trainner -labels ontonotes -train DATA/ontonotes/train.jsonl.gz \
//	    -dev DATA/ontonotes/dev.jsonl.gz -cluster-data $CL2 -cluster-evidence 11 -cluster-case \
//	    -epochs 10 -extra2 -extra3 -extra4 -case-aug 0.2 -gaz-lower -seeds 4 \
//	    -out ner/models/ontonotes.bin
//	go run ./ner/cmd/trainner -labels conll -train DATA/conll2003/train.jsonl.gz \
//	    -dev DATA/conll2003/dev.jsonl.gz -cluster-data $CL2 -epochs 10 -bilou=false -case-aug 0.2 \
//	    -repeat-train 3 -also DATA/ontonotes/train.jsonl.gz -extra2 -extra3 \
//	    -hyphen-misc -strip-edges -seeds 4 -out ner/models/conll.bin
//
// With -oof FILE it instead trains -oof-folds taggers (with the same
// flags), each without one fold of the training documents, and writes the
// entities each finds in its own fold, with the gold labels, for
// ner/cmd/trainrelabel, which trains the ontonotes model's second stage;
// -clusters-from takes the word clusters of a model file, so that these
// taggers read the clusters of the model the second stage will follow.
//
// With -crf the same features are trained as a linear-chain CRF
// (conditional log-likelihood with L2, averaged SGD; -crf-rate, -crf-l2,
// -crf-min-marginal, and -crf-prune for the pruning unless -prune is
// given) instead of by the averaged perceptron; measured, not shipped (see
// the ner README's rounds).
//
// The external gazetteer (-ext-gaz) is written by ner/cmd/mkgaz from WordNet
// and tzdata; it holds nothing from the training or development data. The
// tagger with it was measured and not shipped; the second stage
// (ner/cmd/trainrelabel -ext-gaz) keeps it.
//
// Only the training portions are learned from (and, for -cluster-data, also
// the paragraphs of SQuAD-format files, without their questions); -dev only reports precision,
// recall and F1 per label. Word clusters are computed from the training
// texts alone (no labels), by spherical k-means over neighbour counts.
package main
