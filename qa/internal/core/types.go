package core

import (
	"strings"
	"sync"
)

// Answer types, coarse: what a question asks for and what a candidate is.
// They are read from the question's wh-word and head noun and from the
// candidate's shape (digits, currency and per cent signs, months and
// weekdays, capitals). The labels of the named-entity recogniser are
// features of their own (see EntityOf).
const (
	TOther    = ""
	TDate     = "date"     // a date or time: "12 March 1871", "Friday", "1934"
	TMoney    = "money"    // an amount with a currency: "$172.50", "4 million euros"
	TPercent  = "percent"  // "3.2%", "12 per cent"
	TNumber   = "number"   // any other number, with or without a unit
	TName     = "name"     // a person, organisation or place: a capitalised run
	TAmount   = "amount"   // question only: money, percent or number ("how much")
	TQuantity = "quantity" // question only: a number, usually with a unit ("how tall")
	TPlace    = "place"    // question only: where; a name
)

var dateHeads = wordSet("year date century decade month day time period era season week birthday anniversary")
var moneyHeads = wordSet("price cost fee salary value revenue budget worth income wage fare sum fine profit loss rent tax")
var percentHeads = wordSet("percentage percent proportion share")
var countHeads = wordSet("number population")
var placeHeads = wordSet("city country state town place region river continent county province island capital location area")
var personHeads = wordSet("person man woman king queen president leader author writer player artist emperor company group organization team")

// wordSet returns the set of the stems of s's words, built on first use:
// stemming reads the lemma table, which every command of the CLI would
// otherwise decode at start-up, whether it answers questions or not.
func wordSet(s string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(s) {
			m[Stem(w)] = true
		}
		return m
	})
}

// questionType is the answer type a question asks for, TOther when its
// words do not say.
func questionType(wh, head string) string {
	switch wh {
	case "when":
		return TDate
	case "who", "whose":
		return TName
	case "where":
		return TPlace
	case "how_much":
		if moneyHeads()[head] {
			return TMoney
		}
		return TAmount
	case "how_many":
		return TNumber
	case "how_long", "how_old", "how_far", "how_big", "how_large", "how_tall", "how_high",
		"how_deep", "how_wide", "how_fast", "how_heavy", "how_small", "how_few":
		return TQuantity
	case "what", "which", "name", "none":
		switch {
		case dateHeads()[head]:
			return TDate
		case moneyHeads()[head]:
			return TMoney
		case percentHeads()[head]:
			return TPercent
		case countHeads()[head]:
			return TNumber
		case placeHeads()[head]:
			return TPlace
		case personHeads()[head]:
			return TName
		}
	}
	return TOther
}

var weekdays = wordSet("monday tuesday wednesday thursday friday saturday sunday")
var currencyWords = wordSet("dollar pound euro cent yen yuan franc mark rupee peso ruble rouble lira shilling guinea")
var timeWords = map[string]bool{"a.m.": true, "p.m.": true, "am": true, "pm": true, "noon": true, "midnight": true,
	"yesterday": true, "today": true, "tomorrow": true, "tonight": true}

// CandType is the answer type of candidate c of d.
func CandType(d *Doc, c Cand) string {
	T := d.Toks
	num, date, money, percent, caps, content := false, c.K&KDate != 0, false, false, 0, 0
	for i := c.S; i < c.E; i++ {
		t := &T[i]
		switch {
		case isCurrency(t.Text) || t.Text == "US$":
			money = true
		case strings.HasSuffix(t.Text, "%") || t.Low == "percent" || (t.Low == "per" && i+1 < c.E && T[i+1].Low == "cent"):
			percent = true
		case isMonth(t) || (weekdays()[t.Stem] && t.Cap) || timeWords[t.Low]:
			date = true
		case currencyWords()[t.Stem]:
			money = money || num
		}
		if isNum(t) {
			num = true
		}
		if t.Word && !t.Stop {
			content++
			if t.Cap {
				caps++
			}
		}
	}
	switch {
	case money && num:
		return TMoney
	case percent && num:
		return TPercent
	case date:
		return TDate
	case num:
		return TNumber
	case content > 0 && caps == content && (c.K&KProper != 0 || c.S > d.Sents[T[c.S].Sent][0]):
		return TName
	}
	return TOther
}

// Agrees reports whether a candidate of type ct answers a question of type
// qt. TOther agrees with nothing.
func Agrees(qt, ct string) bool {
	switch qt {
	case TOther:
		return false
	case TAmount:
		return ct == TMoney || ct == TPercent || ct == TNumber
	case TQuantity:
		return ct == TNumber
	case TPlace:
		return ct == TName
	}
	return qt == ct
}
