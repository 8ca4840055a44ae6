package blockmodel

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// model.bin is model.json in a form that loads without parsing numbers:
// decoding the 324 kB of JSON cost 13-14 ms (encoding/json; 2.5 ms with
// a hand-written decoder) warm, and 9-35 ms in a fresh process on the shared test
// machine, at the start of every process that extracts a page; model.bin
// takes well under a millisecond. model.json stays the source: the trainer
// writes both, and `go generate ./extract/internal/blockmodel` writes
// model.bin from model.json (TestBinaryMatchesJSON fails when they
// differ).
//
// Layout: binMagic; a uvarint length and that many bytes of JSON, the
// model with every part's trees left out (null); then for each part (the
// model, each of its TypeModels in order, its Stack, each depth first) a
// uvarint tree count plus one (0: no tree list), and per tree a uvarint
// node count and its five arrays, little-endian: Feat (int16), Thr
// (float32 bits), Left, Right (int32), Val (float32 bits).
const binMagic = "blockmodel-bin 1\n"

// EncodeBinary returns m as model.bin.
func EncodeBinary(m *Model) ([]byte, error) {
	// The head is a deep copy of m without trees.
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var head Model
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, err
	}
	eachPart(&head, func(p *Model) { p.Trees = nil })
	hb, err := json.Marshal(&head)
	if err != nil {
		return nil, err
	}
	out := append([]byte(binMagic), binary.AppendUvarint(nil, uint64(len(hb)))...)
	out = append(out, hb...)
	var err2 error
	eachPart(m, func(p *Model) {
		if p.Trees == nil {
			out = binary.AppendUvarint(out, 0)
			return
		}
		out = binary.AppendUvarint(out, uint64(len(p.Trees))+1)
		for _, t := range p.Trees {
			n := len(t.Feat)
			if len(t.Thr) != n || len(t.Left) != n || len(t.Right) != n || len(t.Val) != n {
				err2 = errors.New("blockmodel: a tree's arrays differ in length")
				return
			}
			out = binary.AppendUvarint(out, uint64(n))
			for _, v := range t.Feat {
				out = binary.LittleEndian.AppendUint16(out, uint16(v))
			}
			for _, v := range t.Thr {
				out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
			}
			for _, v := range t.Left {
				out = binary.LittleEndian.AppendUint32(out, uint32(v))
			}
			for _, v := range t.Right {
				out = binary.LittleEndian.AppendUint32(out, uint32(v))
			}
			for _, v := range t.Val {
				out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
			}
		}
	})
	return out, err2
}

// eachPart calls f on m and on every model inside it, in model.bin's
// order.
func eachPart(m *Model, f func(*Model)) {
	f(m)
	for i := range m.TypeModels {
		eachPart(&m.TypeModels[i], f)
	}
	if m.Stack != nil {
		eachPart(m.Stack, f)
	}
}

// decodeBinary reads model.bin. Each part's trees share one array per
// field, each tree's slices capped at its own end.
func decodeBinary(b []byte) (*Model, error) {
	if !bytes.HasPrefix(b, []byte(binMagic)) {
		return nil, errors.New("blockmodel: model.bin: bad magic")
	}
	b = b[len(binMagic):]
	hl, k := binary.Uvarint(b)
	if k <= 0 || hl > uint64(len(b)-k) {
		return nil, errors.New("blockmodel: model.bin: bad head")
	}
	// The head holds no trees: encoding/json reads it in about 0.2 ms.
	m := new(Model)
	if err := json.Unmarshal(b[k:k+int(hl)], m); err != nil {
		return nil, fmt.Errorf("blockmodel: model.bin head: %w", err)
	}
	r := &binReader{b: b[k+int(hl):]}
	eachPart(m, func(p *Model) {
		nt := r.uvarint()
		if nt == 0 || r.err != nil {
			p.Trees = nil
			return
		}
		nt--
		// Tree counts and sizes come first; the arrays after them are
		// checked against what is left before anything is made.
		start := *r
		sizes := make([]int, 0, min(nt, uint64(len(r.b))))
		total := 0
		for range nt {
			n := r.uvarint()
			if r.err != nil || n > uint64(len(r.b))/18 {
				r.fail()
				return
			}
			sizes = append(sizes, int(n))
			total += int(n)
			r.skip(18 * int(n))
		}
		if r.err != nil {
			return
		}
		*r = start
		feat, thr, left, right, val := make([]int16, total), make([]float32, total), make([]int32, total), make([]int32, total), make([]float32, total)
		p.Trees = make([]Tree, len(sizes))
		at := 0
		for i, n := range sizes {
			r.uvarint()
			e := at + n
			t := Tree{Feat: feat[at:e:e], Thr: thr[at:e:e], Left: left[at:e:e], Right: right[at:e:e], Val: val[at:e:e]}
			for j := range n {
				t.Feat[j] = int16(binary.LittleEndian.Uint16(r.b[2*j:]))
			}
			r.b = r.b[2*n:]
			for j := range n {
				t.Thr[j] = math.Float32frombits(binary.LittleEndian.Uint32(r.b[4*j:]))
			}
			r.b = r.b[4*n:]
			for j := range n {
				t.Left[j] = int32(binary.LittleEndian.Uint32(r.b[4*j:]))
			}
			r.b = r.b[4*n:]
			for j := range n {
				t.Right[j] = int32(binary.LittleEndian.Uint32(r.b[4*j:]))
			}
			r.b = r.b[4*n:]
			for j := range n {
				t.Val[j] = math.Float32frombits(binary.LittleEndian.Uint32(r.b[4*j:]))
			}
			r.b = r.b[4*n:]
			p.Trees[i] = t
			at = e
		}
	})
	if r.err == nil && len(r.b) != 0 {
		r.fail()
	}
	if r.err != nil {
		return nil, r.err
	}
	return m, nil
}

type binReader struct {
	b   []byte
	err error
}

func (r *binReader) fail() {
	if r.err == nil {
		r.err = errors.New("blockmodel: model.bin: truncated or malformed trees")
	}
}

func (r *binReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *binReader) skip(n int) {
	if r.err != nil {
		return
	}
	if n > len(r.b) {
		r.fail()
		return
	}
	r.b = r.b[n:]
}
