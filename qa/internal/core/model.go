package core

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/textanalysis/go-textanalysis/internal/modelfile"
)

// A Model holds the span scorer's weights and the term weights (idf).
type Model struct {
	W   []float32
	IDF map[string]float32
	// MaxIDF is the weight of a stem not in IDF.
	MaxIDF float32
}

// NewModel returns an empty model over the hashed feature space.
func NewModel() *Model {
	return &Model{W: make([]float32, 1<<Bits), IDF: map[string]float32{}, MaxIDF: 8}
}

// Weight returns the idf of a stem.
func (m *Model) Weight(stem string) float64 {
	if w, ok := m.IDF[stem]; ok {
		return float64(w)
	}
	return float64(m.MaxIDF)
}

// Score returns the linear score of a feature list.
func (m *Model) Score(feats []uint32) float64 {
	s := float32(0)
	for _, f := range feats {
		s += m.W[f]
	}
	return float64(s)
}

const magic = "qa-model-1"

// Encode writes the model compactly: the non-zero weights quantised to
// 16 bits with their delta-coded indices, and the idf table, gzipped.
func (m *Model) Encode(w io.Writer) error {
	mw := modelfile.NewWriter(w)
	mw.Raw(magic)
	mw.Uvarint(Bits)
	scale := modelfile.Scale16(m.W)
	mw.LE(scale)
	mw.Sparse16(m.W, scale)
	mw.LE(m.MaxIDF)
	keys := make([]string, 0, len(m.IDF))
	for k := range m.IDF {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	mw.Uvarint(uint64(len(keys)))
	for _, k := range keys {
		mw.String(k)
		mw.Byte(byte(math.Round(float64(m.IDF[k]) * 16)))
	}
	return mw.Close()
}

// Decode reads a model written by Encode.
func Decode(r io.Reader) (*Model, error) {
	mr, err := modelfile.NewReader(r, magic)
	if err != nil {
		return nil, fmt.Errorf("qa: read model: %w", err)
	}
	if mr.Uvarint() != Bits && mr.Err() == nil {
		return nil, errors.New("qa: read model: feature space mismatch")
	}
	m := NewModel()
	var scale float32
	mr.LE(&scale)
	mr.Sparse16(m.W, scale)
	mr.LE(&m.MaxIDF)
	nk := mr.Count("idf entries", 1<<24)
	for range nk {
		k := mr.String(1024)
		b := mr.Byte()
		if mr.Err() != nil {
			break
		}
		m.IDF[k] = float32(b) / 16
	}
	if err := mr.End(); err != nil {
		return nil, fmt.Errorf("qa: read model: %w", err)
	}
	return m, nil
}
