package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/textanalysis/go-textanalysis/internal/datafile"

	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

var labelSets = map[string][]string{
	"ontonotes": {"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE", "DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"},
	"conll":     {"PER", "LOC", "ORG", "MISC"},
}

func main() {
	train := flag.String("train", "", "training data (JSON lines, .gz allowed)")
	dev := flag.String("dev", "", "development data to report F1 on (optional)")
	labels := flag.String("labels", "ontonotes", "label set: ontonotes, conll, or a comma-separated list")
	out := flag.String("out", "", "model file to write")
	epochs := flag.Int("epochs", 8, "perceptron epochs")
	minCount := flag.Int("mincount", 2, "drop features seen fewer times")
	prune := flag.Float64("prune", 0.5, "drop averaged weights smaller than this")
	folds := flag.Int("folds", 5, "gazetteer jackknife folds (0: no gazetteer)")
	clusters := flag.String("clusters", "", "word cluster file (word TAB cluster id per line)")
	extra2 := flag.Bool("extra2", false, "use the third feature set")
	extra3 := flag.Bool("extra3", false, "use the fourth feature set (context shapes and title words, case of non-initial words, inner capitals)")
	extra4 := flag.Bool("extra4", false, "use the fifth feature set (a capitalised run at the sentence start read from its second word, with the class of its first; capitals on words usually in lower case; best with -cluster-case)")
	margin := flag.Float64("margin", 0, "cost-augmented training: add this to every wrong tag's score before decoding (0: the plain perceptron)")
	bilou := flag.Bool("bilou", true, "BILOU tags (false: BIO)")
	extra := flag.Bool("extra", true, "use the second feature set")
	clusterData := flag.String("cluster-data", "", "cluster the words of these data files (comma-separated) for the cluster features")
	mkclusters := flag.String("mkclusters", "", "write word clusters of the -train files (comma-separated) to this file and exit")
	also := flag.String("also", "", "more training data in OntoNotes labels (comma-separated files), mapped to -labels conll: PERSON to PER, GPE, LOC and FAC to LOC, ORG to ORG, other names to MISC, numbers and dates dropped, a leading \"the\" cut")
	repeatTrain := flag.Int("repeat-train", 1, "use the -train sentences this many times, to weigh them against -also")
	caseAug := flag.Float64("case-aug", 0, "add an upper-cased copy of this share of the training sentences, and a lower-cased copy of as many others (0 to 0.5)")
	ppmi = flag.Bool("ppmi", false, "cluster words by positive-PMI-weighted contexts rather than log counts")
	stripEdges = flag.Bool("strip-edges", false, "in -also data, cut a final possessive 's and surrounding quotes from names, as CoNLL-2003 does")
	hyphenMisc = flag.Bool("hyphen-misc", false, "in -also data, widen a name joined by a hyphen to a lower-case part (Ohio-based) to the whole word, as MISC, as CoNLL-2003 marks it")
	clusterEvidence = flag.Int("cluster-evidence", 0, "words seen fewer times in the -cluster-data text keep only a marked coarse cluster, no fine one (0: off)")
	clusterCase = flag.Bool("cluster-case", false, "mark clustered words written mostly in lower case inside sentences (read by -extra4)")
	clusterCoarse = flag.Int("cluster-coarse", 64, "coarse word clusters made from -cluster-data (at most 4095)")
	clusterFine = flag.Int("cluster-fine", 512, "fine word clusters made from -cluster-data (at most 32766)")
	clusterContext = flag.Int("cluster-context", 800, "the most frequent words that -cluster-data's clustering reads as context")
	seeds := flag.Int("seeds", 1, "train over this many orders of the data and average the weights")
	gazLower := flag.Bool("gaz-lower", false, "the gazetteer also matches phrases in lower case, in sentences all in capitals or all in lower case")
	gazLowerAll := flag.Bool("gaz-lower-all", false, "the gazetteer also matches phrases in lower case, in every sentence")
	extGaz := flag.String("ext-gaz", "", "external gazetteer to use and keep in the model: a gzip-compressed list of LABEL TAB phrase TAB common-flag lines (ner/data/external-gazetteer.tsv.gz, written by ner/cmd/mkgaz); OntoNotes labels, mapped to CoNLL's for -labels conll")
	extGazLower := flag.Bool("ext-gaz-lower", false, "the external gazetteer also matches phrases in lower case, in sentences all in capitals or all in lower case")
	extGazSets := flag.Bool("ext-gaz-sets", false, "the external gazetteer also reads a phrase's whole label set and its primary label (most frequent sense) as features")
	heldout := flag.Int("heldout", 0, "hold out every Nth document of -train and report F1 on it after each epoch (to choose -epochs without the dev set)")
	heldoutCase := flag.Bool("heldout-case", false, "with -heldout, also report the final model's F1 on upper- and lower-cased copies of the held-out documents")
	evalModel := flag.String("eval-model", "", "only report the held-out F1 (-heldout, -heldout-case) of this model file and exit")
	crf := flag.Bool("crf", false, "train the weights as a linear-chain CRF (log-likelihood with L2, averaged SGD) rather than by the perceptron; -prune then defaults to -crf-prune")
	crfRate := flag.Float64("crf-rate", 0.02, "with -crf, the initial SGD step")
	crfL2 := flag.Float64("crf-l2", 1e-6, "with -crf, the L2 regulariser per sentence")
	crfMinMarg := flag.Float64("crf-min-marginal", 1e-3, "with -crf, a token's features are updated for the gold tag and the tags whose marginal exceeds this")
	crfPrune := flag.Float64("crf-prune", 0.01, "with -crf and no -prune, drop averaged weights smaller than this (the CRF's weights are on another scale than the perceptron's)")
	tokcheck := flag.Bool("tokcheck", false, "only report entities whose boundaries miss token boundaries")
	flag.Parse()
	log.SetFlags(log.Ltime)
	if *clusterCoarse < 1 || *clusterCoarse > tagger.ClusterCoarse || *clusterFine < 1 || *clusterFine >= tagger.ClusterNoFine || *clusterContext < 1 {
		log.Fatalf("-cluster-coarse must be 1 to %d, -cluster-fine 1 to %d, -cluster-context at least 1", tagger.ClusterCoarse, tagger.ClusterNoFine-1)
	}
	ls, ok := labelSets[*labels]
	if !ok {
		ls = strings.Split(*labels, ",")
	}
	if *mkclusters != "" {
		clus, err := makeClusters(*train)
		if err != nil {
			log.Fatal(err)
		}
		var b strings.Builder
		words := make([]string, 0, len(clus))
		for w := range clus {
			words = append(words, w)
		}
		slices.Sort(words)
		for _, w := range words {
			fmt.Fprintf(&b, "%s\t%d\n", w, clus[w])
		}
		if err := os.WriteFile(*mkclusters, []byte(b.String()), 0o644); err != nil {
			log.Fatal(err)
		}
		log.Printf("%d words clustered", len(clus))
		return
	}
	tr, err := tagger.ReadFile(*train)
	if err != nil {
		log.Fatal(err)
	}
	var held []tagger.Sentence
	if *heldout > 1 {
		tr, held = splitDocs(tr, *heldout)
		log.Printf("held out %d sentences of -train (every %dth document), %d left", len(held), *heldout, len(tr))
	}
	if *evalModel != "" {
		data, err := os.ReadFile(*evalModel)
		if err != nil {
			log.Fatal(err)
		}
		m, err := tagger.Read(data)
		if err != nil {
			log.Fatal(err)
		}
		if held == nil {
			log.Fatal("-eval-model needs -heldout")
		}
		reportHeldout(m, held, *heldoutCase)
		return
	}
	if *repeatTrain > 1 {
		one := tr
		for range *repeatTrain - 1 {
			tr = append(tr, one...)
		}
	}
	if *also != "" {
		n := len(tr)
		for _, path := range strings.Split(*also, ",") {
			more, err := tagger.ReadFile(path)
			if err != nil {
				log.Fatal(err)
			}
			tr = append(tr, mapOntoToCoNLL(more)...)
		}
		log.Printf("also: %d sentences added to %d", len(tr)-n, n)
	}
	if *caseAug > 0 {
		n := len(tr)
		tr = augmentCase(tr, *caseAug)
		log.Printf("case augmentation: %d sentences added to %d", len(tr)-n, n)
	}
	if *tokcheck {
		idx := map[string]int{}
		for i, l := range ls {
			idx[l] = i
		}
		n := 0
		for _, s := range tr {
			if _, _, bad := tagger.GoldTags(s, idx); bad > 0 {
				n++
				if n < 60 {
					toks := tagger.Tokenize(nil, s.Text)
					var parts []string
					for _, t := range toks {
						parts = append(parts, s.Text[t.Start:t.End])
					}
					rs := []rune(s.Text)
					for _, e := range s.Entities {
						fmt.Printf("%q ", string(rs[e.Start:e.End]))
					}
					fmt.Println("|", strings.Join(parts, " | "))
				}
			}
		}
		fmt.Println("sentences with misaligned entities:", n, "of", len(tr))
		return
	}
	var clus map[string]int32
	switch {
	case *clusterData != "":
		clus, err = makeClusters(*clusterData)
		if err != nil {
			log.Fatal(err)
		}
		log.Printf("%d words clustered", len(clus))
	case *clustersFrom != "":
		clus, err = modelClusters(*clustersFrom)
		if err != nil {
			log.Fatal(err)
		}
	case *clusters != "":
		clus, err = readClusters(*clusters)
		if err != nil {
			log.Fatal(err)
		}
	}
	var ext *tagger.Gazetteer
	if *extGaz != "" {
		if ext, err = readExtGaz(*extGaz, ls, *labels == "conll", *extGazLower, *extGazSets); err != nil {
			log.Fatal(err)
		}
		log.Printf("external gazetteer: %d phrases", len(ext.Phrases))
	}
	var crfOpt *tagger.CRFOptions
	if *crf {
		crfOpt = &tagger.CRFOptions{Rate: *crfRate, L2: *crfL2, MinMarginal: *crfMinMarg}
		pruneSet := false
		flag.Visit(func(f *flag.Flag) { pruneSet = pruneSet || f.Name == "prune" })
		if !pruneSet {
			*prune = *crfPrune
		}
	}
	var onEpoch func(int, *tagger.Model)
	if held != nil {
		onEpoch = func(ep int, m *tagger.Model) {
			_, _, f, _ := tagger.Eval(m, held)
			log.Printf("epoch %d: held-out F1 %.2f", ep, 100*f)
		}
	}
	topt := tagger.TrainOptions{
		Labels: ls, Epochs: *epochs, MinCount: *minCount, Prune: float32(*prune),
		Folds: *folds, Clusters: clus, Extra: *extra, Extra2: *extra2, Extra3: *extra3, Extra4: *extra4, Margin: float32(*margin), BILOU: *bilou, GazLower: *gazLower, GazLowerAll: *gazLowerAll, Ext: ext, Seeds: *seeds, Logf: log.Printf,
		OnEpoch: onEpoch, CRF: crfOpt,
	}
	if *oofOut != "" {
		if err := runOOF(tr, topt, *oofFolds, *oofOut); err != nil {
			log.Fatal(err)
		}
		return
	}
	m, hashes, err := tagger.Train(tr, topt)
	if err != nil {
		log.Fatal(err)
	}
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			log.Fatal(err)
		}
		if err := m.Write(f, hashes); err != nil {
			log.Fatal(err)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
		data, err := os.ReadFile(*out)
		if err != nil {
			log.Fatal(err)
		}
		if m, err = tagger.Read(data); err != nil {
			log.Fatal(err)
		}
		log.Printf("wrote %s (%d bytes)", *out, len(data))
	}
	if held != nil {
		log.Printf("epoch %d:", *epochs)
		reportHeldout(m, held, *heldoutCase)
	}
	if *dev != "" {
		ds, err := tagger.ReadFile(*dev)
		if err != nil {
			log.Fatal(err)
		}
		p, r, f, per := tagger.Eval(m, ds)
		fmt.Print(tagger.FormatEval(p, r, f, per))
	}
}

