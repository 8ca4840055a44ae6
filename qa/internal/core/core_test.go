package core

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cities", "city"}, {"founded", "found"}, {"founding", "found"}, {"running", "run"},
		{"was", "be"}, {"the", "the"}, {"glass", "glass"}, {"status", "status"}, {"churches", "church"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, Stem(tt.in))
		})
	}
}

// Words and their other forms from the WordNet table stem alike.
func TestStemLemmas(t *testing.T) {
	require.Greater(t, len(lemmas()), 10000)
	tests := [][2]string{
		{"invasion", "invaded"}, {"production", "produces"}, {"better", "good"},
		{"government", "governed"}, {"teacher", "teaching"}, {"mice", "mouse"},
	}
	for _, tt := range tests {
		t.Run(tt[0], func(t *testing.T) {
			assert.Equal(t, Stem(tt[1]), Stem(tt[0]))
		})
	}
}

func candTexts(d *Doc) map[string]bool {
	out := map[string]bool{}
	for _, c := range AllCandidates(d) {
		var ws []string
		for i := c.S; i < c.E; i++ {
			ws = append(ws, d.Toks[i].Text)
		}
		out[strings.Join(ws, " ")] = true
	}
	return out
}

func TestCandidates(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"names and dates", "The bridge was designed by Martha Greaves and opened on 12 March 1871.",
			[]string{"Martha Greaves", "12 March 1871", "The bridge", "bridge"}},
		{"numbers with units", "The tower is 38 metres tall and cost $4 million.",
			[]string{"38 metres", "$ 4 million", "38"}},
		{"centuries", "It was built in the 19th century by the Bank of England.",
			[]string{"the 19th century", "19th century", "Bank of England"}},
		{"quotes and lists", `She wrote "The Silent Shore" about storms, tides and ships.`,
			[]string{"The Silent Shore", "storms , tides and ships"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewDoc(tt.text, 0)
			require.NoError(t, err)
			got := candTexts(d)
			for _, w := range tt.want {
				assert.True(t, got[w], "missing %q in %v", w, got)
			}
		})
	}
}

// A dropCase is a question with the candidates a filter must keep and
// those it must drop (as their tokens' texts joined by spaces).
type dropCase struct {
	question   string
	kept, gone []string
}

// checkDrops runs drop, for each case, over every candidate of text.
func checkDrops(t *testing.T, text string, tests []dropCase, drop func(*Doc, *Question, []Scored) []Scored) {
	t.Helper()
	d, err := NewDoc(text, 0)
	require.NoError(t, err)
	var ss []Scored
	for _, c := range AllCandidates(d) {
		ss = append(ss, Scored{Cand: c})
	}
	texts := func(ss []Scored) map[string]bool {
		out := map[string]bool{}
		for _, s := range ss {
			var ws []string
			for i := s.S; i < s.E; i++ {
				ws = append(ws, d.Toks[i].Text)
			}
			out[strings.Join(ws, " ")] = true
		}
		return out
	}
	all := texts(ss)
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			q, err := NewQuestion(tt.question, func(string) float64 { return 1 })
			require.NoError(t, err)
			got := texts(drop(d, q, ss))
			for _, w := range tt.kept {
				require.True(t, all[w], "%q is no candidate: %v", w, all)
				assert.True(t, got[w], "%q dropped", w)
			}
			for _, w := range tt.gone {
				require.True(t, all[w], "%q is no candidate: %v", w, all)
				assert.False(t, got[w], "%q kept", w)
			}
		})
	}
}

// TestDropMistyped: a why-question and an activity ("What did she do?")
// keep no name and no bare date or amount, a how-question of manner no
// bare date; other questions keep every candidate.
func TestDropMistyped(t *testing.T) {
	const text = "Anna Berg moved to Paris in 2010 because her mother had fallen ill, and sold her flat for $55,000 through an agent."
	tests := []dropCase{
		{"Why did Anna move to Paris?",
			[]string{"her mother had fallen ill", "an agent"},
			[]string{"Anna Berg", "Paris", "2010", "$ 55,000"}},
		{"How did Anna sell her flat?",
			[]string{"an agent", "Anna Berg", "$ 55,000"},
			[]string{"2010"}},
		{"How many flats did Anna sell?",
			[]string{"2010", "Anna Berg", "$ 55,000"}, nil},
		{"What did Anna Berg do?",
			[]string{"her mother had fallen ill", "an agent"},
			[]string{"Anna Berg", "Paris", "2010", "$ 55,000"}},
		{"What year did Anna move, as she had wanted to do?",
			[]string{"2010", "Anna Berg"}, nil},
		{"When did Anna move to Paris?",
			[]string{"2010", "Anna Berg", "her mother had fallen ill"}, nil},
	}
	checkDrops(t, text, tests, DropMistyped)
}

