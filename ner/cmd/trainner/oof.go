package main

import (
	"compress/gzip"
	"encoding/gob"
	"flag"
	"log"
	"os"

	"github.com/textanalysis/go-textanalysis/ner/internal/relabel"
	"github.com/textanalysis/go-textanalysis/ner/internal/tagger"
)

var (
	oofOut       = flag.String("oof", "", "write the tagger's out-of-fold entities on -train (for ner/cmd/trainrelabel) to this file and exit: -oof-folds taggers, each trained without one fold of the documents, tag that fold")
	oofFolds     = flag.Int("oof-folds", 4, "folds of documents for -oof")
	clustersFrom = flag.String("clusters-from", "", "take the word clusters of this model file (e.g. ner/models/ontonotes.bin)")
)

// An OOFRecord is one out-of-fold candidate with its gold class
// (len(Labels) for no entity) and fold, the index of its sentence (the
// records of a sentence follow each other, in the order of their
// entities), and the alternative spans of the entity (relabel.Alternatives,
// every edit) with theirs.
type OOFRecord struct {
	C    relabel.Candidate
	Gold int
	Fold int
	Sent int
	Alts []OOFAlt
}

// An OOFAlt is an alternative span of a record's entity with its gold
// class.
type OOFAlt struct {
	C    relabel.Candidate
	Gold int
}

// An OOFDump is what -oof writes (gob, gzip).
type OOFDump struct {
	Labels []string
	Gold   []int // gold entities per fold
	Recs   []OOFRecord
}

func modelClusters(path string) (map[string]int32, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := tagger.Read(data)
	if err != nil {
		return nil, err
	}
	return m.Clus, nil
}

// runOOF trains a tagger per fold of tr's documents on the others and
// records the entities it finds in its fold, as the relabeler's training
// data.
func runOOF(tr []tagger.Sentence, opt tagger.TrainOptions, folds int, out string) error {
	docFold := map[string]int{}
	fold := make([]int, len(tr))
	for i, s := range tr {
		f, ok := docFold[s.Doc]
		if !ok {
			f = len(docFold) % folds
			docFold[s.Doc] = f
		}
		fold[i] = f
	}
	labelIdx := map[string]int{}
	for i, l := range opt.Labels {
		labelIdx[l] = i
	}
	bio := tagger.NewScheme(2, len(opt.Labels))
	dump := OOFDump{Labels: opt.Labels, Gold: make([]int, folds)}
	L := len(opt.Labels)
	sent := 0
	for k := 0; k < folds; k++ {
		var train []tagger.Sentence
		for i, s := range tr {
			if fold[i] != k {
				train = append(train, s)
			}
		}
		m, _, err := tagger.Train(train, opt)
		if err != nil {
			return err
		}
		var b tagger.Buffers
		var chunks []tagger.Chunk
		var alts []relabel.Alt
		n0 := len(dump.Recs)
		for i, s := range tr {
			if fold[i] != k {
				continue
			}
			toks, tags, _ := tagger.GoldTags(s, labelIdx)
			gold := map[[2]int]int{}
			for _, c := range bio.Chunks(nil, tags) {
				gold[[2]int{c.Start, c.End}] = c.Label
				dump.Gold[k]++
			}
			for a := 0; a < len(toks); {
				z := tagger.SentenceEnd(s.Text, toks, a)
				chunks = m.Tag(chunks[:0], s.Text, toks[a:z], &b)
				goldOf := func(s, e int) int {
					if g, ok := gold[[2]int{a + s, a + e}]; ok {
						return g
					}
					return L
				}
				for ci, c := range chunks {
					var rec OOFRecord
					relabel.FromTagger(&rec.C, m, &b, s.Text, toks[a:z], c)
					rec.Gold, rec.Fold, rec.Sent = goldOf(c.Start, c.End), k, sent
					alts = relabel.Alternatives(alts[:0], s.Text, toks[a:z], chunks, ci, 1<<relabel.NumEdits-1)
					for _, alt := range alts {
						var ar OOFAlt
						relabel.FromTaggerAlt(&ar.C, m, &b, s.Text, toks[a:z], c, alt)
						ar.Gold = goldOf(alt.Start, alt.End)
						rec.Alts = append(rec.Alts, ar)
					}
					dump.Recs = append(dump.Recs, rec)
				}
				a = z
				sent++
			}
		}
		log.Printf("fold %d of %d: %d candidates, %d gold entities", k+1, folds, len(dump.Recs)-n0, dump.Gold[k])
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(f)
	if err := gob.NewEncoder(zw).Encode(&dump); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}
