// Command trainqa trains the span scorer of package qa on SQuAD-format
// data and writes the model that package qa embeds.
//
//	go run ./qa/cmd/trainqa -train /path/to/squadlike-wiki.json.gz \
//	    -dev /path/to/dev-half.json -out qa/model.bin.gz
//
// The dev file, when given, is only scored after each epoch (exact match
// and F1 of the top candidate); it is never trained on. To choose settings
// without it, -holdout N keeps every Nth training article out of training
// and scores it the same way. The embedded model was made with
//
//	go run ./qa/cmd/trainqa -train ../shared/data/qa/train/squadlike-wiki.json.gz \
//	    -dev ../shared/data/qa/squad11/dev-half.json \
//	    -epochs 5 -lr 0.03 -l2 0 -prune 0.05 -mincount 3 -average=false \
//	    -out qa/model.bin.gz
//
// (about two minutes on one core; the run is deterministic). The settings
// were chosen on the held-out articles of -holdout 10: the last weights
// of a smaller step (-lr 0.03) beat the average over all updates (EM 43.4
// against 41.5; dev +0.7), which drags the poor weights of the first epoch
// along; -lr 0.02 and 0.05 and 8 epochs do no better. The model has about
// 438,000 non-zero weights (features seen in fewer than three training
// questions get none: as good on held-out articles and dev as keeping
// them all, and half the size) and 11,000 idf entries: 1.1 MB
// gzipped, embedded in package qa.
//
// The named entities of package ner (default model, run once per context)
// are candidates of their own kind and features of every candidate: the
// label of the entity the span is, lies in, holds or crosses, against the
// wh-word, the question's head, the answer type asked for and the
// sentence's rank. With the same command, held-out articles (EM/F1, last
// weights after pruning): -holdout 10 43.41/54.72 -> 44.31/55.48, -holdout
// 5 42.31/53.98 -> 44.22/55.28; the features alone, without the entity
// candidates, gave 44.31/55.31 and 43.73/54.91 (the candidates raise the
// ceiling of held-out articles from 82.2 to 83.8% EM). Dev half through
// the CLI: 47.09/56.69 -> 48.46/57.64 (who 55.9 -> 62.1 EM, when 70.6 ->
// 73.1, where 46.8 -> 49.8, how much 53.1 -> 55.6; with the ner models of
// the same release). The recogniser roughly
// halves the speed on new text (dev half through the CLI, same machine and
// load: about 1,900 -> 1,100 questions/s; BenchmarkAnswer on one paragraph
// 0.38 -> 0.89 ms; cached contexts cost the same). Not kept: reading the
// candidate's answer type (see CandType) from its entity label when its
// shape does not tell (-holdout 10 +0.15 EM, -holdout 5 -0.1); the
// entity label crossed with the word before the span and the wh-word
// (+0.5, -0.2) or with the preposition before the wh-word (+0.15, 0.0). The WordNet tables it relies on are
// written by qa/cmd/genlemmas.
//
// Measured and not kept (held-out articles of -holdout 10, then dev): the
// other files of the training directory (SQuAD-shifts Reddit and Amazon,
// QED, QAMR; EM -0.2 to +0.1); a second loss over the gold sentence's
// candidates only, a span ranker inside the right sentence (-spanloss 0.5:
// held out +0.4, dev -0.1 EM; again with the final settings: +0.15 and
// 0.0); training towards the closest candidates of questions that no
// candidate answers exactly (-partial 0.5: held out -0.9, dev -1.5 EM); a hidden layer of 8 or 16 units over the
// hashed features (16 units overfit, dev EM -1.8; 8 units with a small
// learning rate: +0.2, not worth a larger model and slower answers);
// question terms crossed with the span's WordNet classes (EM -2.5:
// overfits); 2^23 hashed weights instead of 2^21 (+0.1 held out); -mincount
// 6 (held out -0.4, dev +0.4 EM). To see why
// the model answers as it does:
//
//	go run ./qa/cmd/trainqa -out qa/model.bin.gz -explain "Who designed it?" -context page.txt
//
// and to break its dev misses down by question type into no candidate,
// wrong sentence and wrong span, with examples of the why and how misses:
//
//	go run ./qa/cmd/trainqa -out qa/model.bin.gz -dev ../shared/data/qa/squad11/dev-half.json -analyze 5
package main
