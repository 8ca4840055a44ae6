package ner

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"encoding/json"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

func testRecognizer(tb testing.TB, model string) *Recognizer {
	tb.Helper()
	r, err := New(Options{Model: model})
	require.NoError(tb, err)
	return r
}

// checkSpans fails unless every entity's offsets select its text.
func checkSpans(tb testing.TB, text string, ents []Entity) {
	tb.Helper()
	rs := []rune(text)
	prev := 0
	for _, e := range ents {
		if e.Start < prev || e.Start >= e.End || e.End > len(rs) || string(rs[e.Start:e.End]) != e.Text {
			tb.Fatalf("bad span %+v in %q", e, text)
		}
		prev = e.End
		// Boundaries hold on real text: no emoji, no change of script,
		// and a letter, digit or kept sign at each edge.
		script := tagger.NoScript
		for _, r := range e.Text {
			if tagger.IsPictograph(r) {
				tb.Fatalf("entity %+v holds an emoji in %q", e, text)
			}
			if sc := tagger.ScriptOf(r); sc != tagger.NoScript {
				if script != tagger.NoScript && sc != script {
					tb.Fatalf("entity %+v mixes scripts in %q", e, text)
				}
				script = sc
			}
		}
		last, _ := utf8.DecodeLastRuneInString(e.Text)
		if strings.ContainsRune(",;:", last) {
			tb.Fatalf("entity %+v ends with punctuation in %q", e, text)
		}
	}
}

