package tagger

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/internal/modelfile"
)

func words(text string) []string {
	var out []string
	for _, t := range Tokenize(nil, text) {
		out = append(out, text[t.Start:t.End])
	}
	return out
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"clitics", "John's dog isn't here.", []string{"John", "'s", "dog", "is", "n't", "here", "."}},
		{"curly", "“Don’t,” she said.", []string{"“", "Do", "n’t", ",", "”", "she", "said", "."}},
		{"abbreviations", "Mr. Smith of Apple Inc. met U.S. officials.", []string{"Mr.", "Smith", "of", "Apple", "Inc.", "met", "U.S.", "officials", "."}},
		{"final abbreviation", "He works at Acme Corp.", []string{"He", "works", "at", "Acme", "Corp", "."}},
		{"money and percent", "($1,200.50) or 4.5%", []string{"(", "$", "1,200.50", ")", "or", "4.5", "%"}},
		{"hyphens and dashes", "New York-based -- Jean-Luc—yes", []string{"New", "York", "-", "based", "--", "Jean", "-", "Luc", "—", "yes"}},
		{"ptb quotes", "``Yes,'' he said...", []string{"``", "Yes", ",", "''", "he", "said", "..."}},
		{"invalid utf-8", "a\xffb \xfe.", []string{"a\xffb", "\xfe", "."}},
		{"emoji with skin tone", "Merkel👍🏽!", []string{"Merkel", "👍🏽", "!"}},
		{"zwj family", "we👨‍👩‍👧came", []string{"we", "👨‍👩‍👧", "came"}},
		{"flag and keycap", "🇩🇪1️⃣ok", []string{"🇩🇪", "1️⃣", "ok"}},
		{"each emoji is a token", "🎉🎉 yes", []string{"🎉", "🎉", "yes"}},
		{"two flags", "🇩🇪🇫🇷", []string{"🇩🇪", "🇫🇷"}},
		{"script change", "Obamaבירושלים", []string{"Obama", "בירושלים"}},
		{"script change, cyrillic", "Putinом", []string{"Putin", "ом"}},
		{"japanese stays whole", "東京タワーへ", []string{"東京タワーへ"}},
		{"accented latin stays whole", "Zürich Amélie", []string{"Zürich", "Amélie"}},
		{"combining mark stays", "Ame\u0301lie", []string{"Ame\u0301lie"}},
		{"digits join any script", "Boeing737מטוס", []string{"Boeing737", "מטוס"}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, words(tt.text))
		})
	}
}

