package tagger

import (
	"bufio"
	"encoding/json"
	"fmt"

	"github.com/textanalysis/go-textanalysis/internal/datafile"
)

// A Sentence is one training or evaluation record: its text and its gold
// entities in code points.
type Sentence struct {
	Doc      string
	Text     string
	Entities []GoldEntity
}

// A GoldEntity is a labelled span in code points, end exclusive.
type GoldEntity struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Label string `json:"label"`
}

// ReadFile reads a JSON-lines file (gzipped when it ends in .gz) of
// {"text", "entities"} records.
func ReadFile(path string) ([]Sentence, error) {
	r, err := datafile.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []Sentence
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var rec struct {
			Doc      string       `json:"doc"`
			Text     string       `json:"text"`
			Entities []GoldEntity `json:"entities"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		out = append(out, Sentence{Doc: rec.Doc, Text: rec.Text, Entities: rec.Entities})
	}
	return out, sc.Err()
}
