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
	if !ok {
		return false, false
	}
	return true, strings.Contains(cs, " "+class+" ")
}

// LoadTables decodes the embedded WordNet tables (about 0.1 s), which are
// otherwise decoded on first use.
func LoadTables() {
	lemmas()
	classes()
}