func TestKeepCased(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"hebrew after a name", "Barack Obama בירושלים spoke.", []string{"Barack", "Obama", "spoke", "."}},
		{"han in brackets", "Tokyo (東京) is big", []string{"Tokyo", "(", ")", "is", "big"}},
		{"arabic, hangul, thai", "a مرحبا 안녕 สวัสดี b", []string{"a", "b"}},
		{"cased scripts stay", "Путин Αθήνα Zürich", []string{"Путин", "Αθήνα", "Zürich"}},
		{"no letters stay", "12 👍🏽 $ !", []string{"12", "👍🏽", "$", "!"}},
		{"digits with a caseless word", "Boeing737מטוס", []string{"Boeing737"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range KeepCased(Tokenize(nil, tt.text), tt.text) {
				got = append(got, tt.text[s.Start:s.End])
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSentenceEnd(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"two", "He left. She stayed.", []string{"He left .", "She stayed ."}},
		{"abbreviation", "Mr. Smith left. Then Dr. Who came", []string{"Mr. Smith left .", "Then Dr. Who came"}},
		{"quote", `"Go." He went.`, []string{`" Go . "`, "He went ."}},
		{"lower case", "It rose 5. and fell", []string{"It rose 5 . and fell"}},
		{"blank line", "Title\n\nBody text", []string{"Title", "Body text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks := Tokenize(nil, tt.text)
			var got []string
			for i := 0; i < len(toks); {
				j := SentenceEnd(tt.text, toks, i)
				require.Greater(t, j, i)
				var ws []string
				for _, tk := range toks[i:j] {
					ws = append(ws, tt.text[tk.Start:tk.End])
				}
				got = append(got, strings.Join(ws, " "))
				i = j
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestTrainRoundTrip trains a tiny model, writes and reads it back, and
// checks that it tags its own training data.
func TestTrainRoundTrip(t *testing.T) {
	sents := flightSentences()
	var texts []string
	for _, s := range sents {
		texts = append(texts, s.Text)
	}
	clus := Cluster(texts, ClusterOptions{MinCount: 1, Context: 20, Coarse: 2, Fine: 4, Iters: 2, Evidence: 2, Case: true})
	for _, opt := range []TrainOptions{
		{Labels: []string{"PER", "LOC"}, Epochs: 5, MinCount: 1, Folds: 2, BILOU: true, Extra: true},
		{Labels: []string{"PER", "LOC"}, Epochs: 5, MinCount: 1, Folds: 2, BILOU: true, Extra: true, Extra2: true, Extra3: true, Extra4: true, Clusters: clus},
		// The CRF path: same features, file and averaging.
		{Labels: []string{"PER", "LOC"}, Epochs: 5, MinCount: 1, Folds: 2, BILOU: true, Extra: true, Prune: 0.001, CRF: &CRFOptions{Rate: 0.1}},
		{Labels: []string{"PER", "LOC"}, Epochs: 5, MinCount: 1, Folds: 2, Extra: true, Prune: 0.001, Seeds: 2, CRF: &CRFOptions{Rate: 0.1}},
	} {
		m, hashes, err := Train(sents, opt)
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, m.Write(&buf, hashes))
		m2, err := Read(buf.Bytes())
		require.NoError(t, err)
		assert.Equal(t, m.Labels, m2.Labels)
		assert.Equal(t, opt.Extra4, m2.Extra4)
		assert.Equal(t, m.Clus, m2.Clus)
		assert.Equal(t, m.NumFeatures(), m2.NumFeatures())
		_, _, f, _ := Eval(m2, sents)
		assert.InDelta(t, 1.0, f, 1e-9)
	}
}

func TestReadBad(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("garbage"), {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0}} {
		_, err := Read(data)
		assert.Error(t, err)
	}
}

func TestViterbiConstraints(t *testing.T) {
	// Tags: O, B-X, I-X. Emissions favour I-X at the start, which BIO
	// forbids without a B-X before it.
	s := NewScheme(2, 1)
	T := s.T
	scores := []float32{0, 0, 5, 0, 0, 5}
	trans := make([]float32, (T+1)*T)
	tags := s.Viterbi(scores, Transpose(trans, T, 1), 2, make([]int32, 2*T), nil, make([]float32, T), make([]float32, T))
	assert.Equal(t, []int{1, 2}, tags)
	assert.Equal(t, []Chunk{{0, 2, 0}}, s.Chunks(nil, tags))

	// BILOU: O, B, I, L, U; I at the end is not allowed, U is.
	s = NewScheme(4, 1)
	T = s.T
	scores = []float32{0, 1, 5, 0, 0 /**/, 0, 0, 5, 1, 0}
	trans = make([]float32, (T+1)*T)
	tags = s.Viterbi(scores, Transpose(trans, T, 1), 2, make([]int32, 2*T), nil, make([]float32, T), make([]float32, T))
	assert.Equal(t, []int{1, 3}, tags)
	assert.Equal(t, []Chunk{{0, 2, 0}}, s.Chunks(nil, tags))
	assert.Equal(t, []int{0, 4, 1, 2, 3, 0}, s.Encode([]Chunk{{1, 2, 0}, {2, 5, 0}}, 6))
}

func FuzzTokenize(f *testing.F) {
	f.Add("Mr. Smith's “U.S.” Corp. -- $5,000.50%\n\nyes...")
	f.Add("\xff'\xfe``''")
	f.Fuzz(func(t *testing.T, text string) {
		toks := Tokenize(nil, text)
		prev := 0
		for _, tk := range toks {
			if tk.Start < prev || tk.End <= tk.Start || tk.End > len(text) {
				t.Fatalf("bad token %+v in %q", tk, text)
			}
			if strings.TrimSpace(text[tk.Start:tk.End]) == "" {
				t.Fatalf("blank token %+v in %q", tk, text)
			}
			prev = tk.End
		}
		for i := 0; i < len(toks); {
			j := SentenceEnd(text, toks, i)
			if j <= i || j > len(toks) {
				t.Fatalf("bad sentence end %d after %d", j, i)
			}
			i = j
		}
	})
}

func TestInnerCap(t *testing.T) {
	tests := []struct {
		w    string
		want bool
	}{
		{"iPhone", true}, {"eBay", true}, {"McDonald", true}, {"Zürich", false},
		{"IBM", false}, {"apple", false}, {"3M", false}, {"éBay", true}, {"", false},
	}
	for _, tt := range tests {
		t.Run(tt.w, func(t *testing.T) {
			assert.Equal(t, tt.want, innerCap(tt.w))
		})
	}
}

func TestExtra3Features(t *testing.T) {
	// The fourth feature set adds features and leaves the others as they
	// were; a model without it reads the same features as before.
	text := "Chinese Vice Premier He Lifeng bought an iPhone."
	toks := Tokenize(nil, text)
	var d Doc
	d.Reset(text, toks)
	d.Extra, d.Extra2 = true, true
	base := d.Features(nil, 3)
	d.Extra3 = true
	more := d.Features(nil, 3)
	require.Greater(t, len(more), len(base))
	assert.Subset(t, more, base)
	// The sentence-initial "Chinese" has no non-initial word feature, the
	// mixed-case "iPhone" has the inner-capital ones.
	first := d.Features(nil, 0)
	d.Extra3 = false
	assert.Len(t, first, len(d.Features(nil, 0))+3)
	d.Extra3 = true
	i := len(toks) - 2
	require.Equal(t, "iPhone", text[toks[i].Start:toks[i].End])
	withCap := d.Features(nil, i)
	d.Extra3 = false
	assert.Len(t, withCap, len(d.Features(nil, i))+6)
}

func TestGazetteerLower(t *testing.T) {
	// A phrase learnt as written matches in another case only when the
	// gazetteer keeps lower-case forms, then under its own features, and
	// (unless LowerAll) only in sentences whose case tells nothing.
	var train []Sentence
	train = append(train, Sentence{Doc: "a", Text: "Angela Merkel spoke.", Entities: []GoldEntity{{Start: 0, End: 13, Label: "PER"}}})
	tests := []struct {
		name            string
		lower, lowerAll bool
		want            []int // features of the first token: as written, in capitals, in lower case
	}{
		{"exact only", false, false, []int{1, 0, 0}},
		{"lower where case tells nothing", true, false, []int{1, 1, 1}},
		{"lower everywhere", true, true, []int{2, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewGazetteer(6)
			g.Lower, g.LowerAll = tt.lower, tt.lowerAll
			toks := Tokenize(nil, train[0].Text)
			g.Add(train[0].Text, toks[:2], 0)
			var d Doc
			for k, text := range []string{"Angela Merkel spoke.", "ANGELA MERKEL SPOKE.", "angela merkel spoke."} {
				d.Reset(text, Tokenize(nil, text))
				d.Prepare(nil, g, nil)
				assert.Len(t, d.gaz[0], tt.want[k], text)
				assert.Empty(t, d.gaz[2], text)
			}
		})
	}
	// The flags survive a write and read.
	for _, all := range []bool{false, true} {
		m, hashes, err := Train(train, TrainOptions{Labels: []string{"PER"}, Epochs: 2, MinCount: 1, Folds: 1, GazLower: true, GazLowerAll: all})
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, m.Write(&buf, hashes))
		m2, err := Read(buf.Bytes())
		require.NoError(t, err)
		require.NotNil(t, m2.Gaz)
		assert.True(t, m2.Gaz.Lower)
		assert.Equal(t, all, m2.Gaz.LowerAll)
	}
}

func TestExternalGazetteer(t *testing.T) {
	// An external gazetteer's phrases give features of their own
	// templates beside the training gazetteer's, a common word's under
	// others again; the gazetteer survives a write and read.
	ext := NewGazetteer(6)
	ext.External, ext.Lower = true, true
	for _, p := range []struct {
		text string
		bits uint32
	}{{"Burkina Faso", 1 << 1}, {"Reading", 1<<1 | CommonBit}} {
		ext.AddBits(p.text, Tokenize(nil, p.text), p.bits)
	}
	train := []Sentence{{Doc: "a", Text: "Angela Merkel visited Burkina Faso.", Entities: []GoldEntity{{Start: 0, End: 13, Label: "PER"}, {Start: 22, End: 34, Label: "LOC"}}}}
	var d Doc
	text := "Burkina Faso beat Reading."
	toks := Tokenize(nil, text)
	d.Reset(text, toks)
	d.Prepare(nil, nil, ext)
	require.Len(t, d.gaz, 5)
	assert.Equal(t, []uint64{uint64(start(80).num(1).num(2))}, d.gaz[0])
	assert.Equal(t, []uint64{uint64(start(80).num(1).num(3))}, d.gaz[1])
	assert.Empty(t, d.gaz[2])
	assert.Equal(t, []uint64{uint64(start(82).num(1).num(0))}, d.gaz[3])
	// In lower-case text (case tells nothing) the lower-case templates.
	text = "we flew from burkina faso to reading and then home again."
	toks = Tokenize(nil, text)
	d.Reset(text, toks)
	d.Prepare(nil, nil, ext)
	assert.Equal(t, []uint64{uint64(start(81).num(1).num(2))}, d.gaz[3])
	assert.Equal(t, []uint64{uint64(start(83).num(1).num(0))}, d.gaz[6])

	m, hashes, err := Train(train, TrainOptions{Labels: []string{"PER", "LOC"}, Epochs: 2, MinCount: 1, Folds: 1, Ext: ext})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, m.Write(&buf, hashes))
	m2, err := Read(buf.Bytes())
	require.NoError(t, err)
	require.NotNil(t, m2.Ext)
	assert.True(t, m2.Ext.External)
	assert.True(t, m2.Ext.Lower)
	assert.False(t, m2.Ext.LowerAll)
	assert.Equal(t, ext.Phrases, m2.Ext.Phrases)
	assert.Equal(t, m.Tag(nil, train[0].Text, Tokenize(nil, train[0].Text), &Buffers{}),
		m2.Tag(nil, train[0].Text, Tokenize(nil, train[0].Text), &Buffers{}))
}

func TestExternalGazetteerSets(t *testing.T) {
	// With Sets, a phrase's whole label set and its primary label are
	// features too; the primary label of the first phrase to reach a
	// lower-case form stays.
	ext := NewGazetteer(6)
	ext.External, ext.Lower, ext.Sets = true, true, true
	london := Tokenize(nil, "London")
	ext.AddBits("London", london, 1<<0)
	ext.AddBits("London", london, 1<<4|5<<PrimaryShift)
	ext.AddBits("LONDON", london, 1<<2|3<<PrimaryShift)
	var d Doc
	text := "London"
	d.Reset(text, Tokenize(nil, text))
	d.Prepare(nil, nil, ext)
	assert.ElementsMatch(t, []uint64{
		uint64(start(84).num(1<<0 | 1<<4).num(0)),
		uint64(start(88).num(5).num(0)),
		uint64(start(80).num(0).num(0)),
		uint64(start(80).num(4).num(0)),
	}, d.gaz[0])
	text = "we all flew to london and then home again ."
	d.Reset(text, Tokenize(nil, text))
	d.Prepare(nil, nil, ext)
	assert.ElementsMatch(t, []uint64{
		uint64(start(85).num(1<<0 | 1<<2 | 1<<4).num(0)),
		uint64(start(89).num(5).num(0)),
		uint64(start(81).num(0).num(0)),
		uint64(start(81).num(2).num(0)),
		uint64(start(81).num(4).num(0)),
	}, d.gaz[4])
	// The flag survives a write and read.
	train := []Sentence{{Doc: "a", Text: "Angela Merkel visited London.", Entities: []GoldEntity{{Start: 0, End: 13, Label: "PER"}}}}
	m, hashes, err := Train(train, TrainOptions{Labels: []string{"PER"}, Epochs: 1, MinCount: 1, Ext: ext})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, m.Write(&buf, hashes))
	m2, err := Read(buf.Bytes())
	require.NoError(t, err)
	require.NotNil(t, m2.Ext)
	assert.True(t, m2.Ext.Sets)
}

func TestTrainSeeds(t *testing.T) {
	// Averaging over several orders gives a model that still fits its
	// training data, and one order reproduces the plain run exactly.
	sents := flightSentences()
	opt := TrainOptions{Labels: []string{"PER", "LOC"}, Epochs: 3, MinCount: 1, BILOU: true, Extra: true}
	plain, _, err := Train(sents, opt)
	require.NoError(t, err)
	opt.Seeds = 1
	one, _, err := Train(sents, opt)
	require.NoError(t, err)
	assert.Equal(t, plain.w, one.w)
	// OnEpoch sees every epoch's averaged model but the last.
	var seen []int
	opt.OnEpoch = func(ep int, m *Model) {
		seen = append(seen, ep)
		assert.Positive(t, m.NumFeatures())
	}
	_, _, err = Train(sents, opt)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, seen)
	opt.OnEpoch = nil
	opt.Seeds = 3
	three, _, err := Train(sents, opt)
	require.NoError(t, err)
	_, _, f, _ := Eval(three, sents)
	assert.InDelta(t, 1.0, f, 1e-9)
}

