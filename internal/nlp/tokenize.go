package nlp

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file is prose v2.0.0's tokenizer (tokenize.go and the helpers it
// uses from utilities.go; MIT, Joseph Kato), ported so that the binary
// does not link prose: importing prose runs the init of its dependency
// mingrammer/commonregex, which compiles 29 regular expressions (5-8 ms
// of CPU at the start of every process, whatever the command), and links
// gonum, gob and prose's own models. TestTokenizeMatchesProse and
// FuzzTokenizeMatchesProse check it against prose, token for token.
//
// One difference that does not show: prose caches the tokens of a
// white-space-separated span and hands the same *Token to every repeat;
// Document.Tokens copies them into values, which is all we ever saw.

// proseToken is a token as prose's tokenizer makes it, with the tag our
// tagger gives it.
type proseToken struct {
	Text string
	Tag  string
}

var (
	proseInternalRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[A-Za-z]\.){2,}$|^[A-Z][a-z]{1,2}\.$`)
	})
	proseSanitizer = strings.NewReplacer(
		"\u201c", `"`,
		"\u201d", `"`,
		"\u2018", "'",
		"\u2019", "'",
		"&rsquo;", "'")
	proseSuffixes = []string{",", ")", `"`, "]", "!", ";", ".", "?", ":", "'"}
	prosePrefixes = []string{"$", "(", `"`, "["}
)

// proseTokens splits text as prose.NewDocument with tagging, segmentation
// and extraction off does. prose slices a token at an index found in its
// lower case, which can be longer or shorter ("İ", "K"): the panic that
// follows is an error.
func proseTokens(text string) (tokens []proseToken, err error) {
	defer func() {
		if r := recover(); r != nil {
			tokens, err = nil, fmt.Errorf("nlp: tokenize: %v", r)
		}
	}()
	clean, white := proseSanitizer.Replace(text), false
	length := len(clean)
	start, index := 0, 0
	cache := map[string][]string{}
	add := func(span string) {
		toks, found := cache[span]
		if !found {
			toks = proseSplit(span)
			cache[span] = toks
		}
		for _, s := range toks {
			tokens = append(tokens, proseToken{Text: s})
		}
	}
	for index <= length {
		uc, size := utf8.DecodeRuneInString(clean[index:])
		if size == 0 {
			break
		} else if index == 0 {
			white = unicode.IsSpace(uc)
		}
		if unicode.IsSpace(uc) != white {
			if start < index {
				add(clean[start:index])
			}
			if uc == ' ' {
				start = index + 1
			} else {
				start = index
			}
			white = !white
		}
		index += size
	}
	if start < index {
		for _, s := range proseSplit(clean[start:index]) {
			tokens = append(tokens, proseToken{Text: s})
		}
	}
	return tokens, nil
}

func proseSpecial(token string) bool {
	return emoticons[token] || proseInternalRE().MatchString(token)
}

func proseAdd(s string, toks []string) []string {
	if strings.TrimSpace(s) != "" {
		toks = append(toks, s)
	}
	return toks
}

// proseSplit is prose's doSplit.
func proseSplit(token string) []string {
	tokens := []string{}
	suffs := []string{}
	last := 0
	for token != "" && utf8.RuneCountInString(token) != last {
		if proseSpecial(token) {
			// A special case (an emoticon, say): one token as it stands.
			tokens = proseAdd(token, tokens)
			break
		}
		last = utf8.RuneCountInString(token)
		lower := strings.ToLower(token)
		if hasAnyPrefix(token, prosePrefixes) {
			// $100 -> [$, 100].
			tokens = proseAdd(string(token[0]), tokens)
			token = token[1:]
		} else if idx := hasAnyIndex(lower, []string{"'ll", "'s", "'re", "'m"}); idx > -1 {
			// they'll -> [they, 'll].
			tokens = proseAdd(token[:idx], tokens)
			token = token[idx:]
		} else if idx := hasAnyIndex(lower, []string{"n't"}); idx > -1 {
			// don't -> [do, n't].
			tokens = proseAdd(token[:idx], tokens)
			token = token[idx:]
		} else if hasAnySuffix(token, proseSuffixes) {
			// Well) -> [Well, )].
			suffs = append([]string{string(token[len(token)-1])}, suffs...)
			token = token[:len(token)-1]
		} else {
			tokens = proseAdd(token, tokens)
		}
	}
	return append(tokens, suffs...)
}

func hasAnyPrefix(s string, prefixes []string) bool {
	n := len(s)
	for _, prefix := range prefixes {
		if n > len(prefix) && strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func hasAnySuffix(s string, suffixes []string) bool {
	n := len(s)
	for _, suffix := range suffixes {
		if n > len(suffix) && strings.HasSuffix(s, suffix) {
			return true
		}
	}
	return false
}

func hasAnyIndex(s string, suffixes []string) int {
	n := len(s)
	for _, suffix := range suffixes {
		idx := strings.Index(s, suffix)
		if idx >= 0 && n > len(suffix) {
			return idx
		}
	}
	return -1
}
