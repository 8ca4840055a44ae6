package sentiment

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/textanalysis/go-textanalysis/sentiment/internal/lr"
)

func TestZZDebug(t *testing.T) {
	texts := os.Getenv("ZZ_TEXTS")
	if texts == "" {
		t.Skip()
	}
	m, _ := lr.Embedded()
	for _, text := range strings.Split(texts, "|") {
		v := hybridVaderFeatures(text)
		var tx lr.Text
		toks := lr.Tokens(nil, text)
		lr.Featurize(&tx, toks, v, lr.DomainOf(text))
		var zero [lr.NumDense]float64
		bf := lr.BlendFeatures(m.Pol.Logits(&tx), m.Tok.Logit(tx.Hashes, &zero), &tx)
		fmt.Printf("%q vader=%+v toks=%v\n", text, v, toks)
		for i, x := range bf {
			if x != 0 {
				fmt.Printf("  f%d=%.3f w=%.3f c=%.3f\n", i, x, m.Blend[i], float64(m.Blend[i])*x)
			}
		}
		s := m.Predict(&tx)
		fmt.Printf("  zsubj=%.3f %+v\n", m.Subj.Logit(tx.Hashes, &tx.Dense), s)
	}
}