// flightSentences are twelve one-document sentences, "<name> flew to
// <city> today.", with the name as PER and the city as LOC.
func flightSentences() []Sentence {
	var sents []Sentence
	for i, name := range []string{"Alice", "Bob", "Carol", "Dave"} {
		for j, city := range []string{"Paris", "Rome", "Oslo"} {
			text := name + " flew to " + city + " today."
			sents = append(sents, Sentence{Doc: string(rune('a' + i*3 + j)), Text: text, Entities: []GoldEntity{
				{Start: 0, End: len(name), Label: "PER"},
				{Start: len(name) + 9, End: len(name) + 9 + len(city), Label: "LOC"},
			}})
		}
	}
	return sents
}

func TestClusterEvidenceAndCase(t *testing.T) {
	// "rarely" is seen twice, below the evidence threshold of 3: it keeps
	// a coarse cluster, marked thin, and no fine one. The frequent words
	// keep both, and the same clusters as without the threshold. "paris"
	// is capitalised inside sentences, "cat" not.
	var texts []string
	for range 5 {
		texts = append(texts, "The cat sat in Paris today.", "A dog sat in Rome today.")
	}
	texts = append(texts, "The cat rarely sat.", "A dog rarely sat.")
	opt := ClusterOptions{MinCount: 2, Context: 20, Coarse: 2, Fine: 4, Iters: 3}
	plain := Cluster(texts, opt)
	opt.Evidence, opt.Case = 3, true
	marked := Cluster(texts, opt)
	require.Equal(t, len(plain), len(marked))
	tests := []struct {
		word        string
		thin, lower bool
	}{
		{"rarely", true, true}, {"cat", false, true}, {"paris", false, false}, {"sat", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			v, ok := marked[tt.word]
			require.True(t, ok)
			assert.Equal(t, tt.thin, v&ClusterThin != 0)
			assert.Equal(t, tt.lower, v&ClusterLower != 0)
			assert.Equal(t, plain[tt.word]&ClusterCoarse, v&ClusterCoarse)
			if tt.thin {
				assert.Equal(t, int32(ClusterNoFine), v>>16)
			} else {
				assert.Equal(t, plain[tt.word]>>16, v>>16)
			}
		})
	}
}

