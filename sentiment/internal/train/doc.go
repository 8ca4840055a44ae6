// Command train builds the embedded weights of the sentiment "hybrid" model
// from the training sets in ../shared/data/sentiment/train/ (see that
// directory's README: SST train phrases, IMDB train reviews, SemEval
// 2013–2016 tweets, 100,000 Sentiment140 tweets, Amazon multi-domain
// reviews). Nothing else trains it; the dev sets are only read with -dev.
//
//	go run ./sentiment/internal/train -data ../shared/data/sentiment/train \
//	    -out sentiment/internal/lr/weights.bin.gz [-dev ../shared/data/sentiment]
//
// The defaults are the settings of the shipped weights (about 20 s on two
// cores). What it trains, in order:
//
//   - the polarity head (2^20 hashed words and word pairs, negation
//     marked) on every record with a pos/neg label, sample weights SST 4
//     (phrases 2), Amazon 2, IMDB 1, SemEval 1, Sentiment140 0.1. Each
//     feature is scaled by its naive Bayes log-count ratio (Wang & Manning
//     2012), folded into the weights afterwards; each head is AdaGrad with
//     its weights averaged over the last epoch, and four such heads,
//     trained on different shuffles, are averaged;
//   - the tokenised-text head (2^18), the same on the SST records alone;
//   - out-of-fold logits of both (two folds) for the whole text, the part
//     after its last "but"/"however" and each clause, from which the blend
//     with VADER's scores and the kind of text is fitted, on every record
//     but the SST phrases shorter than 16 tokens (the blend must learn how
//     far to trust each part on whole sentences);
//   - the subjectivity head (2^18, with VADER's scores as dense features)
//     on nine tenths of the SemEval tweets, picked by id;
//   - the neutral thresholds on the remaining tenth: P(polar) below Tau,
//     or a polarity too weak to call, |2·P(positive)−1| below Band (the
//     widest band, at most 0.4, within 0.003 of the best 3-class
//     macro-F1).
//
// With -dev it also prints binary accuracy on the dev sets, of the model
// as written (quantised weights), for development only. Training is
// deterministic for a given -seed; the seed moves SST dev accuracy by
// about ±0.4 points, the other sets less.
package main
