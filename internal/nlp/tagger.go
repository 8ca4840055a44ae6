package nlp

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/mingrammer/commonregex"
)

//go:generate go run ./internal/gentagger -o tagger.bin.gz

//go:embed tagger.bin.gz
var taggerData []byte

// A tagger is prose's averaged perceptron with a deterministic predict; see
// the package comment.
type tagger struct {
	classes []string
	tagdict map[string]int32
	// feats maps a feature to its weights, weights[start:end].
	feats   map[string]span
	weights []weight
}

type span struct{ start, end int32 }

type weight struct {
	class int32
	w     float64
}

var loadTagger = sync.OnceValues(func() (*tagger, error) {
	t, err := readTagger(taggerData)
	if err != nil {
		return nil, fmt.Errorf("nlp: load tagger: %w", err)
	}
	return t, nil
})

func readTagger(data []byte) (*tagger, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(zr)
	magic := make([]byte, 8)
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != "nlptag1\n" {
		return nil, errors.New("bad magic")
	}
	var rerr error
	uv := func() int {
		if rerr != nil {
			return 0
		}
		n, err := binary.ReadUvarint(r)
		if err != nil || n > 1<<31 {
			rerr = fmt.Errorf("read count: %v", err)
			return 0
		}
		return int(n)
	}
	str := func() string {
		n := uv()
		if rerr != nil {
			return ""
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			rerr = err
		}
		return string(b)
	}
	t := &tagger{}
	nc := uv()
	for range nc {
		t.classes = append(t.classes, str())
	}
	class := func() int32 {
		c := uv()
		if rerr == nil && c >= len(t.classes) {
			rerr = fmt.Errorf("class %d out of range", c)
		}
		return int32(c)
	}
	nd := uv()
	t.tagdict = make(map[string]int32, nd)
	for range nd {
		w := str()
		t.tagdict[w] = class()
	}
	nf := uv()
	t.feats = make(map[string]span, nf)
	for range nf {
		f := str()
		n := uv()
		s := span{start: int32(len(t.weights))}
		for range n {
			c := class()
			v, err := binary.ReadVarint(r)
			if err != nil && rerr == nil {
				rerr = err
			}
			t.weights = append(t.weights, weight{class: c, w: float64(v) / 1000})
		}
		s.end = int32(len(t.weights))
		t.feats[f] = s
	}
	if rerr != nil {
		return nil, rerr
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return t, nil
}

var (
	noneRe = regexp.MustCompile(`^(?:0|\*[\w?]\*|\*\-\d{1,3}|\*[A-Z]+\*\-\d{1,3}|\*)$`)
	keepRe = regexp.MustCompile(`^\-[A-Z]{3}\-$`)
)

// tagWords tags words (prose's tokens) as prose's perceptronTagger.tag
// does, with predict made deterministic.
func (t *tagger) tagWords(words []string) []string {
	tags := make([]string, len(words))
	ctx := make([]string, len(words)+4)
	ctx[0], ctx[1] = "-START-", "-START2-"
	for i, w := range words {
		ctx[i+2] = normalize(w)
	}
	ctx[len(ctx)-2], ctx[len(ctx)-1] = "-END-", "-END2-"
	p := predictor{t: t, scores: make([]float64, len(t.classes)), seen: make([]bool, len(t.classes))}
	p1, p2 := "-START-", "-START2-"
	for i, word := range words {
		var tag string
		switch {
		case word == "-":
			tag = "-"
		case emoticons[word]:
			tag = "SYM"
		case commonregex.LinkRegex.MatchString(word) ||
			commonregex.EmailRegex.MatchString(word) ||
			strings.HasPrefix(word, "@"):
			tag = "NN"
		case noneRe.MatchString(word):
			tag = "-NONE-"
		case keepRe.MatchString(word):
			tag = word
		default:
			if c, ok := t.tagdict[word]; ok {
				tag = t.classes[c]
			} else {
				tag = p.predict(i+2, ctx, word, p1, p2)
			}
		}
		tags[i] = tag
		p2, p1 = p1, tag
	}
	return tags
}

// A predictor holds the buffers predict reuses from token to token.
type predictor struct {
	t      *tagger
	scores []float64
	seen   []bool
	keys   [14]span // the features of the token, as spans of buf
	counts [14]float64
	n      int
	buf    []byte
}

// feature appends the feature made of parts joined by spaces, as prose's
// featurize does, counting a repeated feature once with value 2 as prose's
// map would.
func (p *predictor) feature(parts ...string) {
	start := len(p.buf)
	for j, s := range parts {
		if j > 0 {
			p.buf = append(p.buf, ' ')
		}
		p.buf = append(p.buf, s...)
	}
	k := p.buf[start:]
	for j := 0; j < p.n; j++ {
		if bytes.Equal(p.buf[p.keys[j].start:p.keys[j].end], k) {
			p.counts[j]++
			p.buf = p.buf[:start]
			return
		}
	}
	p.keys[p.n] = span{int32(start), int32(len(p.buf))}
	p.counts[p.n] = 1
	p.n++
}

// predict scores the word at ctx[i] (i counts the two start markers) as
// prose's averagedPerceptron.predict does, but summing each class's score
// over the features in the order featurize makes them, into a slice
// indexed by class, and breaking an exact tie between the best classes in
// favour of the one listed first in prose's classes.gob. As in prose, only
// classes that some feature weighs take part, and no such class gives "".
func (p *predictor) predict(i int, ctx []string, w, p1, p2 string) string {
	p.n, p.buf = 0, p.buf[:0]
	suf := min(len(w), 3)
	pref := ""
	if w != "" {
		pref = string(rune(w[0])) // prose's string(w[0]): a byte read as a code point
	}
	prev, next := ctx[i-1], ctx[i+1]
	p.feature("bias")
	p.feature("i suffix", w[len(w)-suf:])
	p.feature("i pref1", pref)
	p.feature("i-1 tag", p1)
	p.feature("i-2 tag", p2)
	p.feature("i tag+i-2 tag", p1, p2)
	p.feature("i word", ctx[i])
	p.feature("i-1 tag+i word", p1, ctx[i])
	p.feature("i-1 word", prev)
	p.feature("i-1 suffix", prev[len(prev)-min(len(prev), 3):])
	p.feature("i-2 word", ctx[i-2])
	p.feature("i+1 word", next)
	p.feature("i+1 suffix", next[len(next)-min(len(next), 3):])
	p.feature("i+2 word", ctx[i+2])

	clear(p.scores)
	clear(p.seen)
	for j := 0; j < p.n; j++ {
		s, ok := p.t.feats[string(p.buf[p.keys[j].start:p.keys[j].end])]
		if !ok {
			continue
		}
		v := p.counts[j]
		for _, wt := range p.t.weights[s.start:s.end] {
			p.scores[wt.class] += v * wt.w
			p.seen[wt.class] = true
		}
	}
	best, max := -1, math.Inf(-1)
	for c, s := range p.scores {
		if p.seen[c] && s > max {
			best, max = c, s
		}
	}
	if best < 0 {
		return ""
	}
	return p.t.classes[best]
}

// normalize is prose's normalize: the word as a feature.
func normalize(word string) string {
	if word == "" {
		return word
	}
	first := string(word[0])
	if strings.Contains(word, "-") && first != "-" {
		return "!HYPHEN"
	} else if _, err := strconv.Atoi(word); err == nil && len(word) == 4 {
		return "!YEAR"
	} else if _, err := strconv.Atoi(first); err == nil {
		return "!DIGITS"
	}
	return strings.ToLower(word)
}