func TestClusterFeaturesBackOff(t *testing.T) {
	// A thin word reads no fine cluster features: it has fewer cluster
	// features than the same word with a fine cluster, and none of the
	// fine ones.
	text := "Tesla said on Monday."
	toks := Tokenize(nil, text)
	var d Doc
	d.Reset(text, toks)
	d.Extra, d.Extra2 = true, true
	full := map[string]int32{"tesla": 7<<16 | 3, "said": 1<<16 | 0}
	d.Prepare(full, nil, nil)
	withFine := d.Features(nil, 0)
	thin := map[string]int32{"tesla": ClusterNoFine<<16 | ClusterThin | 3, "said": 1<<16 | 0}
	d.Prepare(thin, nil, nil)
	backedOff := d.Features(nil, 0)
	assert.Len(t, backedOff, len(withFine)-1)
	assert.NotContains(t, backedOff, uint64(start(34).num(7)))
	assert.Contains(t, withFine, uint64(start(34).num(7)))
}

func TestExtra4Features(t *testing.T) {
	// The fifth set reads a sentence-initial capitalised run from its
	// second word; a run that does not start the sentence, or a headline,
	// gets none of those features; it leaves the other sets as they were.
	clus := map[string]int32{"chinese": 4<<16 | 5, "he": ClusterLower, "vice": 42<<16 | 5 | ClusterLower}
	features := func(text string, i int, extra4 bool) []uint64 {
		var d Doc
		d.Reset(text, Tokenize(nil, text))
		d.Extra, d.Extra2, d.Extra3, d.Extra4 = true, true, true, extra4
		d.Prepare(clus, nil, nil)
		return d.Features(nil, i)
	}
	const initial = "Chinese Vice Premier He Lifeng met them."
	const inside = "Then Chinese Vice Premier He Lifeng met them."
	base := features(initial, 3, false)
	more := features(initial, 3, true)
	assert.Subset(t, more, base)
	assert.Contains(t, more, uint64(start(68).num(4).num(2)))
	assert.NotContains(t, features(inside, 4, true), uint64(start(68).num(4).num(2)))
	// Word-case classes: "He" inside a sentence is a capital on a word
	// usually in lower case.
	assert.Contains(t, more, uint64(start(71).num(1).num(1).num(0)))
	headline := features("CHINESE VICE PREMIER HE LIFENG MET THEM.", 3, true)
	assert.Len(t, headline, len(features("CHINESE VICE PREMIER HE LIFENG MET THEM.", 3, false)))
}

