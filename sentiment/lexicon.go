package sentiment

import (
	"sync"
	"unicode/utf8"

	"github.com/jonreiter/govader"
)

// VADER's constants, as in the reference implementation.
const (
	bIncr   = 0.293  // booster word increment
	bDecr   = -0.293 // dampener word decrement
	cIncr   = 0.733  // ALL CAPS emphasis
	nScalar = -0.74  // negation
)

// Word flags of a lexicon table entry.
const (
	flagLex     uint8 = 1 << iota // in the sentiment lexicon
	flagBooster                   // in VADER's booster/dampener dictionary
	flagNegate                    // in VADER's negation list
	flagIdiom                     // part of a multi-word special case or booster
)

// wordInfo is what the tables know about one lower-cased token.
type wordInfo struct {
	val   float64 // lexicon valence (flagLex)
	boost float64 // booster increment (flagBooster)
	flags uint8
}

// vaderNegate is the reference's NEGATE list.
var vaderNegate = []string{
	"aint", "arent", "cannot", "cant", "couldnt", "darent", "didnt", "doesnt",
	"ain't", "aren't", "can't", "couldn't", "daren't", "didn't", "doesn't",
	"dont", "hadnt", "hasnt", "havent", "isnt", "mightnt", "mustnt", "neither",
	"don't", "hadn't", "hasn't", "haven't", "isn't", "mightn't", "mustn't",
	"neednt", "needn't", "never", "none", "nope", "nor", "not", "nothing", "nowhere",
	"oughtnt", "shant", "shouldnt", "uhuh", "wasnt", "werent",
	"oughtn't", "shan't", "shouldn't", "uh-uh", "wasn't", "weren't",
	"without", "wont", "wouldnt", "won't", "wouldn't", "rarely", "seldom", "despite",
}

// vaderBoosters is the reference's BOOSTER_DICT (single-word entries; the
// multi-word ones are checked in specialIdioms).
var vaderBoosters = map[string]float64{
	"absolutely": bIncr, "amazingly": bIncr, "awfully": bIncr,
	"completely": bIncr, "considerable": bIncr, "considerably": bIncr,
	"decidedly": bIncr, "deeply": bIncr, "effing": bIncr, "enormous": bIncr, "enormously": bIncr,
	"entirely": bIncr, "especially": bIncr, "exceptional": bIncr, "exceptionally": bIncr,
	"extreme": bIncr, "extremely": bIncr,
	"fabulously": bIncr, "flipping": bIncr, "flippin": bIncr, "frackin": bIncr, "fracking": bIncr,
	"fricking": bIncr, "frickin": bIncr, "frigging": bIncr, "friggin": bIncr, "fully": bIncr,
	"fuckin": bIncr, "fucking": bIncr, "fuggin": bIncr, "fugging": bIncr,
	"greatly": bIncr, "hella": bIncr, "highly": bIncr, "hugely": bIncr,
	"incredible": bIncr, "incredibly": bIncr, "intensely": bIncr,
	"major": bIncr, "majorly": bIncr, "more": bIncr, "most": bIncr, "particularly": bIncr,
	"purely": bIncr, "quite": bIncr, "really": bIncr, "remarkably": bIncr,
	"so": bIncr, "substantially": bIncr,
	"thoroughly": bIncr, "total": bIncr, "totally": bIncr, "tremendous": bIncr, "tremendously": bIncr,
	"uber": bIncr, "unbelievably": bIncr, "unusually": bIncr, "utter": bIncr, "utterly": bIncr,
	"very":   bIncr,
	"almost": bDecr, "barely": bDecr, "hardly": bDecr,
	"kinda": bDecr, "kindof": bDecr, "kind-of": bDecr,
	"less": bDecr, "little": bDecr, "marginal": bDecr, "marginally": bDecr,
	"occasional": bDecr, "occasionally": bDecr, "partly": bDecr,
	"scarce": bDecr, "scarcely": bDecr, "slight": bDecr, "slightly": bDecr, "somewhat": bDecr,
	"sorta": bDecr, "sortof": bDecr, "sort-of": bDecr,
}

// vaderMissing are the lexicon entries of the reference that the govader
// module's copy lacks.
var vaderMissing = map[string]float64{"heart": 3.2, "hearts": 3.3}

// vaderTables holds the lexicon in the form the scorer reads.
type vaderTables struct {
	words  map[string]wordInfo
	emojis map[rune]string // single code point emoji → description
}

// loadVADER builds the tables once per process.
var loadVADER = sync.OnceValue(func() *vaderTables {
	g := govader.NewSentimentIntensityAnalyzer()
	t := &vaderTables{
		words:  make(map[string]wordInfo, len(g.Lexicon)+len(vaderBoosters)+len(vaderNegate)+2),
		emojis: make(map[rune]string, len(g.EmojiDict)),
	}
	for w, v := range g.Lexicon {
		t.words[w] = wordInfo{val: v, flags: flagLex}
	}
	for w, v := range vaderMissing {
		t.words[w] = wordInfo{val: v, flags: flagLex}
	}
	for w, b := range vaderBoosters {
		wi := t.words[w]
		wi.boost = b
		wi.flags |= flagBooster
		t.words[w] = wi
	}
	for _, w := range vaderNegate {
		wi := t.words[w]
		wi.flags |= flagNegate
		t.words[w] = wi
	}
	// Marking idiom words lets specialIdioms skip its map lookups for the
	// word sequences that cannot match; the mark alone changes no score.
	markIdiom := func(w string) {
		wi := t.words[w]
		wi.flags |= flagIdiom
		t.words[w] = wi
	}
	for k := range specialCases2 {
		markIdiom(k[0])
		markIdiom(k[1])
	}
	for k := range specialCases3 {
		markIdiom(k[0])
		markIdiom(k[1])
		markIdiom(k[2])
	}
	for k := range boosterBigrams {
		markIdiom(k[0])
		markIdiom(k[1])
	}
	// The reference looks emoji up one code point at a time, so entries of
	// several code points never match.
	for e, d := range g.EmojiDict {
		r, n := utf8.DecodeRuneInString(e)
		if n == len(e) && r != utf8.RuneError {
			t.emojis[r] = d
		}
	}
	return t
})
