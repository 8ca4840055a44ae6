package core

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"strings"
	"sync"
)

//go:embed hypernyms.txt.gz
var hypernymData []byte

// classes maps a noun to the stems of the classes it belongs to, space
// separated with a space at each end (" country island "): WordNet's
// hypernyms of its two most frequent senses, written by qa/cmd/genlemmas.
var classes = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	zr, err := gzip.NewReader(bytes.NewReader(hypernymData))
	if err != nil {
		return m
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return m
	}
	var sb strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		w, cs, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		sb.Reset()
		sb.WriteByte(' ')
		for _, c := range strings.Fields(cs) {
			sb.WriteString(Stem(c))
			sb.WriteByte(' ')
		}
		m[w] = sb.String()
	}
	return m
})

// IsA reports whether WordNet knows the noun word (lower case, singular
// or a regular plural) and, if so, whether it belongs to the class whose
// stem is class ("ireland" is a "country").
func IsA(word, class string) (known, is bool) {
	cs, ok := lookupClasses(word)
	if !ok {
		return false, false
	}
	return true, strings.Contains(cs, " "+class+" ")
}

// lookupClasses returns the classes of a noun, trying the singular of a
// regular plural.
func lookupClasses(word string) (string, bool) {
	m := classes()
	cs, ok := m[word]
	if !ok {
		switch {
		case strings.HasSuffix(word, "ies"):
			cs, ok = m[word[:len(word)-3]+"y"]
		case strings.HasSuffix(word, "es"):
			if cs, ok = m[word[:len(word)-2]]; !ok {
				cs, ok = m[word[:len(word)-1]]
			}
		case strings.HasSuffix(word, "s"):
			cs, ok = m[word[:len(word)-1]]
		}
	}
	return cs, ok
}

// broadClasses are the WordNet classes the features generalise over: a
// span's last word and the question's head noun are described by those
// they belong to.
var broadClasses = strings.Fields(`person people leader ruler location region country city river
organization institution artifact structure building device instrument vehicle event act activity
battle game sport substance material chemical food state disease quality cognition belief religion
language writing document work science discipline period time number measure amount currency color
phenomenon process position animal plant body`)

// broadStems are the stems of broadClasses (fewer than 62: the features
// keep two bits of a uint64 for themselves).
var broadStems = sync.OnceValue(func() []string {
	out := make([]string, len(broadClasses))
	for i, c := range broadClasses {
		out[i] = Stem(c)
	}
	return out
})

// Broad returns the broad classes (indices into broadClasses) of a noun,
// as a bit set, and whether WordNet knows the word.
func Broad(word string) (uint64, bool) {
	cs, ok := lookupClasses(word)
	if !ok {
		return 0, false
	}
	var b uint64
	st := Stem(word)
	for i, c := range broadStems() {
		if strings.Contains(cs, " "+c+" ") || st == c {
			b |= 1 << i
		}
	}
	return b, true
}

// LoadTables decodes the embedded WordNet tables (about 0.1 s), which are
// otherwise decoded on first use.
func LoadTables() {
	lemmas()
	classes()
}
