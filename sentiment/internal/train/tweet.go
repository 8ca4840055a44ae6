package main

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"github.com/textanalysis/go-textanalysis/sentiment/internal/lr"
)

// tweetConfig are the settings of the tweet heads (see trainTweet).
type tweetConfig struct {
	neuBits, domBits uint
	s140             float64 // sample weight of the Sentiment140 tweets, as polar, in Neu's training
	s140Words        bool    // only those in which VADER finds a sentiment word
	kappa            float64
	band             float64 // negative: chosen with the tau
	tol              float64
	epochs           int
	eta, l2          float64
	seed             uint64
}

// trainTweet trains m.Dom and m.Neu and chooses m.TauTweet:
//
//   - Dom (tweet or not) on half of the SemEval tweets and a third of the
//     Sentiment140 ones against the first four sentences of the Amazon
//     reviews and of a third of the IMDB reviews and the SST sentences,
//     the two sides weighted alike;
//   - Neu (polar or neutral) on the SemEval tweets (neutral gold) and half
//     of the Sentiment140 tweets as polar (weight c.s140): SemEval's
//     neutral tweets are mostly news and announcements, and without
//     ordinary personal tweets on the polar side Neu calls those neutral
//     too (they are polar to their readers: the VADER tweets);
//   - TauTweet on the tenth of both that trains nothing (heldOut): the
//     best mean of the two figures the evaluation judges on tweets, 3-class
//     macro-F1 on the SemEval tweets and label accuracy on the polar
//     Sentiment140 tweets, and among the taus within c.tol of it the one
//     nearest the middle of their range.
//
// Both heads read the word hashes and lr.TweetCues, Neu lr.CharGrams too,
// and VADER's scores as dense features.
func trainTweet(m *lr.Model, data string, c tweetConfig) {
	semeval := mustRead(filepath.Join(data, "semeval-tweets.jsonl.gz"))
	s140 := mustRead(filepath.Join(data, "sentiment140.jsonl.gz"))
	var neu, dom, hoSem, hoS140 []example
	var neuR, domR []record
	for i, r := range semeval {
		if heldOut(r.ID) {
			r.Kind = "ho-semeval"
			neuR = append(neuR, r)
			continue
		}
		r.Kind = "neu"
		neuR = append(neuR, r)
		if i%2 == 0 {
			domR = append(domR, record{Text: r.Text, Label2: "pos"})
		}
	}
	for i, r := range s140 {
		switch {
		case heldOut(r.ID):
			r.Kind = "ho-s140"
			r.Label3 = r.Label2
			neuR = append(neuR, r)
		case i%2 == 0:
			r.Kind = "s140"
			neuR = append(neuR, r)
		}
		if i%3 == 0 && !heldOut(r.ID) {
			domR = append(domR, record{Text: r.Text, Label2: "pos"})
		}
	}
	nTweets := len(domR)
	for _, f := range []string{"imdb.jsonl.gz", "amazon-mds.jsonl.gz"} {
		for k, r := range mustRead(filepath.Join(data, f)) {
			if f == "imdb.jsonl.gz" && k%3 != 0 {
				continue
			}
			for j, s := range firstSentences(r.Text, 4) {
				domR = append(domR, record{Text: s, Kind: fmt.Sprint(j)})
			}
		}
	}
	sstFrom := len(domR)
	for _, r := range mustRead(filepath.Join(data, "sst-phrases.jsonl.gz")) {
		if r.Kind == "sentence" {
			domR = append(domR, record{Text: r.Text})
		}
	}
	neuX := featurizeTweet(neuR, 0, nil)
	domX := featurizeTweet(domR, sstFrom, nil)
	var hoR []record
	for i, r := range neuR {
		e := neuX[i]
		switch r.Kind {
		case "ho-semeval", "ho-s140":
			hoR = append(hoR, r)
		case "neu":
			e.t.Hashes = e.tw
			e.y, e.w = b2f(r.Label3 != "neu"), 1
			neu = append(neu, e)
		case "s140":
			e.t.Hashes = e.tw
			e.y, e.w = 1, c.s140
			if c.s140 > 0 && (!c.s140Words || math.Abs(e.t.Dense[0]) >= 0.05) {
				neu = append(neu, e)
			}
		}
	}
	wOther := float64(nTweets) / float64(len(domR)-nTweets)
	for i, r := range domR {
		e := domX[i]
		e.t.Hashes = e.twDom
		e.y, e.w = b2f(r.Label2 == "pos"), 1
		if e.y == 0 {
			e.w = wOther
		}
		dom = append(dom, e)
	}
	log.Printf("tweet heads: Neu on %d, Dom on %d (%d tweets)", len(neu), len(dom), nTweets)
	m.Dom, m.Neu = lr.NewHead(c.domBits), lr.NewHead(c.neuBits)
	trainNB(&m.Dom, dom, nil, c.epochs, c.eta, c.l2, true, 1, rand.New(rand.NewPCG(c.seed, 21)))
	trainNB(&m.Neu, neu, nil, c.epochs, c.eta, c.l2, true, 1, rand.New(rand.NewPCG(c.seed, 22)))
	m.KappaTweet = c.kappa
	for i, e := range featurizeTweet(hoR, 0, m) {
		e.label3 = hoR[i].Label3
		switch {
		case hoR[i].Kind == "ho-semeval":
			hoSem = append(hoSem, e)
		case !c.s140Words || math.Abs(e.t.Dense[0]) >= 0.05:
			hoS140 = append(hoS140, e)
		}
	}
	log.Printf("held out: %d SemEval, %d Sentiment140 tweets", len(hoSem), len(hoS140))
	m.TauTweet, m.BandTweet = chooseTauTweet(m, hoSem, hoS140, c.tol, c.band)
}

