package nlp

import (
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/jdkato/prose/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	update = flag.Bool("update", false, "rewrite testdata/tags.golden")
	corpus = flag.String("nlp.corpus", "testdata/sentences.txt",
		"text for TestAgreesWithProse: a file of lines, or a SQuAD JSON file (contexts and questions)")
)

func fixture(t testing.TB) []string {
	b, err := os.ReadFile("testdata/sentences.txt")
	require.NoError(t, err)
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func tagged(t testing.TB, text string) string {
	toks, err := Tag(text)
	require.NoError(t, err)
	var b strings.Builder
	for i, tok := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(tok.Text + "/" + tok.Tag)
	}
	return b.String()
}

// TestTagGolden pins the tags of the fixture sentences; rewrite with
// go test ./internal/nlp -run TestTagGolden -update.
func TestTagGolden(t *testing.T) {
	var lines []string
	for _, s := range fixture(t) {
		lines = append(lines, tagged(t, s))
	}
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		require.NoError(t, os.WriteFile("testdata/tags.golden", []byte(got), 0o644))
	}
	want, err := os.ReadFile("testdata/tags.golden")
	require.NoError(t, err)
	assert.Equal(t, string(want), got)
}

func TestTagDeterministic(t *testing.T) {
	texts := fixture(t)
	want := make([]string, len(texts))
	for i, s := range texts {
		want[i] = tagged(t, s)
	}
	for range 20 {
		for i, s := range texts {
			require.Equal(t, want[i], tagged(t, s))
		}
	}
	var wg sync.WaitGroup
	got := make([][]string, 8)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				for _, s := range texts {
					toks, err := Tag(s)
					if err != nil {
						got[g] = append(got[g], err.Error())
						continue
					}
					var b strings.Builder
					for i, tok := range toks {
						if i > 0 {
							b.WriteByte(' ')
						}
						b.WriteString(tok.Text + "/" + tok.Tag)
					}
					got[g] = append(got[g], b.String())
				}
			}
		}()
	}
	wg.Wait()
	for g := range got {
		require.Len(t, got[g], 5*len(texts))
		for i, s := range got[g] {
			require.Equal(t, want[i%len(texts)], s, "goroutine %d", g)
		}
	}
}

func TestTagWordsRules(t *testing.T) {
	tg, err := loadTagger()
	require.NoError(t, err)
	tests := []struct {
		name  string
		words []string
		want  []string
	}{
		{"hyphen token", []string{"a", "-", "b"}, []string{"DT", "-", "NN"}},
		{"emoticon", []string{"great", ":-)"}, []string{"JJ", "SYM"}},
		{"link email handle", []string{"see", "https://example.org", "info@example.com", "@ada"}, []string{"VB", "NN", "NN", "NN"}},
		{"none and keep", []string{"*", "-LRB-"}, []string{"-NONE-", "-LRB-"}},
		{"tag dictionary", []string{"the", "and", "."}, []string{"DT", "CC", "."}},
		{"empty", nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tg.tagWords(tt.words))
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"well-known", "!HYPHEN"},
		{"-5", "-5"},
		{"1999", "!YEAR"},
		{"-123", "!YEAR"},
		{"12345", "!DIGITS"},
		{"3rd", "!DIGITS"},
		{"London", "london"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, normalize(tt.in), tt.in)
	}
}

func corpusTexts(t testing.TB, path string) []string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	if !strings.HasSuffix(path, ".json") {
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	var squad struct {
		Data []struct {
			Paragraphs []struct {
				Context string `json:"context"`
				QAs     []struct {
					Question string `json:"question"`
				} `json:"qas"`
			} `json:"paragraphs"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(b, &squad))
	var texts []string
	for _, a := range squad.Data {
		for _, p := range a.Paragraphs {
			texts = append(texts, p.Context)
			for _, q := range p.QAs {
				texts = append(texts, q.Question)
			}
		}
	}
	return texts
}

// TestAgreesWithProse tags the corpus with prose's own tagger and with ours,
// on prose's tokens. prose's tokenizer caches the tokens of each
// white-space-separated span (but the text's last) and hands the same
// *Token to every repeat of the span, so prose reports for each repeat the
// tag its last repeat got; we tag each occurrence on its own. The test
// compares both with prose as is and with that sharing applied to our
// tags; the latter differs only where prose's map-order sums and ties
// flip a near-tied tag.
func TestAgreesWithProse(t *testing.T) {
	tg, err := loadTagger()
	require.NoError(t, err)
	m := prose.ModelFromData("test")
	var same, sameShared, total int
	var diffs []string
	for _, text := range corpusTexts(t, *corpus) {
		doc, err := prose.NewDocument(text, prose.UsingModel(m),
			prose.WithSegmentation(false), prose.WithExtraction(false))
		require.NoError(t, err)
		ptoks := doc.Tokens()
		words := make([]string, len(ptoks))
		for i, pt := range ptoks {
			words[i] = pt.Text
		}
		ours := tg.tagWords(words)
		shared := shareTags(text, words, ours)
		for i, tag := range ours {
			total++
			if tag == ptoks[i].Tag {
				same++
			}
			if shared[i] == ptoks[i].Tag {
				sameShared++
			} else if len(diffs) < 20 {
				diffs = append(diffs, words[i]+": prose "+ptoks[i].Tag+", ours "+shared[i])
			}
		}
	}
	require.Positive(t, total)
	rate := float64(sameShared) / float64(total)
	t.Logf("%s: %d tokens; ours agree with prose on %d (%.4f%%), with prose's token sharing applied on %d (%.4f%%); differences then: %v",
		*corpus, total, same, 100*float64(same)/float64(total), sameShared, 100*rate, diffs)
	assert.GreaterOrEqual(t, rate, 0.999)
}

var proseSanitizer = strings.NewReplacer("\u201c", `"`, "\u201d", `"`, "\u2018", "'", "\u2019", "'", "&rsquo;", "'")

// shareTags gives each token the tag of the same token in the last earlier
// or later repeat of its white-space-separated span, as prose's tokenizer
// cache does (the text's last span is not cached). When the tokens cannot
// be matched to the spans it returns tags unchanged.
func shareTags(text string, words, tags []string) []string {
	fields := strings.FieldsFunc(proseSanitizer.Replace(text), unicode.IsSpace)
	type occ struct{ first, n int }
	occs := make([]occ, len(fields))
	k := 0
	for f, field := range fields {
		occs[f].first = k
		var b strings.Builder
		for k < len(words) && b.Len() < len(field) {
			b.WriteString(words[k])
			k++
		}
		if b.String() != field {
			return tags
		}
		occs[f].n = k - occs[f].first
	}
	if k != len(words) {
		return tags
	}
	last := map[string]int{}
	for f := range len(fields) - 1 {
		last[fields[f]] = f
	}
	out := slices.Clone(tags)
	for f := range len(fields) - 1 {
		l := last[fields[f]]
		for j := range occs[f].n {
			out[occs[f].first+j] = tags[occs[l].first+j]
		}
	}
	return out
}

func BenchmarkTagger(b *testing.B) {
	text := strings.Join(fixture(b), " ")
	b.Run("ours", func(b *testing.B) {
		_, err := loadTagger()
		require.NoError(b, err)
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, err := Tag(text); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("prose", func(b *testing.B) {
		m := prose.ModelFromData("bench")
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			doc, err := prose.NewDocument(text, prose.UsingModel(m),
				prose.WithSegmentation(false), prose.WithExtraction(false))
			if err != nil {
				b.Fatal(err)
			}
			if len(doc.Tokens()) == 0 {
				b.Fatal("no tokens")
			}
		}
	})
}
