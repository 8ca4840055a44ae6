// Package nlp gives the analysis packages tokens with part-of-speech tags
// and sentences, each with code-point offsets into the text as given.
//
// Tokens come from prose's tokenizer (jdkato/prose/v2) and sentences from
// its punkt splitter (neurosnap/sentences), both as they are. Tags come
// from our own port of prose's averaged-perceptron tagger (prose: MIT,
// Joseph Kato; the tagger and its weights: textblob-aptagger, MIT, Matthew
// Honnibal), with prose's weights, tag dictionary and rules (-, emoticons,
// links, e-mail addresses and @handles, -NONE- and -XXX- tokens), because
// prose's own predict is not deterministic: it sums each tag's score over
// Go maps, in random order, and breaks exact ties in map order, so the same
// text could get different tags from run to run.
//
// Ours is deterministic: it sums each tag's score over the features in the
// order prose's featurize makes them (bias, i suffix, i pref1, i-1 tag,
// i-2 tag, i tag+i-2 tag, i word, i-1 tag+i word, i-1 word, i-1 suffix,
// i-2 word, i+1 word, i+1 suffix, i+2 word), in float64, into an array
// indexed by tag, and breaks an exact tie between the best tags in favour
// of the tag listed first in prose's classes.gob (the order in
// tagger.bin.gz). As in prose, only tags some feature weighs take part.
// The weights are prose's, exactly: each is a multiple of 1/1000, stored
// as an integer and divided back (internal/gentagger checks the round
// trip). tagger.bin.gz (1.1 MB) is written by `go generate ./internal/nlp`.
//
// One deliberate difference: prose's tokenizer hands the same *Token to
// every repeat of a white-space-separated span, so prose reports each
// repeat with the tag its last repeat got ("the 10th and 11th centuries
// ... the 10th century" tags the first 10th as the second). We tag every
// occurrence on its own. On SQuAD v1.1 dev-half (contexts and questions,
// 194,528 tokens) our tags equal prose's on 99.30% of tokens, and on
// 99.99% once prose's sharing is applied to ours; the rest are near ties
// that prose's map order decides (TestAgreesWithProse, with
// -nlp.corpus FILE for a corpus of your own).
//
// The tagger and the sentence splitter are loaded once per process, on
// first use (or by Load). All functions are safe for concurrent use.
//
//	toks, err := nlp.Tag("Ada Lovelace wrote notes.")
//	if err != nil {
//		return err
//	}
//	for _, tok := range toks {
//		fmt.Println(tok.Text, tok.Tag, tok.Start, tok.End)
//	}
package nlp