// chooseTauTweet is the TauTweet of trainTweet.
func chooseTauTweet(m *lr.Model, sem, s140 []example, tol, band float64) (float64, float64) {
	score := func(exs []example) []lr.Scores {
		out := make([]lr.Scores, len(exs))
		for i := range exs {
			out[i] = m.Predict(&exs[i].t)
		}
		return out
	}
	semS, s140S := score(sem), score(s140)
	label := func(s lr.Scores, e *example, tau, band float64) string {
		if s.Tweet {
			s.Neutral = lr.IsNeutral(s.PPos, s.PPolar, e.t.Dense[0], tau, band, m.KappaTweet)
		}
		switch {
		case s.Neutral:
			return "neu"
		case s.PPos >= 0.5:
			return "pos"
		}
		return "neg"
	}
	type point struct{ tau, band, f, f1, acc float64 }
	var pts []point
	best := -1.0
	nTweet := 0
	for _, s := range semS {
		if s.Tweet {
			nTweet++
		}
	}
	bands := []float64{band}
	if band < 0 {
		bands = nil
		for b := 0; b <= 100; b += 5 {
			bands = append(bands, float64(b)/100)
		}
	}
	for _, bnd := range bands {
		for t := 5; t <= 80; t++ {
			tau := float64(t) / 100
			var p3 []string
			for i := range sem {
				p3 = append(p3, label(semS[i], &sem[i], tau, bnd))
			}
			ok := 0
			for i := range s140 {
				if label(s140S[i], &s140[i], tau, bnd) == s140[i].label3 {
					ok++
				}
			}
			p := point{tau: tau, band: bnd, f1: macroF1Of(sem, p3), acc: float64(ok) / float64(len(s140))}
			p.f = (p.f1 + p.acc) / 2
			pts = append(pts, p)
			best = max(best, p.f)
		}
	}
	// the band: the best point's; then the tau nearest the middle of the
	// taus within tol at that band
	chosen := point{f: -1}
	for _, p := range pts {
		if p.f > chosen.f {
			chosen = p
		}
	}
	for _, bnd := range bands {
		bb := -1.0
		for _, p := range pts {
			if p.band == bnd {
				bb = max(bb, p.f)
			}
		}
		log.Printf("  band %.2f: best %.4f", bnd, bb)
	}
	lo, hi := 2.0, -1.0
	for _, p := range pts {
		if p.f >= best-tol && p.band == chosen.band {
			lo, hi = min(lo, p.tau), max(hi, p.tau)
		}
	}
	mid := (lo + hi) / 2
	for _, p := range pts {
		if p.f >= best-tol && p.band == chosen.band && math.Abs(p.tau-mid) < math.Abs(chosen.tau-mid)-1e-9 {
			chosen = p
		}
	}
	log.Printf("tweets: %d of %d held-out SemEval tweets judged as tweets; best mean %.4f, taus within %.3f: %.2f–%.2f", nTweet, len(sem), best, tol, lo, hi)
	for _, p := range pts {
		if p.band == chosen.band && (int(math.Round(p.tau*100))%5 == 0 || p.tau == chosen.tau) {
			log.Printf("  tau %.2f: %.4f (SemEval macro-F1 %.3f, Sentiment140 accuracy %.3f)", p.tau, p.f, p.f1, p.acc)
		}
	}
	log.Printf("TauTweet %.2f BandTweet %.2f", chosen.tau, chosen.band)
	return chosen.tau, chosen.band
}

// macroF1Of is the 3-class macro-F1 of the predictions pred of exs.
func macroF1Of(exs []example, pred []string) float64 {
	tp, fp, fn := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for i := range exs {
		p, g := pred[i], exs[i].label3
		if p == g {
			tp[g]++
		} else {
			fp[p]++
			fn[g]++
		}
	}
	f := 0.0
	for _, c := range []string{"neg", "neu", "pos"} {
		if tp[c] > 0 {
			f += 2 * tp[c] / (2*tp[c] + fp[c] + fn[c])
		}
	}
	return f / 3
}

// featurizeTweet featurises recs as package sentiment does with m, a
// model with tweet heads; with m nil, it sets each example's tw and twDom,
// the features Neu and Dom read in one list, for their training. The
// records from tokFrom on are tokenised text (the SST sentences; 0: none).
func featurizeTweet(recs []record, tokFrom int, m *lr.Model) []example {
	tokenised := func(i int) bool { return tokFrom > 0 && i >= tokFrom }
	return featurizeEach(recs, tokenised, func(e *example, text string, toks []string) {
		if m != nil {
			m.PrepareTweet(&e.t, text, toks)
			return
		}
		// the trainer reads Hashes alone: each head's features go
		// there in one list
		e.twDom = lr.TweetCues(append([]uint32(nil), e.t.Hashes...), text, toks, e.t.Dense[0])
		e.tw = lr.CharGrams(append([]uint32(nil), e.twDom...), toks)
	})
}

// firstSentences returns up to n sentences of text longer than 10 bytes,
// split after ".", "!" or "?" followed by a space or a line break.
func firstSentences(text string, n int) []string {
	var out []string
	start := 0
	for i := 0; i < len(text) && len(out) < n; i++ {
		if (text[i] == '.' || text[i] == '!' || text[i] == '?' || text[i] == '\n') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n') {
			if s := strings.TrimSpace(text[start : i+1]); len(s) > 10 {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	return out
}

func mustRead(path string) []record {
	recs, err := readJSONL(path)
	if err != nil {
		log.Fatal(err)
	}
	return recs
}
