package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/textanalysis/go-textanalysis/internal/wordnet"
)

// minDepth is the least depth (hypernym links from a root) of a class
// the hypernym table keeps: "entity", "object" and "abstraction" say
// nothing.
const minDepth = 3

// sensesKept is how many senses of a noun, most frequent first, give it
// classes.
const sensesKept = 2

// writeHypernyms writes, for every one-word noun of WordNet, the one-word
// names of the classes its first senses belong to (hypernyms and instance
// hypernyms, transitively): "ireland" -> "country island ...". One line a
// noun, sorted, gzipped without name or time.
func writeHypernyms(dir, out string) (int, error) {
	nouns, err := readData(filepath.Join(dir, "data.noun"))
	if err != nil {
		return 0, err
	}
	parents := map[string][]string{}
	for off, line := range nouns {
		ws := words(line)
		f := strings.Fields(strings.SplitN(line, " | ", 2)[0])
		k := 4 + 2*len(ws)
		if k >= len(f) {
			continue
		}
		var np int
		fmt.Sscanf(f[k], "%d", &np)
		for i := 0; i < np && k+4+4*i < len(f); i++ {
			sym, po, pos := f[k+1+4*i], f[k+2+4*i], f[k+3+4*i]
			if (sym == "@" || sym == "@i") && pos == "n" {
				parents[off] = append(parents[off], po)
			}
		}
	}
	depth := map[string]int{}
	var dep func(s string, guard int) int
	dep = func(s string, guard int) int {
		if d, ok := depth[s]; ok {
			return d
		}
		d := 0
		if ps := parents[s]; len(ps) > 0 && guard < 40 {
			d = 1 << 30
			for _, p := range ps {
				d = min(d, 1+dep(p, guard+1))
			}
		}
		depth[s] = d
		return d
	}
	classes := map[string]map[string]bool{}
	err = wordnet.EachLine(filepath.Join(dir, "index.noun"), func(line string) error {
		f := strings.Fields(line)
		if len(f) < 4 || !simple(f[0]) {
			return nil
		}
		var sc, pc int
		fmt.Sscanf(f[2], "%d", &sc)
		fmt.Sscanf(f[3], "%d", &pc)
		offs := f[len(f)-sc:]
		set := map[string]bool{}
		seen := map[string]bool{}
		var walk func(s string)
		walk = func(s string) {
			for _, p := range parents[s] {
				if seen[p] {
					continue
				}
				seen[p] = true
				if dep(p, 0) >= minDepth {
					for _, w := range words(nouns[p]) {
						if simple(w) && w != f[0] {
							set[w] = true
						}
					}
				}
				walk(p)
			}
		}
		for _, o := range offs[:min(sensesKept, len(offs))] {
			walk(o)
		}
		if len(set) > 0 {
			classes[f[0]] = set
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	keys := make([]string, 0, len(classes))
	for k := range classes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	for _, k := range keys {
		cs := make([]string, 0, len(classes[k]))
		for c := range classes[k] {
			cs = append(cs, c)
		}
		sort.Strings(cs)
		fmt.Fprintf(&buf, "%s\t%s\n", k, strings.Join(cs, " "))
	}
	fo, err := os.Create(out)
	if err != nil {
		return 0, err
	}
	zw, _ := gzip.NewWriterLevel(fo, gzip.BestCompression)
	zw.Write(buf.Bytes())
	if err := zw.Close(); err != nil {
		return 0, err
	}
	return len(keys), fo.Close()
}
