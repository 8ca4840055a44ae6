package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// groupNames runs one feature group for the candidate with the given text
// and returns the names of the features it adds.
func groupNames(t *testing.T, question, text, cand string, group func(f *feat)) []string {
	t.Helper()
	idf := func(string) float64 { return 2 }
	d, err := NewDoc(text, 0)
	require.NoError(t, err)
	q, err := NewQuestion(question, idf)
	require.NoError(t, err)
	c := NewCtx(d, q, idf)
	var names []string
	c.Names = &names
	for _, cd := range AllCandidates(d) {
		var ws []string
		for i := cd.S; i < cd.E; i++ {
			ws = append(ws, d.Toks[i].Text)
		}
		if strings.Join(ws, " ") == cand {
			group(c.newFeat(cd, nil))
			return names
		}
	}
	require.Failf(t, "no candidate", "%q", cand)
	return nil
}

func TestFeatureGroups(t *testing.T) {
	const text = "Marie Curie was born in Warsaw in 1867. She died in 1934 in Passy."
	const q = "When did Marie Curie die?"
	tests := []struct {
		name  string
		cand  string
		group func(f *feat)
		want  []string
	}{
		{"sentence: the pronoun's sentence ranks first", "1934", (*feat).sentence, []string{"bias", "w|when", "sr|0"}},
		{"sentence: the named one second", "1867", (*feat).sentence, []string{"sr|1"}},
		{"kind", "1934", (*feat).kind, []string{"k|date|w|when", "k|num|w|when"}},
		{"shape", "1934", (*feat).shape, []string{"len|1", "pat|C_", "digit|w|when"}},
		{"around", "1934", (*feat).around, []string{"prev|in", "next|in"}},
		{"head", "1934", (*feat).head, []string{"hw|1934|w|when"}},
		{"overlap", "1934", (*feat).overlap, []string{"inq|none"}},
		{"windows", "1934", (*feat).windows, []string{"wl|3|>", "bg|0|0"}},
		{"nearest: the verb on the left", "1934", (*feat).nearest, []string{"L|d|1", "L|t|V|w|when"}},
		{"proximity", "1934", (*feat).proximity, []string{"Lidf|0|d|2"}},
		{"order", "1934", (*feat).order, []string{"order|0|w|when"}},
		{"qprep: none", "1934", (*feat).qprep, nil},
		{"lexical", "1934", (*feat).lexical, []string{"qt|die|C#", "caps|0|w|when"}},
		{"position", "1934", (*feat).position, []string{"pos|5|w|when"}},
		{"answer type agrees", "1934", (*feat).answerType, []string{"at|date|date", "atAgree|w|when"}},
		{"answer type disagrees", "Passy", (*feat).answerType, []string{"at|date|name", "atDisagree|date|sr|0"}},
		{"entity: a date for when", "1934", (*feat).entity, []string{"ne|exact|DATE", "ne|exact|DATE|w|when", "ne|exact|DATE|qt|date"}},
		{"window: the pronoun stands for the name", "1934", (*feat).window, []string{"qwin|5|>|w|when", "qwinn|5|2", "qwinn|12|2"}},
		{"window: the name only in the wider window", "1867", (*feat).window, []string{"qwin|5|0|w|when", "qwinn|5|0", "qwin|12|4|w|when", "qwinn|12|2"}},
		{"entity: a place for when", "Warsaw", (*feat).entity, []string{"ne|exact|GPE|qt|date", "ne|exact|GPE|sr|1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := groupNames(t, q, text, tt.cand, tt.group)
			if tt.want == nil {
				assert.Empty(t, got)
			}
			for _, w := range tt.want {
				assert.Contains(t, got, w)
			}
		})
	}
}

func TestQuestionLastWord(t *testing.T) {
	const text = "Marie Curie was born in Warsaw in 1867. The city was known as Varsovia."
	tests := []struct {
		q, cand string
		want    []string
	}{
		{"Which city was Marie Curie born in?", "Warsaw", []string{"qlast|in|prev|in", "qlast|in|len|1|w|which"}},
		{"What was the city known as?", "Varsovia", []string{"qlast|as|prev|as"}},
		{"Where was Marie Curie born?", "Warsaw", []string{"qlast|born|prev|in"}},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			got := groupNames(t, tt.q, text, tt.cand, (*feat).qlast)
			for _, w := range tt.want {
				assert.Contains(t, got, w)
			}
		})
	}
}