func TestDropReferent(t *testing.T) {
	const text = "Marie Curie was a Polish physicist. She was born in Warsaw in 1867. Her husband Pierre Curie shared the prize with her, and Curie kept working."
	tests := []dropCase{
		{"What was her nationality?", []string{"Polish", "Pierre Curie"}, []string{"Marie Curie", "Curie"}},
		{"What did she share?", []string{"the prize"}, []string{"Marie Curie"}},
		// Who-questions, names, person heads and named questions keep her.
		{"Who was she?", []string{"Marie Curie"}, nil},
		{"What was her name?", []string{"Marie Curie"}, nil},
		{"Which physicist was born in Warsaw?", []string{"Marie Curie"}, nil},
		{"What was Marie Curie's nationality?", []string{"Marie Curie"}, nil},
		// A question of the other gender is not about her.
		{"What did he share?", []string{"Marie Curie"}, nil},
	}
	checkDrops(t, text, tests, DropReferent)
}

func TestNewDocSentences(t *testing.T) {
	text := "The Harbour Light\n\nIt stands on a spur. It was lit in 1871.\nHistory\nThe keeper retired."
	d, err := NewDoc(text, 10)
	require.NoError(t, err)
	var sents []string
	rs := []rune(text)
	for _, s := range d.Sents {
		a, b := d.Toks[s[0]].Start-10, d.Toks[s[1]-1].End-10
		sents = append(sents, string(rs[a:b]))
	}
	assert.Equal(t, []string{"The Harbour Light", "It stands on a spur.", "It was lit in 1871.", "History", "The keeper retired."}, sents)
}

