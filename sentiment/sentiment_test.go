package sentiment

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

func newTestAnalyzer(t testing.TB, opts Options) *Analyzer {
	t.Helper()
	a, err := New(opts)
	require.NoError(t, err)
	return a
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		model   string
		wantErr error
	}{
		{"zero options", Options{}, DefaultModel, nil},
		{"vader", Options{Model: ModelVADER}, ModelVADER, nil},
		{"unknown", Options{Model: "nope"}, "", ErrUnknownModel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := New(tt.opts)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Contains(t, err.Error(), ModelVADER)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.model, a.Model())
		})
	}
}

func TestModels(t *testing.T) {
	ms := Models()
	require.NotEmpty(t, ms)
	assert.Equal(t, DefaultModel, ms[0].Name)
	for _, m := range ms {
		_, err := New(Options{Model: m.Name})
		assert.NoError(t, err, m.Name)
		assert.NotEmpty(t, m.Description)
	}
}

func TestAnalyzeLimits(t *testing.T) {
	a := newTestAnalyzer(t, Options{MaxRunes: 5})
	_, err := a.Analyze(t.Context(), "ééééé")
	require.NoError(t, err)
	_, err = a.Analyze(t.Context(), "éééééé")
	require.ErrorIs(t, err, ErrTooLong)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = a.Analyze(ctx, "ok")
	require.ErrorIs(t, err, context.Canceled)
}

func TestAnalyzeVADER(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelVADER})
	tests := []struct {
		name string
		text string
		want Result
	}{
		{
			name: "empty",
			text: "",
			want: Result{Label: LabelNeutral, Sentences: []Sentence{}},
		},
		{
			name: "one sentence reuses the whole",
			text: " The soup is good. ",
			want: Result{Label: LabelPositive, Compound: 0.4404, Pos: 0.492, Neu: 0.508, Sentences: []Sentence{
				{Text: "The soup is good.", Start: 1, End: 18, Label: LabelPositive, Compound: 0.4404, Pos: 0.492, Neu: 0.508},
			}},
		},
		{
			name: "two sentences",
			text: "Soup is good. Bread is bad.",
			want: Result{Label: LabelNegative, Compound: -0.1531, Pos: 0.279, Neu: 0.385, Neg: 0.337, Sentences: []Sentence{
				{Text: "Soup is good.", Start: 0, End: 13, Label: LabelPositive, Compound: 0.4404, Pos: 0.592, Neu: 0.408},
				{Text: "Bread is bad.", Start: 14, End: 27, Label: LabelNegative, Compound: -0.5423, Neg: 0.636, Neu: 0.364},
			}},
		},
		{
			name: "neutral",
			text: "The table is wooden.",
			want: Result{Label: LabelNeutral, Neu: 1, Sentences: []Sentence{
				{Text: "The table is wooden.", Start: 0, End: 20, Label: LabelNeutral, Neu: 1},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := a.Analyze(t.Context(), tt.text)
			require.NoError(t, err)
			assert.Equal(t, &tt.want, got)
		})
	}
}

// goldenRecord is one line of testdata/golden_vader.jsonl.
type goldenRecord struct {
	Text     string  `json:"text"`
	Compound float64 `json:"compound"`
	Pos      float64 `json:"pos"`
	Neu      float64 `json:"neu"`
	Neg      float64 `json:"neg"`
	Label    string  `json:"label"`
	Sents    int     `json:"sentences"`
}

// TestGoldenVADER keeps the scores of testdata/golden_input.txt (one text
// per line; checked against the Python reference when written) from
// drifting. go test ./sentiment -update rewrites the golden file.
func TestGoldenVADER(t *testing.T) {
	a := newTestAnalyzer(t, Options{Model: ModelVADER})
	in, err := os.ReadFile(filepath.Join("testdata", "golden_input.txt"))
	require.NoError(t, err)
	var got []goldenRecord
	for line := range strings.Lines(string(in)) {
		line = strings.TrimSuffix(line, "\n")
		r, err := a.Analyze(t.Context(), line)
		require.NoError(t, err)
		got = append(got, goldenRecord{Text: line, Compound: r.Compound, Pos: r.Pos, Neu: r.Neu, Neg: r.Neg, Label: r.Label, Sents: len(r.Sentences)})
	}
	path := filepath.Join("testdata", "golden_vader.jsonl")
	if *update {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		for _, g := range got {
			require.NoError(t, enc.Encode(g))
		}
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var want []goldenRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var g goldenRecord
		require.NoError(t, json.Unmarshal(sc.Bytes(), &g))
		want = append(want, g)
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, want, got)
}

func TestAnalyzeConcurrent(t *testing.T) {
	a := newTestAnalyzer(t, Options{})
	texts := []string{"The soup is good.", "Soup 😀 but bad!", "NOT GOOD AT ALL. Really?!", ""}
	want := make([]*Result, len(texts))
	for i, s := range texts {
		r, err := a.Analyze(t.Context(), s)
		require.NoError(t, err)
		want[i] = r
	}
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for k := range 200 {
				i := (g + k) % len(texts)
				r, err := a.Analyze(context.Background(), texts[i])
				if err == nil && (r.Compound != want[i].Compound || len(r.Sentences) != len(want[i].Sentences)) {
					err = errors.New("different result")
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		require.NoError(t, <-errs)
	}
}

// checkResult verifies the invariants every result keeps.
func checkResult(t testing.TB, text string, r *Result) {
	t.Helper()
	inRange := func(name string, x, lo, hi float64) {
		if !(x >= lo && x <= hi) {
			t.Fatalf("%s = %v out of [%v, %v] for %q", name, x, lo, hi, text)
		}
	}
	check := func(label string, c, p, u, n float64) {
		inRange("compound", c, -1, 1)
		inRange("pos", p, 0, 1)
		inRange("neu", u, 0, 1)
		inRange("neg", n, 0, 1)
		if label != labelOf(c) {
			t.Fatalf("label %q for compound %v", label, c)
		}
	}
	check(r.Label, r.Compound, r.Pos, r.Neu, r.Neg)
	if r.Sentences == nil {
		t.Fatalf("nil sentences for %q", text)
	}
	rs := []rune(text)
	prev := 0
	for _, s := range r.Sentences {
		if s.Start < prev || s.Start >= s.End || s.End > len(rs) || string(rs[s.Start:s.End]) != string([]rune(s.Text)) {
			t.Fatalf("bad sentence %+v in %q", s, text)
		}
		prev = s.End
		check(s.Label, s.Compound, s.Pos, s.Neu, s.Neg)
	}
	if utf8.ValidString(text) && strings.TrimFunc(text, isPySpace) != "" && len(r.Sentences) == 0 {
		t.Fatalf("no sentence in %q", text)
	}
}

func TestWholeOnlyKeepsTheWholeTextScores(t *testing.T) {
	text := "The room was lovely. The staff were rude! Breakfast was fine."
	for _, model := range []string{ModelVADER, ModelHybrid} {
		full, err := New(Options{Model: model})
		require.NoError(t, err)
		whole, err := New(Options{Model: model, WholeOnly: true})
		require.NoError(t, err)
		a, err := full.Analyze(context.Background(), text)
		require.NoError(t, err)
		b, err := whole.Analyze(context.Background(), text)
		require.NoError(t, err)
		assert.Len(t, a.Sentences, 3, model)
		assert.Empty(t, b.Sentences, model)
		a.Sentences, b.Sentences = nil, nil
		assert.Equal(t, a, b, model)
	}
}
