package core

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
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
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	var scratch [binary.MaxVarintLen64]byte
	uv := func(v uint64) { bw.Write(scratch[:binary.PutUvarint(scratch[:], v)]) }
	bw.WriteString(magic)
	uv(Bits)
	maxAbs := float32(0)
	nz := 0
	for _, v := range m.W {
		if a := float32(math.Abs(float64(v))); a > maxAbs {
			maxAbs = a
		}
	}
	scale := maxAbs / 32767
	if scale == 0 {
		scale = 1
	}
	var idx []int
	for i, v := range m.W {
		if int(math.Round(float64(v/scale))) != 0 {
			nz++
			idx = append(idx, i)
		}
	}
	binary.Write(bw, binary.LittleEndian, scale)
	uv(uint64(nz))
	prev := 0
	for _, i := range idx {
		uv(uint64(i - prev))
		prev = i
		q := int16(math.Round(float64(m.W[i] / scale)))
		binary.Write(bw, binary.LittleEndian, q)
	}
	binary.Write(bw, binary.LittleEndian, m.MaxIDF)
	keys := make([]string, 0, len(m.IDF))
	for k := range m.IDF {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	uv(uint64(len(keys)))
	for _, k := range keys {
		uv(uint64(len(k)))
		bw.WriteString(k)
		bw.WriteByte(byte(math.Round(float64(m.IDF[k]) * 16)))
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// Decode reads a model written by Encode.
func Decode(r io.Reader) (*Model, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("qa: read model: %w", err)
	}
	br := bufio.NewReader(zr)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(br, head); err != nil || string(head) != magic {
		return nil, errors.New("qa: read model: bad header")
	}
	bits, err := binary.ReadUvarint(br)
	if err != nil || bits != Bits {
		return nil, errors.New("qa: read model: feature space mismatch")
	}
	m := NewModel()
	var scale float32
	if err := binary.Read(br, binary.LittleEndian, &scale); err != nil {
		return nil, fmt.Errorf("qa: read model: %w", err)
	}
	nz, err := binary.ReadUvarint(br)
	if err != nil {
		return nil, fmt.Errorf("qa: read model: %w", err)
	}
	pos := uint64(0)
	for range nz {
		d, err := binary.ReadUvarint(br)
		if err != nil {
			return nil, fmt.Errorf("qa: read model: %w", err)
		}
		pos += d
		var q int16
		if err := binary.Read(br, binary.LittleEndian, &q); err != nil {
			return nil, fmt.Errorf("qa: read model: %w", err)
		}
		if pos >= uint64(len(m.W)) {
			return nil, errors.New("qa: read model: weight index out of range")
		}
		m.W[pos] = float32(q) * scale
	}
	if err := binary.Read(br, binary.LittleEndian, &m.MaxIDF); err != nil {
		return nil, fmt.Errorf("qa: read model: %w", err)
	}
	nk, err := binary.ReadUvarint(br)
	if err != nil {
		return nil, fmt.Errorf("qa: read model: %w", err)
	}
	buf := make([]byte, 0, 64)
	for range nk {
		l, err := binary.ReadUvarint(br)
		if err != nil || l > 1024 {
			return nil, errors.New("qa: read model: bad idf entry")
		}
		buf = buf[:l]
		if _, err := io.ReadFull(br, buf); err != nil {
			return nil, fmt.Errorf("qa: read model: %w", err)
		}
		b, err := br.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("qa: read model: %w", err)
		}
		m.IDF[string(buf)] = float32(b) / 16
	}
	return m, nil
}