func TestTypes(t *testing.T) {
	qs := []struct{ q, want string }{
		{"When did they meet?", TDate},
		{"In what year did the war end?", TDate},
		{"What price did Apple shares reach?", TMoney},
		{"How much did it cost?", TAmount},
		{"What percentage of voters agreed?", TPercent},
		{"How many people live there?", TNumber},
		{"How tall is the tower?", TQuantity},
		{"Who built it?", TName},
		{"Where was she born?", TPlace},
		{"Why did the war end?", TOther},
		{"What did he build?", TOther},
		{"When did she die?", TDate},
		{"What was the wedding date?", TDate},
		{"Which senator was an advocate of the act?", TName},
		{"Which region began to grow?", TPlace},
		{"Which airport is the busiest?", TOther},
	}
	for _, tt := range qs {
		t.Run(tt.q, func(t *testing.T) {
			q, err := NewQuestion(tt.q, func(string) float64 { return 1 })
			require.NoError(t, err)
			assert.Equal(t, tt.want, q.Type)
		})
	}
	cands := []struct{ text, cand, want string }{
		{"Shares reached $172.50 on Friday.", "$ 172.50", TMoney},
		{"Shares reached $172.50 on Friday.", "Friday", TDate},
		{"Shares rose 3.2% in 2023.", "3.2%", TPercent},
		{"Shares rose 3.2% in 2023.", "2023", TDate},
		{"It cost 4 million euros in all.", "4 million euros", TMoney},
		{"The tower is 38 metres tall.", "38 metres", TNumber},
		{"It was designed by Karl Aspen.", "Karl Aspen", TName},
		{"It was designed by Karl Aspen.", "designed by Karl Aspen", TOther},
	}
	for _, tt := range cands {
		t.Run(tt.cand, func(t *testing.T) {
			d, err := NewDoc(tt.text, 0)
			require.NoError(t, err)
			found := false
			for _, c := range AllCandidates(d) {
				var ws []string
				for i := c.S; i < c.E; i++ {
					ws = append(ws, d.Toks[i].Text)
				}
				if strings.Join(ws, " ") == tt.cand {
					found = true
					assert.Equal(t, tt.want, CandType(d, c))
				}
			}
			assert.True(t, found, "no candidate %q", tt.cand)
		})
	}
}

func TestEntityOf(t *testing.T) {
	const text = "Marie Curie was born in Warsaw in 1867. She died in 1934 in Passy, France."
	tests := []struct{ cand, rel, label string }{
		{"Marie Curie", NEExact, "PERSON"},
		{"Warsaw", NEExact, "GPE"},
		{"1934", NEExact, "DATE"},
		{"Curie", NEInside, "PERSON"},
		{"Passy , France", NEContain, "GPE"},
		{"born in Warsaw", NEContain, "GPE"},
		{"She", NENone, ""},
	}
	d, err := NewDoc(text, 0)
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.cand, func(t *testing.T) {
			ws := strings.Fields(tt.cand)
			for s := range d.Toks {
				if s+len(ws) > len(d.Toks) {
					break
				}
				ok := true
				for k, w := range ws {
					ok = ok && d.Toks[s+k].Text == w
				}
				if ok {
					rel, l := EntityOf(d, Cand{S: s, E: s + len(ws)})
					assert.Equal(t, tt.rel, rel)
					assert.Equal(t, tt.label, l)
					return
				}
			}
			require.Failf(t, "no span", "%q", tt.cand)
		})
	}
}

func TestQuestionNumber(t *testing.T) {
	tests := []struct {
		q     string
		num   string
		count int
	}{
		{"What countries border France?", "pl", 0},
		{"What country borders France?", "sg", 0},
		{"What were built there?", "v", 0},
		{"What was the name of the film?", "ssg", 0},
		{"What were three sites used for filming?", "n", 3},
		{"Which two rivers meet there?", "n", 2},
		{"When did she die?", "?", 0},
		{"Who built it?", "?", 0},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			q, err := NewQuestion(tt.q, func(string) float64 { return 1 })
			require.NoError(t, err)
			assert.Equal(t, tt.num, q.Number)
			assert.Equal(t, tt.count, q.Count)
		})
	}
}

// TestNumberAndSentenceGroups covers the groups that compare the
// question's number with a list span and the sentence with the question.
func TestNumberAndSentenceGroups(t *testing.T) {
	const text = "Marie Curie was born in the city of Warsaw in 1867. She worked in Paris, Lyon and Passy. Her husband taught physics."
	tests := []struct {
		name, q, cand string
		group         func(f *feat)
		want          []string
	}{
		{"number: a list for a plural", "Which cities did Marie Curie work in?", "Paris , Lyon and Passy", (*feat).number, []string{"num|pl|c|w|which", "num|pl|c|sg"}},
		{"number: one name for a singular", "Which city was Marie Curie born in?", "Warsaw", (*feat).number, []string{"num|sg|-|w|which", "num|sg|-|sg"}},
		{"count: three items for three", "What three cities did Marie Curie work in?", "Paris , Lyon and Passy", (*feat).count, []string{"count|eq"}},
		{"count: one item for three", "What three cities did Marie Curie work in?", "Paris", (*feat).count, []string{"count|lt"}},
		{"count: no number word", "Where did Marie Curie work?", "Paris", (*feat).count, nil},
		{"sentence index", "Where was Marie Curie born?", "Warsaw", (*feat).sentIndex, []string{"sidx|0|sr|0"}},
		{"missing: the sentence matches every term", "Where was Marie Curie born?", "Warsaw", (*feat).missing, []string{"miss|0|sr|0"}},
		{"missing: the third sentence lacks the name", "What did Marie Curie teach?", "physics", (*feat).missing, []string{"miss|1|w|what"}},
		{"missing: the head noun in the sentence", "Which city was Marie Curie born in?", "Warsaw", (*feat).missing, []string{"hsent|y|sr|0"}},
		{"missing: not in the sentence", "Which city did Marie Curie work in?", "Paris", (*feat).missing, []string{"hsent|n|sr|1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := groupNames(t, tt.q, text, tt.cand, tt.group)
			if tt.want == nil {
				assert.Empty(t, got)
			}
			for _, w := range tt.want {
				assert.Contains(t, got, w)
			}
		})
	}
}
