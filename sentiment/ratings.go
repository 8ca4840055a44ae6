package sentiment

import (
	"strconv"
	"strings"
)

// ratingScale is the valence, on VADER's scale, of a rating at the top of
// its scale (10/10, five stars); the bottom gets its negative and the
// middle nothing. About the rating of "excellent" (2.7) and "terrible"
// (−2.5).
const ratingScale = 3.0

// numberWords are the number words a rating may be written with.
var numberWords = map[string]float64{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
	"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

// ratingNumber reads a rating's number: digits with at most one decimal
// point, or a number word.
func ratingNumber(w string) (float64, bool) {
	if v, ok := numberWords[w]; ok {
		return v, true
	}
	if w == "" || len(w) > 5 || w[0] < '0' || w[0] > '9' {
		return 0, false
	}
	v, err := strconv.ParseFloat(w, 64)
	return v, err == nil
}

// ratingOf reads a rating that starts at toks[i]: "9/10", "9 out of 10",
// "5 stars", "five-star", "1 star". It returns the rating's share of its
// scale and how many tokens it takes. A scale is 5, 10 or 100 (10 or 100
// with a slash, which dates share); "N out of M" counts only when nothing
// follows it in its clause but "stars" or "points" ("8 out of 10
// dentists" is no rating).
func ratingOf(toks []token, i int) (share float64, n int, ok bool) {
	w := toks[i].lower
	if w == "" || strings.IndexByte("0123456789zotfsen", w[0]) < 0 {
		// neither a digit nor the first letter of a number word: most
		// tokens stop here
		return 0, 0, false
	}
	if a, b, found := strings.Cut(w, "/"); found && !strings.Contains(b, "/") {
		// "7/10", not a date: no scale of 5 ("4/5" is April 5 as often),
		// nor after a word that a date follows ("Wednesday 10/10", "on
		// 1/10")
		x, okx := ratingNumber(a)
		m, okm := ratingNumber(b)
		if okx && okm && (m == 10 || m == 100) && x <= m && (i == 0 || !beforeDates[toks[i-1].lower]) {
			return x / m, 1, true
		}
		return 0, 0, false
	}
	if a, b, found := strings.Cut(w, "-"); found && (b == "star" || b == "stars") {
		if x, okx := ratingNumber(a); okx && x <= 5 {
			return x / 5, 1, true
		}
		return 0, 0, false
	}
	x, okx := ratingNumber(w)
	if !okx || toks[i].stop || i+1 >= len(toks) {
		return 0, 0, false
	}
	next := toks[i+1].lower
	if (next == "star" || next == "stars") && x <= 5 {
		return x / 5, 2, true
	}
	if next == "out" && i+3 < len(toks) && toks[i+2].lower == "of" && !toks[i+1].stop && !toks[i+2].stop {
		m, okm := ratingNumber(toks[i+3].lower)
		if !okm || !isScale(m) || x > m {
			return 0, 0, false
		}
		if toks[i+3].stop || i+4 >= len(toks) {
			return x / m, 4, true
		}
		if after := toks[i+4].lower; after == "stars" || after == "star" || after == "points" {
			return x / m, 5, true
		}
	}
	return 0, 0, false
}

// beforeDates are words a date written as digits often follows.
var beforeDates = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`on by until til till from since before after due to through
		mon tue tues wed thu thur thurs fri sat sun monday tuesday wednesday thursday friday saturday sunday
		jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july august
		september october november december`) {
		m[w] = true
	}
	return m
}()

func isScale(m float64) bool { return m == 5 || m == 10 || m == 100 }

// markRatings makes, for the hybrid's VADER scores, each rating in toks
// a sentiment word whose valence follows the rating ("10/10" about as
// positive as "excellent", "1 star" as negative as "terrible", "3 out of
// 5" nothing), so that VADER's rules (negation, "but") apply to it. The
// word model reads numbers as "0" and cannot tell "1/10" from "10/10".
// The reference has no such rule: ModelVADER never calls this.
func markRatings(toks []token) {
	for i := 0; i < len(toks); i++ {
		share, n, ok := ratingOf(toks, i)
		if !ok {
			continue
		}
		if v := ratingScale * (2*share - 1); v >= 0.6 || v <= -0.6 {
			toks[i].info = wordInfo{val: v, flags: flagLex}
		}
		i += n - 1
	}
}
