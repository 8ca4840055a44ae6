package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/internal/wordnet"
)

// An anchor is a WordNet 3.0 noun synset whose hyponyms and instances get
// a label. word is a lemma of the synset, checked when the data is read,
// so that a different WordNet version fails loudly rather than quietly
// mislabelling.
type anchor struct {
	offset, word, label string
}

// anchors map WordNet noun synsets to OntoNotes labels. A synset takes the
// label of the nearest anchor above it (by hypernym and instance-hypernym
// links, breadth first); among anchors at the same distance, the first in
// this list wins.
var anchors = []anchor{
	// Geopolitical entities.
	{"08544813", "country", "GPE"},
	{"08168978", "nation", "GPE"},
	{"08654360", "province", "GPE"},
	{"08524735", "city", "GPE"},
	{"08665504", "town", "GPE"},
	{"08546183", "county", "GPE"},
	{"08626283", "municipality", "GPE"},
	{"08491826", "administrative_district", "GPE"},
	{"08552138", "district", "GPE"},
	// Other locations.
	{"09225146", "body_of_water", "LOC"},
	{"09287968", "geological_formation", "LOC"},
	{"09254614", "continent", "LOC"},
	{"09316454", "island", "LOC"},
	{"08574314", "geographical_area", "LOC"},
	{"08630039", "region", "LOC"},
	{"09239740", "celestial_body", "LOC"},
	{"00027167", "location", "LOC"},
	// Universities and colleges, which WordNet files as buildings:
	// OntoNotes marks them ORG.
	{"04511002", "university", "ORG"},
	{"03069752", "college", "ORG"},
	// Facilities.
	{"04334599", "street", "FAC"},
	{"04096066", "road", "FAC"},
	{"08615149", "park", "FAC"},
	{"03315023", "facility", "FAC"},
	{"04341686", "structure", "FAC"},
	// Organisations (newspapers and magazines as publishers and as
	// periodicals: OntoNotes marks them ORG).
	{"08062970", "newspaper", "ORG"},
	{"08063303", "magazine", "ORG"},
	{"06593296", "periodical", "ORG"},
	{"08008335", "organization", "ORG"},
	// People, and groups of people by nationality, religion or politics.
	{"09620078", "inhabitant", "NORP"},
	{"09628382", "religious_person", "NORP"},
	{"07967382", "ethnic_group", "NORP"},
	{"07942152", "people", "NORP"},
	{"08081668", "religion", "NORP"},
	{"05946687", "religion", "NORP"},
	{"09505418", "deity", "PERSON"},
	{"09504135", "spiritual_being", "PERSON"},
	{"09484664", "mythical_being", "PERSON"},
	{"00007846", "person", "PERSON"},
	// Laws, works, events, products, languages.
	{"06479665", "legal_document", "LAW"},
	{"06532330", "law", "LAW"},
	{"07037465", "musical_composition", "WORK_OF_ART"},
	{"04601690", "work_of_art", "WORK_OF_ART"},
	{"06589574", "publication", "WORK_OF_ART"},
	{"06362953", "writing", "WORK_OF_ART"},
	// Named events: wars, battles, revolutions, contests, storms. Not
	// event.n.01 itself, whose many kinds of act ("FM", "CPR") are no
	// named events; films and shows are under it too.
	{"06613686", "movie", "WORK_OF_ART"},
	{"06619065", "show", "WORK_OF_ART"},
	{"00973077", "war", "EVENT"},
	{"00952963", "military_action", "EVENT"},
	{"00962722", "revolution", "EVENT"},
	{"00962129", "rebellion", "EVENT"},
	{"07456188", "contest", "EVENT"},
	{"11467018", "hurricane", "EVENT"},
	{"11462526", "storm", "EVENT"},
	{"04524313", "vehicle", "PRODUCT"},
	{"06282651", "language", "LANGUAGE"},
}

type synset struct {
	words []string
	hyper []string // hypernyms and instance hypernyms
	inst  bool     // an instance (has an instance hypernym)
	pert  []string // adjectives: pertainym targets (noun offsets)
}

