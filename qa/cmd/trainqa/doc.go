// Command trainqa trains the span scorer of package qa on SQuAD-format
// data and writes the model that package qa embeds.
//
//	go run ./qa/cmd/trainqa -train /path/to/squadlike-wiki.json.gz \
//	    -dev /path/to/dev-half.json -out qa/model.bin.gz
//
// The dev file, when given, is only scored after each epoch (exact match
// and F1 of the top candidate); it is never trained on. The embedded model
// was made with
//
//	go run ./qa/cmd/trainqa -train ../shared/data/qa/train/squadlike-wiki.json.gz \
//	    -dev ../shared/data/qa/squad11/dev-half.json \
//	    -epochs 5 -lr 0.05 -l2 0 -prune 0.05 -out qa/model.bin.gz
//
// (about two minutes on two cores; the run is deterministic). The
// model has about 774,000 non-zero weights and 11,000 idf entries: 1.9 MB
// gzipped, embedded in package qa; decoding it takes about 0.2 s. The
// WordNet tables it relies on are written by qa/cmd/genlemmas. Adding
// the other files of the training directory (SQuAD-shifts Reddit and
// Amazon, QED, QAMR) did not help on dev (EM -0.2 to +0.1). To see why
// the model answers as it does:
//
//	go run ./qa/cmd/trainqa -out qa/model.bin.gz -explain "Who designed it?" -context page.txt
//
// and to break its dev misses down by question type into no candidate,
// wrong sentence and wrong span, with examples of the why and how misses:
//
//	go run ./qa/cmd/trainqa -out qa/model.bin.gz -dev ../shared/data/qa/squad11/dev-half.json -analyze 5
package main
