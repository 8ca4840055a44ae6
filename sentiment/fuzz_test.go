package sentiment

import (
	"testing"
)

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"The soup is good.", "NOT BAD!!! but meh??", "Mr. X. Said: «no». 😀😀\nok…",
		"\u00a0\u3000 kind of good\x1c", "least", "no", "but but but", "a\xffb. C",
	} {
		f.Add(s)
	}
	a := newTestAnalyzer(f, Options{})
	f.Fuzz(func(t *testing.T, text string) {
		r, err := a.Analyze(t.Context(), text)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, text, r)
	})
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"good", " a  b\tc\n", ":) :-( (good)", "Ⅻ ǅ ÉTÉ", "\x1d\u2028x", "a\xffb"} {
		f.Add(s)
	}
	v := &vader{t: loadVADER()}
	f.Fuzz(func(t *testing.T, text string) {
		var words []string
		forEachWord(text, func(w string, at int) {
			if w == "" || text[at:at+len(w)] != w {
				t.Fatalf("bad word %q at %d in %q", w, at, text)
			}
			words = append(words, w)
		})
		toks := v.tokenize(text, new(vaderScratch))
		if len(toks) != len(words) {
			t.Fatalf("%d tokens for %d words in %q", len(toks), len(words), text)
		}
		for i, w := range words {
			s := stripPuncIfWord(w)
			if s == "" {
				t.Fatalf("empty token from %q", w)
			}
			if toks[i].lower == "" {
				t.Fatalf("empty lower-case token from %q", w)
			}
		}
	})
}

func FuzzSplitSentences(f *testing.F) {
	for _, s := range []string{"A. B! C? D…", "e.g. x. Y", "\n\n", "«Hi.» Bye.", "é.\u2029ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		prev := 0
		for _, sp := range splitSentences(text) {
			if sp.start < prev || sp.start >= sp.end || sp.end > len(text) {
				t.Fatalf("bad span %+v in %q", sp, text)
			}
			rs := []rune(text[:sp.end])
			if string(rs[sp.rstart:sp.rend]) != string([]rune(text[sp.start:sp.end])) {
				t.Fatalf("code points %+v do not match bytes in %q", sp, text)
			}
			prev = sp.end
		}
	})
}

// FuzzVADERSentences checks that scoring a text's sentences in one pass
// gives each sentence exactly the scores it gets on its own, and the text
// exactly its whole-text scores.
func FuzzVADERSentences(f *testing.F) {
	for _, s := range []string{
		"Good. Bad!", "I love it. But the end was awful!!", "Not bad at all. The kiss of death? No.",
		"it was kind of good.\nVERY BAD indeed… ok", "Great 😀. Sad 😢.", "a.b. c? d!", "No. no. NO good",
		"x\u2028y. z", "at least. least bad. Mr. Smith is not great",
		"9 out\nof 10. Great", "It was 10/10! Not 5 stars though.", "It could be better. I can't recommend it enough",
	} {
		f.Add(s)
	}
	// the reference's tables, and the hybrid's (idioms, wishes, ratings,
	// emoji variants)
	vs := []*vader{{t: loadVADER()}, {t: loadHybridVADER()}}
	f.Fuzz(func(t *testing.T, text string) {
		for _, v := range vs {
			spans := splitSentences(text)
			got := make([]scores, len(spans))
			whole := v.polaritySentences(text, spans, got)
			if want := v.polarity(text); whole != want {
				t.Fatalf("whole %+v, alone %+v for %q (idioms %v)", whole, want, text, v.t.idioms)
			}
			for k, sp := range spans {
				if want := v.polarity(text[sp.start:sp.end]); got[k] != want {
					t.Fatalf("sentence %d %q: %+v, alone %+v (idioms %v)", k, text[sp.start:sp.end], got[k], want, v.t.idioms)
				}
			}
		}
	})
}
