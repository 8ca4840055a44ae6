// Package sentiment scores the sentiment of English text, as a whole and
// sentence by sentence.
//
// Two models are offered (see [Models]). [ModelHybrid], the default, is a
// learned model: logistic regressions over hashed words and word pairs
// (with negation marking and naive Bayes feature scaling), one trained on
// every training set and one on movie sentences alone, stacked with
// VADER's scores, the kind of text (tweet, tokenised sentence, long
// review), the part after a "but" and the clause scores, plus a third
// regression that tells polar from neutral text. Its weights (about
// 2.4 MB) are embedded; the program in internal/train rebuilds them from
// the public training sets the project's shared data directory holds:
// Stanford Sentiment Treebank train phrases, IMDB (aclImdb) train reviews,
// SemEval 2013–2016 tweets, 100,000 Sentiment140 tweets and the Amazon
// Multi-Domain Sentiment reviews. It returns the same fields as VADER:
// pos, neu and neg are the model's probabilities, and compound is below
// 0.05 in magnitude exactly when the label is neutral: when the text is
// unlikely to be polar, or its polarity is too weak to call (plain
// statements of fact are neutral). Long texts are scored from
// length-normalised word features and the mean VADER score of their
// sentences, so they do not saturate.
//
// [ModelVADER] is a faithful
// port of VADER (Hutto & Gilbert 2014, the vaderSentiment 3.3.2 Python
// package): for the whole text it returns exactly the scores Python's
// SentimentIntensityAnalyzer.polarity_scores returns, including the
// reference's quirks. Its lexicon comes from the github.com/jonreiter/govader
// module, completed with the two entries that module lacks.
//
// Build one [Analyzer] per process and share it: [New] is the expensive part
// (it builds the lexicon tables and decodes the weights, once per process,
// tens of milliseconds); [Analyzer.Analyze]
// allocates little, is fast (tens of thousands of short texts per second
// per core) and is safe for concurrent use.
//
//	an, err := sentiment.New(sentiment.Options{Model: sentiment.ModelVADER})
//	if err != nil {
//		return err
//	}
//	res, err := an.Analyze(ctx, "The food was great, but the service was slow.")
//	if err != nil {
//		return err
//	}
//	fmt.Println(res.Label, res.Compound)
package sentiment
