package nlp

import (
	"fmt"
	"strings"
	"sync"

	"github.com/jdkato/prose/v2"
	"gopkg.in/neurosnap/sentences.v1"
	"gopkg.in/neurosnap/sentences.v1/english"

	"github.com/textanalysis/go-textanalysis/internal/align"
)

// A Token is a word or punctuation mark with its part-of-speech tag (Penn
// Treebank tags, empty when not tagged) and code-point offsets, end exclusive.
// Text is the text as it stands in the input (curly quotes included;
// bytes of invalid UTF-8 read as U+FFFD, as []rune counts them).
type Token struct {
	Text  string
	Tag   string
	Start int
	End   int
}

// A Sentence is a span of the input in code points, end exclusive, with
// surrounding white space trimmed.
type Sentence struct {
	Text  string
	Start int
	End   int
}

var splitter = sync.OnceValues(func() (*sentences.DefaultSentenceTokenizer, error) {
	t, err := english.NewSentenceTokenizer(nil)
	if err != nil {
		return nil, fmt.Errorf("nlp: load sentence splitter: %w", err)
	}
	return t, nil
})

// Load loads the shared models now rather than on first use, so that a
// server pays the cost at start and reports a broken model early.
func Load() error {
	if _, err := loadTagger(); err != nil {
		return err
	}
	_, err := splitter()
	return err
}

// Tokenize splits text into tokens with prose's tokenizer, without tags.
func Tokenize(text string) ([]Token, error) {
	return run(text, false)
}

// Tag splits text into tokens and tags each with its part of speech.
func Tag(text string) ([]Token, error) {
	return run(text, true)
}

func run(text string, tag bool) ([]Token, error) {
	text = align.Valid(text)
	var t *tagger
	if tag {
		var err error
		if t, err = loadTagger(); err != nil {
			return nil, err
		}
	}
	ptoks, err := proseTokens(text)
	if err != nil {
		return nil, err
	}
	if t != nil {
		words := make([]string, len(ptoks))
		for i, pt := range ptoks {
			words[i] = pt.Text
		}
		for i, tg := range t.tagWords(words) {
			ptoks[i].Tag = tg
		}
	}
	return locate(text, ptoks), nil
}

// proseTokens runs prose's tokenizer alone (no tagger, no model: prose
// builds none when tagging and extraction are off).
func proseTokens(text string) (toks []prose.Token, err error) {
	defer func() {
		if r := recover(); r != nil {
			toks, err = nil, fmt.Errorf("nlp: tokenize: %v", r)
		}
	}()
	doc, err := prose.NewDocument(text,
		prose.WithTagging(false),
		prose.WithSegmentation(false),
		prose.WithExtraction(false))
	if err != nil {
		return nil, fmt.Errorf("nlp: tokenize: %w", err)
	}
	return doc.Tokens(), nil
}

// locate finds each prose token in text. prose normalises curly quotes and
// "&rsquo;" and may drop characters; a token that cannot be found where
// expected is dropped rather than given a wrong offset.
func locate(text string, ptoks []prose.Token) []Token {
	idx := align.NewIndex(text)
	out := make([]Token, 0, len(ptoks))
	pos := 0
	for _, pt := range ptoks {
		s, e, ok := align.Find(text, pt.Text, pos)
		if !ok && pt.Text == "'" {
			s, e, ok = align.Find(text, "&rsquo;", pos)
		}
		if !ok {
			continue
		}
		// A match far ahead means the token was not where the tokenizer
		// saw it; skipping it keeps later tokens aligned.
		if gap := strings.TrimSpace(text[pos:s]); len(gap) > 16 {
			continue
		}
		out = append(out, Token{Text: text[s:e], Tag: pt.Tag, Start: idx.Runes(s), End: idx.Runes(e)})
		pos = e
	}
	return out
}

// Sentences splits text into sentences with prose's punkt model.
func Sentences(text string) ([]Sentence, error) {
	t, err := splitter()
	if err != nil {
		return nil, err
	}
	text = align.Valid(text)
	idx := align.NewIndex(text)
	var out []Sentence
	for _, s := range t.Tokenize(text) {
		start, end := s.Start, s.End
		if start < 0 || end > len(text) || start >= end {
			continue
		}
		// Trim white space so the span holds only the sentence.
		for start < end && isSpace(text[start]) {
			start++
		}
		for end > start && isSpace(text[end-1]) {
			end--
		}
		if start == end {
			continue
		}
		out = append(out, Sentence{Text: text[start:end], Start: idx.Runes(start), End: idx.Runes(end)})
	}
	return out, nil
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\n' || b == '\t' || b == '\r' || b == '\f' || b == '\v'
}
