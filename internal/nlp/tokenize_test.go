package nlp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jdkato/prose/v2"
	"github.com/mingrammer/commonregex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// proseOwn is prose's tokenizer itself, as package nlp called it before
// the port: its tokens' texts, or its panic.
func proseOwn(t testing.TB, text string) (out []string, panicked any) {
	defer func() {
		if r := recover(); r != nil {
			out, panicked = nil, fmt.Sprint(r)
		}
	}()
	doc, err := prose.NewDocument(text, prose.WithTagging(false),
		prose.WithSegmentation(false), prose.WithExtraction(false))
	require.NoError(t, err)
	for _, tok := range doc.Tokens() {
		out = append(out, tok.Text)
	}
	return out, nil
}

// ported is the port's answer in proseOwn's terms.
func ported(text string) (out []string, panicked any) {
	toks, err := proseTokens(text)
	if err != nil {
		return nil, strings.TrimPrefix(err.Error(), "nlp: tokenize: ")
	}
	for _, tok := range toks {
		out = append(out, tok.Text)
	}
	return out, nil
}

func assertSame(t *testing.T, text string) {
	want, wantPanic := proseOwn(t, text)
	got, gotPanic := ported(text)
	assert.Equal(t, want, got, "%q", text)
	assert.Equal(t, wantPanic, gotPanic, "%q", text)
}

var tokenizeCases = []string{
	"", " ", "\n\t ", "word", "  lead and trail  ", "They'll say I'm sure you're Ada's; don't won't CAN'T.",
	"$100 (approx.) \"quoted\" [x] 'single' well)...", "U.S.A. Dr. Mr. e.g. i.e. Jan. St.",
	":-) (ಠ_ಠ) ¯\\(ツ)/¯ xD :(", "“curly” ‘quotes’ and&rsquo;s", "tab\tnew\nline\r\nspaces\u00a0nbsp\u2003em",
	"https://example.com/a?b=c mail@example.org @handle #tag", "((($$$)))", "'''", "a'll 's 'S n't N'T",
	"repeat repeat repeat. repeat", "日本語のテキスト、句読点。", "invalid \xff\xfe utf-8", "end with space ",
	"\xfe\xfen't", "İİn't", "KKKn't's",
}

// The port splits as prose does, on the fixture, the cases above and the
// tagger's corpus.
func TestTokenizeMatchesProse(t *testing.T) {
	all := append(append([]string{}, tokenizeCases...), fixture(t)...)
	all = append(all, corpusTexts(t, *corpus)...)
	for _, text := range all {
		assertSame(t, text)
	}
}

func FuzzTokenizeMatchesProse(f *testing.F) {
	for _, s := range tokenizeCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		assertSame(t, text)
	})
}

// The tagger's link and e-mail patterns are commonregex's.
func TestCommonregexPatterns(t *testing.T) {
	assert.Equal(t, commonregex.LinkPattern, linkPattern)
	assert.Equal(t, commonregex.EmailPattern, emailPattern)
}