// Words joined by an em dash, footnote marks, currency signs and "~"
// before a number are tokens of their own, with offsets into the caller's
// text; en dashes keep names and ranges whole.
func TestNewDocSymbols(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"em dash", "Later, Dyrrachium—one of the bases—fell.",
			[]string{"Later", ",", "Dyrrachium", "—", "one", "of", "the", "bases", "—", "fell", "."}},
		{"en dash", "The Miller–Rabin test ran in 1914–1918.",
			[]string{"The", "Miller–Rabin", "test", "ran", "in", "1914–1918", "."}},
		{"spaced em dash", "A bridge — the first — opened.",
			[]string{"A", "bridge", "—", "the", "first", "—", "opened", "."}},
		{"footnote", "It is triplet oxygen.[b] It binds.",
			[]string{"It", "is", "triplet", "oxygen", ".", "[", "b", "]", "It", "binds", "."}},
		{"currency and about", "Pay rose from £20,427 to €53,423 (~74,000).",
			[]string{"Pay", "rose", "from", "£", "20,427", "to", "€", "53,423", "(", "~", "74,000", ")", "."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewDoc(tt.text, 5)
			require.NoError(t, err)
			rs := []rune(tt.text)
			var got []string
			for _, tok := range d.Toks {
				assert.Equal(t, tok.Text, string(rs[tok.Start-5:tok.End-5]))
				got = append(got, tok.Text)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestQuestion(t *testing.T) {
	tests := []struct {
		q        string
		wh, head string
	}{
		{"How many people live in Leith?", "how_many", "person"},
		{"In what year did the war end?", "what", "year"},
		{"What kind of stone was used?", "what", "kind_of_ston"},
		{"Who built it?", "who", ""},
		{"Name the river.", "name", ""},
		{"What is the capital?", "what", "capital"},
		{"What was the wedding date?", "what", "dat"},
		{"What was the Anglo-Norman language's final form?", "what", "form"},
		{"What type of bureaucracy did they use?", "what", "typ_of_bureaucracy"},
		{"What is the name of the Norman castle?", "what", "nam_of_castl"},
		{"What is Tesla?", "what", "v:be"},
		{"What did they build?", "what", "v:do"},
		{"Which oil producer is an ally of the US?", "which", "produc"},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			q, err := NewQuestion(tt.q, func(string) float64 { return 1 })
			require.NoError(t, err)
			assert.Equal(t, tt.wh, q.Wh)
			assert.Equal(t, tt.head, q.Head)
		})
	}
}

func TestSplitRetrieve(t *testing.T) {
	text := strings.Repeat("Gardens need water and sun. ", 40) + "\n\n" +
		"The lighthouse keeper was Edwin Marsh. " + "\n\n" + strings.Repeat("Pasta is boiled in salted water. ", 40)
	ps := Split(text, 400)
	require.Greater(t, len(ps), 3)
	rs := []rune(text)
	for _, p := range ps {
		assert.Equal(t, p.Text, string(rs[p.Start:p.Start+len([]rune(p.Text))]))
	}
	got := Retrieve(ps, "Who was the lighthouse keeper?", 1, func(string) float64 { return 1 })
	require.Len(t, got, 1)
	assert.Contains(t, got[0].Text, "Edwin Marsh")
}

func TestModelRoundTrip(t *testing.T) {
	m := NewModel()
	m.W[3], m.W[1000], m.W[len(m.W)-1] = 1.5, -0.25, 0.75
	m.IDF["harbour"], m.MaxIDF = 6.5, 8
	var buf bytes.Buffer
	require.NoError(t, m.Encode(&buf))
	got, err := Decode(&buf)
	require.NoError(t, err)
	assert.InDelta(t, 1.5, got.W[3], 1e-3)
	assert.InDelta(t, -0.25, got.W[1000], 1e-3)
	assert.InDelta(t, 0.75, got.W[len(m.W)-1], 1e-3)
	assert.InDelta(t, 6.5, got.Weight("harbour"), 0.1)
	assert.InDelta(t, 8, got.Weight("unknown"), 1e-6)

	_, err = Decode(strings.NewReader("not a model"))
	assert.Error(t, err)
}

func TestIsA(t *testing.T) {
	tests := []struct {
		word, class string
		known, is   bool
	}{
		{"ireland", "country", true, true},
		{"catholicism", "religion", true, true},
		{"continents", "landmass", true, true},
		{"embroidery", "needlework", true, true},
		{"storm", "country", true, false},
		{"xqzzy", "country", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			known, is := IsA(tt.word, Stem(tt.class))
			assert.Equal(t, tt.known, known)
			assert.Equal(t, tt.is, is)
		})
	}
}

func TestBroad(t *testing.T) {
	has := func(b uint64, class string) bool {
		for i, c := range broadClasses {
			if c == class {
				return b&(1<<i) != 0
			}
		}
		t.Fatalf("no broad class %q", class)
		return false
	}
	tests := []struct {
		word      string
		known     bool
		is, isNot string
	}{
		{"catholicism", true, "belief", "person"},
		{"teachers", true, "person", "location"},
		{"ireland", true, "country", "food"},
		{"religion", true, "religion", "city"},
		{"xqzzy", false, "", ""},
	}
	assert.Less(t, len(broadClasses), 62)
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			b, known := Broad(tt.word)
			assert.Equal(t, tt.known, known)
			if tt.is != "" {
				assert.True(t, has(b, tt.is))
				assert.False(t, has(b, tt.isNot))
			}
		})
	}
}

// The committed model files decode and encode again to the same bytes:
// the file format has not drifted, so trainqa still reproduces the
// sha256 its documentation gives.
func TestEmbeddedFilesEncodeToTheirBytes(t *testing.T) {
	tests := []struct {
		file   string
		encode func(data []byte, buf *bytes.Buffer) error
	}{
		{"../../model.bin.gz", func(data []byte, buf *bytes.Buffer) error {
			m, err := Decode(bytes.NewReader(data))
			if err != nil {
				return err
			}
			return m.Encode(buf)
		}},
		{"../../rerank.bin.gz", func(data []byte, buf *bytes.Buffer) error {
			f, err := DecodeForest(bytes.NewReader(data))
			if err != nil {
				return err
			}
			return f.Encode(buf)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(tt.file)
			require.NoError(t, err)
			var buf bytes.Buffer
			require.NoError(t, tt.encode(data, &buf))
			assert.True(t, bytes.Equal(data, buf.Bytes()), "re-encoded %d bytes, committed %d", buf.Len(), len(data))
		})
	}
}