func TestRecognize(t *testing.T) {
	r := testRecognizer(t, "")
	tests := []struct {
		name string
		text string
		want []Entity // entities that must be among the results
	}{
		{"plain", "Ada Lovelace was born in London in 1815.", []Entity{
			{Text: "Ada Lovelace", Label: Person, Start: 0, End: 12},
			{Text: "London", Label: GPE, Start: 25, End: 31},
			{Text: "1815", Label: Date, Start: 35, End: 39},
		}},
		{"curly quotes and newline", "Zoë said “don’t go” to Barack Obama in\nParis.", []Entity{
			{Text: "Barack Obama", Label: Person, Start: 23, End: 35},
			{Text: "Paris", Label: GPE, Start: 39, End: 44},
		}},
		{"entity ends the text", "Shares of Microsoft rose 5%", []Entity{
			{Text: "Microsoft", Label: Org, Start: 10, End: 19},
			{Text: "5%", Label: Percent, Start: 25, End: 27},
		}},
		{"invalid utf-8", "\xff\xfe Angela Merkel visited Berlin.", []Entity{
			{Text: "Angela Merkel", Label: Person, Start: 3, End: 16},
			{Text: "Berlin", Label: GPE, Start: 25, End: 31},
		}},
		{"name after a sentence-initial nationality and title", "Chinese Vice Premier He Lifeng met U.S. Treasury Secretary Janet Yellen in Zürich on Friday.", []Entity{
			{Text: "Chinese", Label: NORP, Start: 0, End: 7},
			{Text: "He Lifeng", Label: Person, Start: 21, End: 30},
		}},
		{"name after a title, before a plain verb", "Chinese Vice Premier He Lifeng met Apple CEO Tim Cook in Beijing.", []Entity{
			{Text: "He Lifeng", Label: Person, Start: 21, End: 30},
			{Text: "Tim Cook", Label: Person, Start: 45, End: 53},
		}},
		{"empty", "", nil},
		{"space only", " \n\t ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.Recognize(t.Context(), tt.text)
			require.NoError(t, err)
			require.NotNil(t, got)
			checkSpans(t, tt.text, got)
			for _, w := range tt.want {
				assert.Contains(t, got, w)
			}
			if tt.want == nil {
				assert.Empty(t, got)
			}
		})
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		model   string
		wantErr error
		msg     string
	}{
		{"default", "", nil, ""},
		{"ontonotes", "ontonotes", nil, ""},
		{"conll", "conll", nil, ""},
		{"unknown", "spacy", ErrUnknownModel, `ner: unknown model "spacy" (known: ontonotes, conll)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := New(Options{Model: tt.model})
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, tt.msg, err.Error())
				return
			}
			require.NoError(t, err)
			want := tt.model
			if want == "" {
				want = DefaultModel
			}
			assert.Equal(t, want, r.Model().Name)
		})
	}
}

func TestModels(t *testing.T) {
	ms := Models()
	require.Len(t, ms, 2)
	assert.Equal(t, DefaultModel, ms[0].Name)
	assert.True(t, ms[0].Default)
	assert.False(t, ms[1].Default)
	assert.Len(t, ms[0].Labels, 18)
	assert.Equal(t, []Label{Person, Org, Loc, Misc}, ms[1].Labels)
	// The registry is not shared with callers.
	ms[0].Labels[0] = "X"
	assert.Equal(t, Person, Models()[0].Labels[0])
}

func TestConllModel(t *testing.T) {
	r := testRecognizer(t, "conll")
	got, err := r.Recognize(t.Context(), "German Chancellor Angela Merkel met Google executives in Brussels.")
	require.NoError(t, err)
	assert.Contains(t, got, Entity{Text: "Angela Merkel", Label: Person, Start: 18, End: 31})
	assert.Contains(t, got, Entity{Text: "German", Label: Misc, Start: 0, End: 6})
	for _, e := range got {
		assert.Contains(t, r.Model().Labels, e.Label)
	}
}

func TestTooLong(t *testing.T) {
	r, err := New(Options{MaxRunes: 5})
	require.NoError(t, err)
	_, err = r.Recognize(t.Context(), "ééééé")
	require.NoError(t, err)
	_, err = r.Recognize(t.Context(), "éééééé")
	require.ErrorIs(t, err, ErrTooLong)
}

func TestCanceled(t *testing.T) {
	r := testRecognizer(t, "")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := r.Recognize(ctx, "Ada Lovelace")
	require.ErrorIs(t, err, context.Canceled)
}

func TestConcurrentDeterministic(t *testing.T) {
	r := testRecognizer(t, "")
	text := readNews(t)
	want, err := r.Recognize(t.Context(), text)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			got, err := r.Recognize(context.Background(), text)
			assert.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
	wg.Wait()
}

func readNews(tb testing.TB) string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "news.txt"))
	require.NoError(tb, err)
	return string(data)
}

// TestGolden records the default model's entities for testdata/news.txt, so
// that a retrained model's changes show up as a diff (go test ./ner -update).
func TestGolden(t *testing.T) {
	for _, model := range []string{"ontonotes", "conll"} {
		t.Run(model, func(t *testing.T) {
			r := testRecognizer(t, model)
			text := readNews(t)
			ents, err := r.Recognize(t.Context(), text)
			require.NoError(t, err)
			checkSpans(t, text, ents)
			var b strings.Builder
			for _, e := range ents {
				line, err := json.Marshal(e)
				require.NoError(t, err)
				b.Write(line)
				b.WriteByte('\n')
			}
			path := filepath.Join("testdata", "news."+model+".golden.jsonl")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(want), b.String())
		})
	}
}

func TestErrorsAreSentinels(t *testing.T) {
	_, err := New(Options{Model: "nope"})
	assert.True(t, errors.Is(err, ErrUnknownModel))
	assert.False(t, errors.Is(err, ErrTooLong))
}

func FuzzRecognizeSpans(f *testing.F) {
	f.Add("Ada met “Alan” in\nLondon.")
	f.Add("\xff\xfeU.S. Corp.\n\n$5--6 Jean-Luc's 'don't' ``Mr. X.''")
	f.Add("Angela Merkel 👍🏽 and Barack Obama בירושלים paid $172.50 on Friday, April 7, 2023, in Zu\u0308rich.")
	f.Add("Ame\u0301lie 👨‍👩‍👧 🇩🇪 1️⃣ Putinом")
	// Crashed x/text's norm.Iter when align.Fold used it.
	f.Add("Ame\u0301lie 0\uffac\u08e8\uffac Angela Merkel")
	r := testRecognizer(f, "")
	f.Fuzz(func(t *testing.T, text string) {
		ents, err := r.Recognize(t.Context(), text)
		if err != nil {
			t.Fatal(err)
		}
		checkSpans(t, text, ents)
	})
}

func BenchmarkRecognize(b *testing.B) {
	r := testRecognizer(b, "")
	text := readNews(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := r.Recognize(b.Context(), text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewRecognize would catch a model being decoded on every New or
// Recognize: it must cost about as much as BenchmarkRecognize on a short text.
func BenchmarkNewRecognize(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len("Ada Lovelace was born in London.")))
	for b.Loop() {
		r, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Recognize(b.Context(), "Ada Lovelace was born in London."); err != nil {
			b.Fatal(err)
		}
	}
}

// Headlines, chat and transcripts come in one case: the names are found
// in all three spellings of a sentence, with the same labels.
func TestRecognizeAnyCase(t *testing.T) {
	r := testRecognizer(t, "")
	for _, text := range []string{
		"Ada Lovelace was born in London in 1815.",
		"ADA LOVELACE WAS BORN IN LONDON IN 1815.",
		"ada lovelace was born in london in 1815.",
	} {
		t.Run(text, func(t *testing.T) {
			ents, err := r.Recognize(t.Context(), text)
			require.NoError(t, err)
			var got []string
			for _, e := range ents {
				got = append(got, strings.ToLower(e.Text)+"/"+string(e.Label))
			}
			assert.Equal(t, []string{"ada lovelace/PERSON", "london/GPE", "1815/DATE"}, got)
		})
	}
}

// The second stage only relabels or drops the tagger's entities, so what
// SkipSecondStage returns covers every span of the default output; each
// model has a second stage of its own, so on the news text it changes
// something.
func TestSkipSecondStage(t *testing.T) {
	news, err := os.ReadFile(filepath.Join("testdata", "news.txt"))
	require.NoError(t, err)
	texts := append(strings.Split(string(news), "\n"),
		"The Mississippi River rose 12 feet after three days of rain.",
		"Apple said the iPhone sold well in Zürich on Friday.",
		"Tesla said on Monday that Elon Musk would visit Berlin.",
	)
	for _, model := range []string{"ontonotes", "conll"} {
		t.Run(model, func(t *testing.T) {
			full := testRecognizer(t, model)
			first, err := New(Options{Model: model, SkipSecondStage: true})
			require.NoError(t, err)
			changed := 0
			for _, text := range texts {
				got, err := full.Recognize(context.Background(), text)
				require.NoError(t, err)
				raw, err := first.Recognize(context.Background(), text)
				require.NoError(t, err)
				spans := map[[2]int]bool{}
				for _, e := range raw {
					spans[[2]int{e.Start, e.End}] = true
				}
				for _, e := range got {
					assert.True(t, spans[[2]int{e.Start, e.End}], "%q: %q (%s) not found by the tagger alone", text, e.Text, e.Label)
				}
				assert.GreaterOrEqual(t, len(raw), len(got), text)
				if !assert.ObjectsAreEqual(raw, got) {
					changed++
				}
			}
			assert.Positive(t, changed, "the second stage changed nothing: is it loaded?")
		})
	}
}

// A word in a script without capitals (Hebrew, Han, …) beside a name
// changes nothing about the name: the models read the sentence without
// it, and the offsets still count the text as given.
func TestRecognizeBesideCaselessScript(t *testing.T) {
	r := testRecognizer(t, "")
	tests := []struct {
		text string
		want []Entity
	}{
		{"Barack Obama בירושלים spoke on Monday.", []Entity{
			{Text: "Barack Obama", Label: Person, Start: 0, End: 12},
			{Text: "Monday", Label: Date, Start: 31, End: 37},
		}},
		{"Yesterday Barack Obama בירושלים spoke.", []Entity{
			{Text: "Yesterday", Label: Date, Start: 0, End: 9},
			{Text: "Barack Obama", Label: Person, Start: 10, End: 22},
		}},
		{"Tokyo (東京) is the capital of Japan.", []Entity{
			{Text: "Tokyo", Label: GPE, Start: 0, End: 5},
			{Text: "Japan", Label: GPE, Start: 29, End: 34},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			ents, err := r.Recognize(t.Context(), tt.text)
			require.NoError(t, err)
			assert.Equal(t, tt.want, ents)
		})
	}
}
