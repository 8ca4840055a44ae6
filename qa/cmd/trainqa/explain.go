package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/textanalysis/go-textanalysis/qa/internal/core"
)

// explain prints the best candidates of a question over a text file and
// the heaviest features of the top two, to see why the model chose.
func explain(w io.Writer, modelPath, question, contextPath string) error {
	m, err := readModel(modelPath)
	if err != nil {
		return err
	}
	text, err := os.ReadFile(contextPath)
	if err != nil {
		return err
	}
	d, err := core.NewDoc(string(text), 0)
	if err != nil {
		return err
	}
	q, err := core.NewQuestion(question, m.Weight)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wh=%s head=%s terms=%v\n", q.Wh, q.Head, q.Terms)
	c := core.NewCtx(d, q, m.Weight)
	ss, err := m.Rank(context.Background(), c, core.AllCandidates(d))
	if err != nil {
		return err
	}
	sort.Slice(ss, func(i, j int) bool { return ss[i].P > ss[j].P })
	for k, s := range ss[:min(10, len(ss))] {
		var ws []string
		for i := s.S; i < s.E; i++ {
			ws = append(ws, d.Toks[i].Text)
		}
		fmt.Fprintf(w, "%.3f %7.2f sent=%d %s\n", s.P, s.Score, d.Toks[s.S].Sent, strings.Join(ws, " "))
		if k >= 2 {
			continue
		}
		var names []string
		c.Names = &names
		fs := c.Features(s.Cand, nil)
		c.Names = nil
		for i, f := range fs {
			if wt := m.W[f]; wt > 0.3 || wt < -0.3 {
				fmt.Fprintf(w, "    %+.2f %s\n", wt, names[i])
			}
		}
	}
	return nil
}

func readModel(path string) (*core.Model, error) {
	mb, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return core.Decode(bytes.NewReader(mb))
}