// TestViterbiPruned checks that pruning by the best previous closed tag
// never changes the tags: on random scores and transitions, some drawn
// from a few integers so that scores tie, and some far apart so that the
// pruning applies, for both schemes.
func TestViterbiPruned(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct {
		name   string
		per, n int
		draw   func() float32
	}{
		{"BIO ties", 2, 3, func() float32 { return float32(rng.IntN(3)) }},
		{"BILOU ties", 4, 3, func() float32 { return float32(rng.IntN(3)) }},
		{"BIO spread", 2, 5, func() float32 { return float32(rng.NormFloat64() * 100) }},
		{"BILOU spread", 4, 18, func() float32 { return float32(rng.NormFloat64() * 100) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScheme(tt.per, tt.n)
			T := s.T
			for range 200 {
				n := 1 + rng.IntN(12)
				scores := make([]float32, n*T)
				for i := range scores {
					scores[i] = tt.draw()
				}
				trans := make([]float32, (T+1)*T)
				for i := range trans {
					trans[i] = tt.draw() / 4
				}
				trT := Transpose(trans, T, 1)
				want := s.Viterbi(scores, trT, n, make([]int32, n*T), nil, make([]float32, T), make([]float32, T))
				got := s.viterbi(scores, trT, s.maxFromClosed(trT), n, make([]int32, n*T), nil, make([]float32, T), make([]float32, T))
				require.Equal(t, want, got)
			}
		})
	}
}

