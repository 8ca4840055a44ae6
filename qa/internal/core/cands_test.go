package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// extracted runs one extractor over the first sentence of text and returns
// the texts of its spans.
func extracted(t *testing.T, text string, run func(cs *candSet)) []string {
	t.Helper()
	d, err := NewDoc(text, 0)
	require.NoError(t, err)
	cs := newCandSet(d, 0)
	run(cs)
	var out []string
	for _, c := range cs.out {
		var ws []string
		for i := c.S; i < c.E; i++ {
			ws = append(ws, d.Toks[i].Text)
		}
		out = append(out, strings.Join(ws, " "))
	}
	return out
}

func TestExtractors(t *testing.T) {
	withNPs := func(f func(cs *candSet, nps []span)) func(cs *candSet) {
		return func(cs *candSet) {
			nps := nounPhraseCands(cs)
			cs.out, cs.idx = nil, map[[2]int]int{}
			f(cs, nps)
		}
	}
	tests := []struct {
		name    string
		run     func(cs *candSet)
		text    string
		want    []string
		notWant []string
	}{
		{"entity: a named entity", entityCands, "Shares of Apple reached $172.50 on Friday, April 7.",
			[]string{"Apple", "$ 172.50", "Friday , April 7"}, []string{"Shares"}},
		{"proper: run with of", properCands, "He joined the Bank of England in London.",
			[]string{"Bank of England", "the Bank of England", "Bank", "England", "London"}, []string{"He"}},
		{"proper: capitalised noun inside", properCands, "The bridge was designed by Martha Greaves.",
			[]string{"Martha Greaves"}, []string{"The bridge"}},
		{"number: currency and scale", numberCands, "The tower cost $4 million to build.",
			[]string{"$ 4 million"}, nil},
		{"number: hedge and unit", numberCands, "It has about 400 members.",
			[]string{"400", "about 400", "400 members"}, nil},
		{"number: percent", numberCands, "Shares rose 3.2 % on Tuesday.",
			[]string{"3.2 %"}, nil},
		{"date: day month year", dateCands, "It opened on 12 March 1871.",
			[]string{"12 March 1871", "1871"}, nil},
		{"date: century", dateCands, "It was built in the 19th century.",
			[]string{"19th century", "the 19th century"}, nil},
		{"date: year range", dateCands, "He ruled from 1840 to 1860.",
			[]string{"1840", "1860", "1840 to 1860"}, nil},
		{"noun phrase: determiner, suffix, possessive", func(cs *candSet) { nounPhraseCands(cs) }, "Chopin's father taught the old piano.",
			[]string{"the old piano", "old piano", "piano", "Chopin"}, nil},
		{"of: two phrases", withNPs(ofCands), "The capital of the province is large.",
			[]string{"The capital of the province", "capital of the province"}, nil},
		{"list: three items", withNPs(listCands), "They sold storage conditions, compulsory texts and equipment.",
			[]string{"storage conditions , compulsory texts and equipment"}, nil},
		{"adjective run", adjCands, "The room was large, warm and bright.",
			[]string{"large , warm and bright"}, nil},
		{"quotes and parentheses", bracketCands, `She wrote "The Silent Shore" (a novel) in 1901.`,
			[]string{"The Silent Shore", "a novel"}, nil},
		{"clause: reason, with and without the marker, ended early and over a comma", clauseCands,
			"They left because the ice was thin and the wind, which was cold, rose.",
			[]string{"because the ice was thin and the wind", "the ice was thin and the wind", "the ice was thin",
				"the ice was thin and the wind , which was cold"}, nil},
		{"clause: manner with by and a noun phrase", clauseCands, "The pest was controlled by accidental introduction of a predator.",
			[]string{"by accidental introduction of a predator", "accidental introduction of a predator"}, nil},
		{"clause: purpose", clauseCands, "Prices rose to encourage investment.",
			[]string{"to encourage investment", "encourage investment"}, nil},
		{"manner: means word and noun phrase (the -mannerpp experiment)", mannerCands,
			"In 1891 she travelled to Paris by train to study physics, by foot or air, with a knife.",
			[]string{"by train", "by foot", "by foot or air", "with a knife"}, []string{"by train to study physics"}},
		{"verb with object", withNPs(verbCands), "The engineers built a new bridge.",
			[]string{"built a new bridge"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := extracted(t, tt.text, tt.run)
			for _, w := range tt.want {
				assert.Contains(t, got, w)
			}
			for _, w := range tt.notWant {
				assert.NotContains(t, got, w)
			}
		})
	}
}