func main() {
	wn := flag.String("wordnet", "/usr/share/wordnet", "WordNet 3.0 database directory (Debian package wordnet-base)")
	tz := flag.String("tzdata", "/usr/share/zoneinfo", "tzdata directory with zone1970.tab, zone.tab and iso3166.tab")
	out := flag.String("out", "", "gzip-compressed list to write (LABEL TAB phrase TAB common-flag TAB primary-flag per line)")
	flag.Parse()
	log.SetFlags(0)
	lines, err := generate(*wn, *tz)
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	counts := map[string]int{}
	for _, l := range lines {
		label, _, _ := strings.Cut(l, "\t")
		counts[label]++
		fmt.Fprintln(zw, l)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	labels := make([]string, 0, len(counts))
	for l := range counts {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	for _, l := range labels {
		log.Printf("%-12s %6d", l, counts[l])
	}
	log.Printf("%d entries, %d bytes compressed", len(lines), buf.Len())
	if *out != "" {
		if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// generate returns the list's lines (LABEL TAB phrase TAB common TAB
// primary), sorted by phrase and label, from the WordNet database in wn
// and the tzdata tables in tz.
func generate(wn, tz string) ([]string, error) {
	nouns, err := readData(filepath.Join(wn, "data.noun"))
	if err != nil {
		return nil, err
	}
	adjs, err := readData(filepath.Join(wn, "data.adj"))
	if err != nil {
		return nil, err
	}
	common := map[string]bool{}
	for _, part := range []string{"data.noun", "data.verb", "data.adj", "data.adv"} {
		if err := commonWords(filepath.Join(wn, part), common); err != nil {
			return nil, err
		}
	}
	anchorOf := map[string]int{}
	for i, a := range anchors {
		s, ok := nouns[a.offset]
		if !ok || !slices.Contains(s.words, a.word) {
			return nil, fmt.Errorf("anchor %s %s not in this WordNet (3.0 expected)", a.offset, a.word)
		}
		anchorOf[a.offset] = i
	}
	labelOf := func(off string) int {
		seen := map[string]bool{off: true}
		frontier := []string{off}
		for len(frontier) > 0 {
			best := -1
			for _, o := range frontier {
				if i, ok := anchorOf[o]; ok && (best < 0 || i < best) {
					best = i
				}
			}
			if best >= 0 {
				return best
			}
			var next []string
			for _, o := range frontier {
				for _, h := range nouns[o].hyper {
					if !seen[h] {
						seen[h] = true
						next = append(next, h)
					}
				}
			}
			slices.Sort(next)
			frontier = next
		}
		return -1
	}
	rank, err := senseRanks(filepath.Join(wn, "index.noun"))
	if err != nil {
		return nil, err
	}
	entries := map[[2]string]bool{}
	type prim struct {
		rank  int
		label string
	}
	primary := map[string]prim{}
	// add records phrase with label; of a phrase's labels, the one added
	// with the lowest rank is its primary label.
	add := func(label, phrase string, r int) {
		phrase = strings.Join(strings.Fields(strings.ReplaceAll(phrase, "_", " ")), " ")
		if utf8.RuneCountInString(phrase) < 2 || strings.ContainsAny(phrase, "\t\n") {
			return
		}
		entries[[2]string{label, phrase}] = true
		if p, ok := primary[phrase]; !ok || r < p.rank {
			primary[phrase] = prim{r, label}
		}
	}
	nounLabel := map[string]string{}
	offs := make([]string, 0, len(nouns))
	for o := range nouns {
		offs = append(offs, o)
	}
	slices.Sort(offs)
	for _, o := range offs {
		s := nouns[o]
		a := labelOf(o)
		if a < 0 {
			continue
		}
		l := anchors[a].label
		nounLabel[o] = l
		if !s.inst && anchors[a].word == "person" {
			l = "NORP" // a capitalised kind of person: Frenchman, Democrat, Anglican
		}
		for _, w := range s.words {
			if capitalised(w) {
				// The rank of this sense among the lemma's noun
				// senses (most frequent first).
				add(l, w, rank[strings.ToLower(w)+" "+o])
			}
		}
	}
	// Adjectives pertaining to places, peoples and languages are
	// nationalities: French, Nigerian, Buddhist.
	aoffs := make([]string, 0, len(adjs))
	for o := range adjs {
		aoffs = append(aoffs, o)
	}
	slices.Sort(aoffs)
	for _, o := range aoffs {
		s := adjs[o]
		ok := false
		for _, p := range s.pert {
			switch nounLabel[p] {
			case "GPE", "LOC", "NORP", "LANGUAGE":
				ok = true
			}
		}
		if !ok {
			continue
		}
		for _, w := range s.words {
			if capitalised(w) {
				add("NORP", w, -1) // a nationality adjective is read first
			}
		}
	}
	// tzdata: the cities of time zone names and the country names.
	for _, name := range []string{"zone1970.tab", "zone.tab"} {
		data, err := os.ReadFile(filepath.Join(tz, name))
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Split(line, "\t")
			if len(f) < 3 || strings.HasPrefix(line, "#") {
				continue
			}
			parts := strings.Split(f[2], "/")
			add("GPE", parts[len(parts)-1], 1000)
		}
	}
	data, err := os.ReadFile(filepath.Join(tz, "iso3166.tab"))
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		_, name, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.Index(name, " ("); i >= 0 {
			name = name[:i]
		}
		if strings.Contains(name, "&") {
			continue
		}
		add("GPE", name, 1000)
	}
	// A battle named after its place ("Atlanta", "Midway") is read as the
	// place.
	for k := range entries {
		if k[0] == "EVENT" && (entries[[2]string{"GPE", k[1]}] || entries[[2]string{"LOC", k[1]}]) {
			delete(entries, k)
		}
	}
	keys := make([][2]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int {
		if c := strings.Compare(a[1], b[1]); c != 0 {
			return c
		}
		return strings.Compare(a[0], b[0])
	})
	lines := make([]string, 0, len(keys))
	for _, k := range keys {
		c := "0"
		if common[strings.ToLower(k[1])] {
			c = "1"
		}
		// OntoNotes marks a nation or city as GPE also where it names the
		// land or the government (Taiwan the island, U.S. the
		// government), so GPE comes before LOC and ORG.
		pl := primary[k[1]].label
		if (pl == "LOC" || pl == "ORG") && entries[[2]string{"GPE", k[1]}] {
			pl = "GPE"
		}
		p := "0"
		if pl == k[0] {
			p = "1"
		}
		lines = append(lines, k[0]+"\t"+k[1]+"\t"+c+"\t"+p)
	}
	return lines, nil
}

// capitalised reports whether a lemma starts with an upper-case letter.
func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// readData reads a WordNet data file (wndb(5)): per synset its lemmas,
// hypernym and instance-hypernym pointers, and (adjectives) pertainyms.
func readData(path string) (map[string]*synset, error) {
	out := map[string]*synset{}
	err := wordnet.EachLine(path, func(line string) error {
		head, _, _ := strings.Cut(line, " | ")
		fs := strings.Fields(head)
		if len(fs) < 4 {
			return nil
		}
		var nw int
		fmt.Sscanf(fs[3], "%x", &nw)
		s := &synset{}
		p := 4
		for range nw {
			w := fs[p]
			if i := strings.IndexByte(w, '('); i > 0 {
				w = w[:i] // adjective markers: (a), (p), (ip)
			}
			s.words = append(s.words, w)
			p += 2
		}
		var np int
		fmt.Sscan(fs[p], &np)
		p++
		for range np {
			sym, off, pos := fs[p], fs[p+1], fs[p+2]
			p += 4
			switch {
			case (sym == "@" || sym == "@i") && pos == "n":
				s.hyper = append(s.hyper, off)
				s.inst = s.inst || sym == "@i"
			case sym == `\` && pos == "n":
				s.pert = append(s.pert, off)
			}
		}
		out[fs[0]] = s
		return nil
	})
	return out, err
}

// commonWords adds the lemmas of path written in lower case: a name that
// is also a common word ("Reading", "Nice") is marked as such.
func commonWords(path string, dst map[string]bool) error {
	return wordnet.EachLine(path, func(line string) error {
		fs := strings.Fields(line)
		if len(fs) < 4 {
			return nil
		}
		var nw int
		fmt.Sscanf(fs[3], "%x", &nw)
		for k := range nw {
			w := fs[4+2*k]
			if i := strings.IndexByte(w, '('); i > 0 {
				w = w[:i]
			}
			if !capitalised(w) && strings.ToLower(w) == w {
				dst[strings.ReplaceAll(w, "_", " ")] = true
			}
		}
		return nil
	})
}

// senseRanks reads a WordNet index file (wndb(5)) and returns, for every
// "lemma offset" pair, the rank of that synset among the lemma's senses
// (0 for the most frequent).
func senseRanks(path string) (map[string]int, error) {
	out := map[string]int{}
	err := wordnet.EachLine(path, func(line string) error {
		fs := strings.Fields(line)
		if len(fs) < 4 {
			return nil
		}
		var nsyn, nptr int
		fmt.Sscan(fs[2], &nsyn)
		fmt.Sscan(fs[3], &nptr)
		offs := fs[4+nptr+2:]
		if len(offs) != nsyn {
			return fmt.Errorf("%s: bad line %q", path, line)
		}
		for i, o := range offs {
			out[fs[0]+" "+o] = i
		}
		return nil
	})
	return out, err
}