var ppmi, hyphenMisc, stripEdges, clusterCase *bool

var clusterEvidence, clusterCoarse, clusterFine, clusterContext *int

// readExtGaz reads an external gazetteer list (LABEL TAB phrase TAB
// common-flag lines, gzip-compressed) for the labels ls; with conll, the
// list's OntoNotes labels are mapped to CoNLL's first.
func readExtGaz(path string, ls []string, conll, lower, sets bool) (*tagger.Gazetteer, error) {
	r, err := datafile.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	idx := map[string]int{}
	for i, l := range ls {
		idx[l] = i
	}
	g := tagger.NewGazetteer(6)
	g.External, g.Lower, g.Sets = true, lower, sets
	labelOf := func(l string) (int, bool) {
		if conll {
			l = ontoToCoNLL[l]
		}
		k, ok := idx[l]
		return k, ok
	}
	tagger.ParseExtList(data, labelOf, func(phrase string, toks []tagger.Span, bits uint32) {
		g.AddBits(phrase, toks, bits)
	})
	return g, nil
}

// splitDocs splits sents by document: every nth document (in order of
// first appearance) goes to held.
func splitDocs(sents []tagger.Sentence, n int) (kept, held []tagger.Sentence) {
	idx := map[string]int{}
	for _, s := range sents {
		k, ok := idx[s.Doc]
		if !ok {
			k = len(idx)
			idx[s.Doc] = k
		}
		if k%n == n-1 {
			held = append(held, s)
		} else {
			kept = append(kept, s)
		}
	}
	return kept, held
}