// TestScoreExact checks Score's sums (in integers, dense rows in lanes of
// 32 bits) against the trained weights added one by one in float32, and
// the float path Score takes for a token with too many features, with
// dense rows for none, some or all of the features (the small model's
// features have few tags).
func TestScoreExact(t *testing.T) {
	m, hashes, err := Train(flightSentences(), TrainOptions{Labels: []string{"PER", "LOC"}, Epochs: 2, MinCount: 1, Folds: 2, BILOU: true, Extra: true})
	require.NoError(t, err)
	index := map[uint64]int{}
	for f, h := range hashes {
		index[h] = f
	}
	T := m.T
	for _, tt := range []struct {
		name     string
		denseMin int
	}{
		{"runs", T},
		{"some dense", 2},
		{"all dense", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, m.buildTableDense(hashes, tt.denseMin))
			for _, text := range []string{"Alice flew to Oslo today.", "Eve and Bob flew from Rome to Paris, then to Lima."} {
				var b Buffers
				d := &b.Doc
				d.Extra = m.Extra
				d.Reset(text, Tokenize(nil, text))
				d.Prepare(m.Clus, m.Gaz, m.Ext)
				scores := make([]float32, len(d.Toks)*T)
				m.Score(d, scores, &b.score)
				for i := range d.Toks {
					feats := d.Features(nil, i)
					want := make([]float32, T)
					for _, h := range feats {
						if f, ok := index[h]; ok {
							for k := m.off[f]; k < m.off[f+1]; k++ {
								want[m.tag[k]] += float32(modelfile.Quantize16(m.w[k], m.qscale))
							}
						}
					}
					assert.Equal(t, want, scores[i*T:(i+1)*T], "token %d of %q", i, text)
					got := make([]float32, T)
					for _, r := range b.score.runs[b.score.ends[i]-len(feats) : b.score.ends[i]] {
						m.addFloat(got, r)
					}
					assert.Equal(t, want, got, "float path, token %d of %q", i, text)
				}
			}
		})
	}
	assert.NotEmpty(t, m.dense)
}

// TestPhraseTable checks the gazetteer's read-only table against its map:
// present and absent hashes, hash 0, and label sets of 0.
func TestPhraseTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	phrases := map[uint64]uint64{0: 7, 1: 0, 1 << 63: 5}
	for range 1000 {
		phrases[rng.Uint64()] = rng.Uint64() & 0xff
	}
	p := newPhraseTable(phrases)
	for _, tt := range []struct {
		name string
		h    uint64
	}{
		{"zero", 0}, {"set 0", 1}, {"top bit", 1 << 63}, {"absent", 2}, {"absent random", rng.Uint64()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, wantOK := phrases[tt.h]
			got, ok := p.get(tt.h)
			assert.Equal(t, wantOK, ok)
			assert.Equal(t, want, got)
		})
	}
	for h, want := range phrases {
		got, ok := p.get(h)
		require.True(t, ok)
		require.Equal(t, want, got)
	}
	_, ok := newPhraseTable(map[uint64]uint64{5: 1}).get(0)
	assert.False(t, ok)
}
