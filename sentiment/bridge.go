package sentiment

import "github.com/textanalysis/go-textanalysis/sentiment/internal/lr"

func init() {
	lr.VaderOf = hybridVaderFeatures
	classes := make(map[string]string, len(hybridSupplement))
	for w, v := range hybridSupplement {
		classes[w] = "lex:pos"
		if v < 0 {
			classes[w] = "lex:neg"
		}
	}
	lr.SetWordClass(classes)
	lr.SetEmojiNames(loadVADER().emojis)
	lr.SetSpelling(loadHybridVADER().spell.correct)
}

// hybridVaderFeatures are the VADER features the hybrid model reads for a
// whole text: VADER's scores with the hybrid's lexicon and the mean
// compound of the text's sentences, as [Analyzer.Analyze] computes them.
func hybridVaderFeatures(text string) lr.Vader {
	v := &vader{t: loadHybridVADER()}
	spans := splitSentences(text)
	sents := make([]scores, len(spans))
	var whole scores
	if len(spans) > 1 {
		whole = v.polaritySentences(text, spans, sents)
	} else {
		whole = v.polarity(text)
		if len(spans) == 1 {
			sents[0] = whole
		}
	}
	mean := 0.0
	for _, s := range sents {
		mean += s.compound
	}
	if len(sents) > 0 {
		mean /= float64(len(sents))
	}
	return lr.Vader{Compound: whole.compound, Pos: whole.pos, Neu: whole.neu, Neg: whole.neg, MeanSentence: mean}
}
