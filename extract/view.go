package extract

import (
	"context"

	"github.com/textanalysis/go-textanalysis/extract/internal/blockmodel"
)

func init() {
	blockmodel.View = view
}

// view is blockmodel.View: the blocks of a page and their features, for
// the training program.
func view(ctx context.Context, s []byte) (*blockmodel.PageView, error) {
	w := newWork(ctx, Options{})
	doc, err := parseHTML(decodeBytes(s, ""), w)
	if err != nil {
		return nil, err
	}
	m := readMeta(doc)
	v := &blockmodel.PageView{Title: m.title, Features: featureNames}
	body := findBody(doc)
	if body == nil {
		return v, nil
	}
	sh := newShared(w)
	out, rule, top, err := ruleText(body, m.title, sh)
	if err != nil {
		return nil, err
	}
	v.RuleText = out
	e := newExtractionMode(body, true, nil, sh, true)
	if w.err != nil {
		return nil, w.err
	}
	x := blockFeatures(e, rule, top, m.title)
	nf := len(featureNames)
	for i := range e.blocks {
		v.Blocks = append(v.Blocks, blockmodel.Block{Text: e.blocks[i].text, Features: x[i*nf : (i+1)*nf]})
	}
	return v, nil
}