func readClusters(path string) (map[string]int32, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]int32{}
	for _, line := range strings.Split(string(data), "\n") {
		w, c, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		var id int32
		fmt.Sscan(c, &id)
		m[w] = id
	}
	return m, nil
}

// makeClusters clusters the words of the texts in the comma-separated data
// files.
func makeClusters(paths string) (map[string]int32, error) {
	var texts []string
	for _, p := range strings.Split(paths, ",") {
		more, err := readTexts(p)
		if err != nil {
			return nil, err
		}
		texts = append(texts, more...)
	}
	return tagger.Cluster(texts, tagger.ClusterOptions{MinCount: 3, Context: *clusterContext, Coarse: *clusterCoarse, Fine: *clusterFine, Iters: 12, PPMI: *ppmi, Evidence: *clusterEvidence, Case: *clusterCase}), nil
}

// readTexts reads the texts of a data file: the sentences of a JSON-lines
// file, or the paragraphs of a SQuAD-format JSON file (.json or .json.gz),
// whose questions and answers are not read.
func readTexts(path string) ([]string, error) {
	if !strings.HasSuffix(path, ".json") && !strings.HasSuffix(path, ".json.gz") {
		ss, err := tagger.ReadFile(path)
		if err != nil {
			return nil, err
		}
		texts := make([]string, len(ss))
		for i, s := range ss {
			texts[i] = s.Text
		}
		return texts, nil
	}
	r, err := datafile.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var doc struct {
		Data []struct {
			Paragraphs []struct {
				Context string `json:"context"`
			} `json:"paragraphs"`
		} `json:"data"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var texts []string
	seen := map[string]bool{}
	for _, a := range doc.Data {
		for _, p := range a.Paragraphs {
			if !seen[p.Context] {
				seen[p.Context] = true
				texts = append(texts, p.Context)
			}
		}
	}
	return texts, nil
}

// augmentCase appends upper-cased copies of a share of the sentences and
// lower-cased copies of as many others, so that a model learns names in
// headlines, chat and transcripts. The choice hashes each sentence's
// index, so a run is reproducible. Case is mapped code point by code
// point, which keeps the entities' offsets.
func augmentCase(tr []tagger.Sentence, share float64) []tagger.Sentence {
	out := tr
	cut := uint64(share * 1_000_000)
	for i, s := range tr {
		h := (uint64(i)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) >> 11 % 1_000_000
		var mapCase func(rune) rune
		switch {
		case h < cut:
			mapCase = unicode.ToUpper
		case h < 2*cut:
			mapCase = unicode.ToLower
		default:
			continue
		}
		c := s
		c.Text = strings.Map(mapCase, s.Text)
		out = append(out, c)
	}
	return out
}

// reportHeldout logs m's F1 on the held-out sentences, and with cased
// on upper- and lower-cased copies of them.
func reportHeldout(m *tagger.Model, held []tagger.Sentence, cased bool) {
	_, _, f, _ := tagger.Eval(m, held)
	log.Printf("held-out F1 %.2f", 100*f)
	if !cased {
		return
	}
	for _, c := range []struct {
		name string
		f    func(rune) rune
	}{{"upper", unicode.ToUpper}, {"lower", unicode.ToLower}} {
		_, _, f, _ := tagger.Eval(m, mapCase(held, c.f))
		log.Printf("held-out F1 %.2f (%s-cased)", 100*f, c.name)
	}
}

// mapCase returns copies of sents with their text mapped by f code point
// by code point (which keeps the entities' offsets).
func mapCase(sents []tagger.Sentence, f func(rune) rune) []tagger.Sentence {
	out := make([]tagger.Sentence, len(sents))
	for i, s := range sents {
		s.Text = strings.Map(f, s.Text)
		out[i] = s
	}
	return out
}

// stripEdge cuts from an OntoNotes entity [a, b) of rs what CoNLL-2003
// leaves out of its names: a possessive "'s" at the end ("Wal-Mart's": 1,591
// OntoNotes training names end so, 19 CoNLL ones, all names like Moody's)
// and quotes around it ("“USA Today”").
func stripEdge(rs []rune, a, b int) (int, int) {
	space := func(i int) bool { return i >= a && i < b && unicode.IsSpace(rs[i]) }
	if b-a > 2 && (rs[b-1] == 's' || rs[b-1] == 'S') && (rs[b-2] == '\'' || rs[b-2] == '’') {
		b -= 2
		for b > a && space(b-1) {
			b--
		}
	}
	quote := func(r rune) bool { return strings.ContainsRune("\"'`“”‘’«»", r) }
	for b > a && (quote(rs[b-1]) || space(b-1)) {
		b--
	}
	for a < b && (quote(rs[a]) || space(a)) {
		a++
	}
	return a, b
}

// hyphenCompound applies CoNLL-2003's convention for a name inside a
// hyphenated word to an OntoNotes entity [a, b) of rs: OntoNotes marks the
// name alone ("Ohio" in "Ohio-based", "Nazi" in "neo-Nazi"), CoNLL the whole
// word, as MISC. A name joined by hyphens to a lower-case part is
// widened to the whole word and relabelled MISC; names joined to other
// names ("Israel-PLO") are left as they are.
func hyphenCompound(rs []rune, a, b int, l string) (int, int, string) {
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	na, nb := a, b
	if nb+1 < len(rs) && rs[nb] == '-' && unicode.IsLower(rs[nb+1]) {
		for nb < len(rs) && (word(rs[nb]) || rs[nb] == '-' && nb+1 < len(rs) && word(rs[nb+1])) {
			nb++
		}
	}
	if na >= 2 && rs[na-1] == '-' && unicode.IsLower(rs[na-2]) {
		na--
		for na > 0 && (word(rs[na-1]) || rs[na-1] == '-' && na >= 2 && word(rs[na-2])) {
			na--
		}
	}
	if na == a && nb == b {
		return a, b, l
	}
	return na, nb, "MISC"
}

// ontoToCoNLL maps OntoNotes labels to CoNLL-2003's, as the shared NER
// harness's conll view does.
var ontoToCoNLL = map[string]string{
	"PERSON": "PER", "GPE": "LOC", "LOC": "LOC", "FAC": "LOC", "ORG": "ORG",
	"NORP": "MISC", "EVENT": "MISC", "WORK_OF_ART": "MISC", "PRODUCT": "MISC", "LAW": "MISC", "LANGUAGE": "MISC",
}

// mapOntoToCoNLL relabels OntoNotes sentences for a CoNLL-style model.
// OntoNotes takes a leading "the" into names ("the Federal Reserve"),
// CoNLL does not, so it is cut.
func mapOntoToCoNLL(in []tagger.Sentence) []tagger.Sentence {
	out := make([]tagger.Sentence, 0, len(in))
	for _, s := range in {
		rs := []rune(s.Text)
		var ents []tagger.GoldEntity
		for _, e := range s.Entities {
			l, ok := ontoToCoNLL[e.Label]
			if !ok || e.Start < 0 || e.End > len(rs) || e.Start >= e.End {
				continue
			}
			if w := strings.ToLower(string(rs[e.Start:min(e.Start+4, e.End)])); w == "the " {
				e.Start += 4
			}
			if *stripEdges {
				e.Start, e.End = stripEdge(rs, e.Start, e.End)
			}
			if *hyphenMisc {
				e.Start, e.End, l = hyphenCompound(rs, e.Start, e.End, l)
			}
			if e.Start < e.End {
				ents = append(ents, tagger.GoldEntity{Start: e.Start, End: e.End, Label: l})
			}
		}
		s.Entities = ents
		out = append(out, s)
	}
	return out
}
