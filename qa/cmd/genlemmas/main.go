package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/textanalysis/go-textanalysis/internal/wordnet"
)

// nominal lists the suffixes of nouns formed from verbs that the table
// keeps.
var nominal = []string{"tion", "sion", "ment", "ance", "ence", "ancy", "ency", "ure", "al", "age",
	"th", "er", "or", "ery", "ing", "ant", "ent", "ism", "ist"}

func main() {
	dir := flag.String("wordnet", "/usr/share/wordnet", "WordNet dict directory")
	out := flag.String("out", "qa/internal/core/lemmas.txt.gz", "table to write")
	hypOut := flag.String("hypernyms", "qa/internal/core/hypernyms.txt.gz", "noun class table to write")
	flag.Parse()
	nh, err := writeHypernyms(*dir, *hypOut)
	if err != nil {
		log.Fatalf("genlemmas: %v", err)
	}
	st, _ := os.Stat(*hypOut)
	log.Printf("wrote %s: %d nouns, %d bytes", *hypOut, nh, st.Size())
	table := map[string]string{}
	for _, f := range []string{"verb.exc", "noun.exc", "adj.exc"} {
		if err := readExc(filepath.Join(*dir, f), table); err != nil {
			log.Fatalf("genlemmas: %v", err)
		}
	}
	n := len(table)
	if err := readDerived(*dir, table); err != nil {
		log.Fatalf("genlemmas: %v", err)
	}
	// No chains are followed: the lemma of "founding" is "found", though
	// "found" is also the past of "find".
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	for _, k := range keys {
		b := table[k]
		fmt.Fprintf(&buf, "%s\t%s\n", k, b)
	}
	f, err := os.Create(*out)
	if err != nil {
		log.Fatalf("genlemmas: %v", err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	zw.Write(buf.Bytes())
	if err := zw.Close(); err != nil {
		log.Fatalf("genlemmas: %v", err)
	}
	if err := f.Close(); err != nil {
		log.Fatalf("genlemmas: %v", err)
	}
	st, _ = os.Stat(*out)
	log.Printf("wrote %s: %d entries (%d inflections, %d derived nouns), %d bytes", *out, len(keys), n, len(table)-n, st.Size())
}

func simple(w string) bool {
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

func readExc(path string, table map[string]string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !simple(f[0]) || !simple(f[1]) || f[0] == f[1] {
			continue
		}
		if _, ok := table[f[0]]; !ok {
			table[f[0]] = f[1]
		}
	}
	return nil
}

// synset is the words of one data-file line, in order.
func words(line string) []string {
	f := strings.Fields(line)
	if len(f) < 4 {
		return nil
	}
	n, err := strconv.ParseInt(f[3], 16, 32)
	if err != nil {
		return nil
	}
	var ws []string
	for i := 0; i < int(n) && 4+2*i < len(f); i++ {
		ws = append(ws, strings.ToLower(f[4+2*i]))
	}
	return ws
}

func readData(path string) (map[string]string, error) {
	m := map[string]string{}
	err := wordnet.EachLine(path, func(line string) error {
		if i := strings.IndexByte(line, ' '); i > 0 {
			m[line[:i]] = line
		}
		return nil
	})
	return m, err
}

// readDerived adds noun -> verb for the derivational links ("+") from a
// noun sense to a verb sense whose words look like suffixed forms of the
// verb; of several verbs the one sharing the longest prefix wins, then the
// alphabetically first.
func readDerived(dir string, table map[string]string) error {
	nouns, err := readData(filepath.Join(dir, "data.noun"))
	if err != nil {
		return err
	}
	verbs, err := readData(filepath.Join(dir, "data.verb"))
	if err != nil {
		return err
	}
	cand := map[string][]string{}
	offs := make([]string, 0, len(nouns))
	for o := range nouns {
		offs = append(offs, o)
	}
	sort.Strings(offs)
	for _, o := range offs {
		line := nouns[o]
		ws := words(line)
		f := strings.Fields(strings.SplitN(line, " | ", 2)[0])
		k := 4 + 2*len(ws)
		if k >= len(f) {
			continue
		}
		np, _ := strconv.Atoi(f[k])
		for i := 0; i < np && k+4+4*i < len(f); i++ {
			sym, off, pos, st := f[k+1+4*i], f[k+2+4*i], f[k+3+4*i], f[k+4+4*i]
			if sym != "+" || pos != "v" || len(st) != 4 {
				continue
			}
			src, _ := strconv.ParseInt(st[:2], 16, 32)
			tgt, _ := strconv.ParseInt(st[2:], 16, 32)
			vws := words(verbs[off])
			if src < 1 || int(src) > len(ws) || tgt < 1 || int(tgt) > len(vws) {
				continue
			}
			noun, verb := ws[src-1], vws[tgt-1]
			if !simple(noun) || !simple(verb) || noun == verb || !derived(noun, verb) {
				continue
			}
			cand[noun] = append(cand[noun], verb)
		}
	}
	for noun, vs := range cand {
		if _, ok := table[noun]; ok {
			continue
		}
		sort.Slice(vs, func(i, j int) bool {
			pi, pj := prefix(noun, vs[i]), prefix(noun, vs[j])
			if pi != pj {
				return pi > pj
			}
			return vs[i] < vs[j]
		})
		table[noun] = vs[0]
	}
	return nil
}

func prefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// derived reports whether noun looks like verb with a nominal suffix: it
// has one, and the two share all but the last two letters of the verb
// (at least four).
func derived(noun, verb string) bool {
	ok := false
	for _, s := range nominal {
		if strings.HasSuffix(noun, s) && len(noun) > len(s)+2 {
			ok = true
			break
		}
	}
	if !ok {
		return false
	}
	p := prefix(noun, verb)
	return p >= 4 && p >= len(verb)-2
}
