package modelfile

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// ErrFormat is wrapped by every error a Reader returns for data that is
// not what the caller expects (as against an error of the underlying
// reader or of gzip).
var ErrFormat = errors.New("bad model data")

// Scale16 is the quantisation scale of ws: the largest magnitude maps to
// 32767 (1 when every weight is zero).
func Scale16(ws []float32) float32 {
	var maxAbs float32
	for _, v := range ws {
		maxAbs = max(maxAbs, float32(math.Abs(float64(v))))
	}
	if maxAbs == 0 {
		return 1
	}
	return maxAbs / 32767
}

// Quantize16 is v in units of scale, rounded and kept within ±32767.
func Quantize16(v, scale float32) int16 {
	return int16(max(-32767, min(32767, math.Round(float64(v/scale)))))
}

// A Writer writes a model file. Build it with NewWriter and end it with
// Close, which reports the first error of any call.
type Writer struct {
	zw      *gzip.Writer
	bw      *bufio.Writer
	err     error
	scratch [binary.MaxVarintLen64]byte
}

// NewWriter returns a Writer that compresses onto w at gzip's best
// compression.
func NewWriter(w io.Writer) *Writer {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil { // only for an invalid level
		return &Writer{err: err}
	}
	return &Writer{zw: zw, bw: bufio.NewWriter(zw)}
}

// Raw writes s as it is (a magic string, or bytes whose length the
// reader knows).
func (w *Writer) Raw(s string) {
	if w.err == nil {
		_, w.err = w.bw.WriteString(s)
	}
}

// Bytes writes b as it is.
func (w *Writer) Bytes(b []byte) {
	if w.err == nil {
		_, w.err = w.bw.Write(b)
	}
}

// Byte writes one byte.
func (w *Writer) Byte(b byte) {
	if w.err == nil {
		w.err = w.bw.WriteByte(b)
	}
}

// Uvarint writes x as a uvarint.
func (w *Writer) Uvarint(x uint64) {
	w.Bytes(w.scratch[:binary.PutUvarint(w.scratch[:], x)])
}

// String writes s after its length as a uvarint.
func (w *Writer) String(s string) {
	w.Uvarint(uint64(len(s)))
	w.Raw(s)
}

// LE writes v, a fixed-size value or a slice of them, little-endian (see
// [binary.Write]).
func (w *Writer) LE(v any) {
	if w.err == nil {
		w.err = binary.Write(w.bw, binary.LittleEndian, v)
	}
}

// Sparse16 writes the weights of ws that quantise to non-zero under
// scale: their count, then each as its index's distance from the
// previous one (a uvarint) and its int16 value.
func (w *Writer) Sparse16(ws []float32, scale float32) {
	nz := 0
	for _, v := range ws {
		if Quantize16(v, scale) != 0 {
			nz++
		}
	}
	w.Uvarint(uint64(nz))
	last := 0
	for i, v := range ws {
		if q := Quantize16(v, scale); q != 0 {
			w.Uvarint(uint64(i - last))
			last = i
			w.LE(q)
		}
	}
}

// Dense16 writes every weight of ws quantised under scale, as int16.
func (w *Writer) Dense16(ws []float32, scale float32) {
	var chunk [4096]byte
	for off := 0; off < len(ws); {
		n := min(len(chunk)/2, len(ws)-off)
		for i := range n {
			binary.LittleEndian.PutUint16(chunk[2*i:], uint16(Quantize16(ws[off+i], scale)))
		}
		w.Bytes(chunk[:2*n])
		off += n
	}
}

// Close flushes and ends the gzip stream (not the underlying writer) and
// returns the first error of the Writer's calls.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	return w.zw.Close()
}

// A Reader reads a model file. Its methods return zero values once an
// error has happened; check Err at the end (or wherever a value read
// decides what comes next).
type Reader struct {
	br  *bufio.Reader
	err error
}

// NewReader returns a Reader of the gzip stream r, after checking that
// it starts with magic.
func NewReader(r io.Reader, magic string) (*Reader, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	mr := &Reader{br: bufio.NewReader(zr)}
	head := make([]byte, len(magic))
	if mr.Full(head); mr.err != nil || string(head) != magic {
		return nil, fmt.Errorf("%w: not a model file of this kind", ErrFormat)
	}
	return mr, nil
}

// Err is the first error of the Reader's calls.
func (r *Reader) Err() error { return r.err }

// End checks that the stream ends here, with a gzip trailer that
// matches the data (which gzip checks only at the end of the stream), and
// returns the first error of the Reader's calls. A format that older
// readers must read in part (fields appended at the end) checks Err
// instead.
func (r *Reader) End() error {
	if r.err != nil {
		return r.err
	}
	switch _, err := r.br.ReadByte(); {
	case err == nil:
		r.Fail("data after the end")
	case err != io.EOF:
		r.fail(err)
	}
	return r.err
}

// More reports whether the stream has data left, for a format whose
// last fields are optional (a file without them ends before them). At
// the end of the stream gzip has checked its trailer: a bad one, like
// any other error, is recorded and gives false.
func (r *Reader) More() bool {
	if r.err != nil {
		return false
	}
	if _, err := r.br.Peek(1); err != nil {
		if err != io.EOF {
			r.fail(err)
		}
		return false
	}
	return true
}

// Fail records err (when no error came before) for a value the caller
// found out of bounds, so that it ends the reading like a read error.
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
	}
}

func (r *Reader) fail(err error) {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	if r.err == nil {
		r.err = err
	}
}

// Full fills b.
func (r *Reader) Full(b []byte) {
	if r.err != nil {
		return
	}
	if _, err := io.ReadFull(r.br, b); err != nil {
		r.fail(err)
	}
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.err != nil {
		return 0
	}
	b, err := r.br.ReadByte()
	if err != nil {
		r.fail(err)
	}
	return b
}

// Int16 reads a little-endian int16 (without [Reader.LE]'s allocation:
// a tagger or relabeler reads millions of them at every start).
func (r *Reader) Int16() int16 {
	lo, hi := r.Byte(), r.Byte()
	return int16(uint16(lo) | uint16(hi)<<8)
}

// Uvarint reads a uvarint.
func (r *Reader) Uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, err := binary.ReadUvarint(r.br)
	if err != nil {
		r.fail(err)
	}
	return x
}

// Count reads a uvarint that counts or sizes something, and fails when
// it is above limit.
func (r *Reader) Count(what string, limit int) int {
	n := r.Uvarint()
	if n > uint64(limit) {
		r.Fail("%s %d: more than %d", what, n, limit)
		return 0
	}
	return int(n)
}

// String reads a string written by [Writer.String] of at most limit
// bytes.
func (r *Reader) String(limit int) string {
	n := r.Count("string length", limit)
	if r.err != nil {
		return ""
	}
	b := make([]byte, n)
	r.Full(b)
	return string(b)
}

// LE reads into v, a pointer to a fixed-size value or a slice of them,
// little-endian (see [binary.Read]).
func (r *Reader) LE(v any) {
	if r.err != nil {
		return
	}
	if err := binary.Read(r.br, binary.LittleEndian, v); err != nil {
		r.fail(err)
	}
}

// Dense16 reads len(dst) weights written by [Writer.Dense16] into dst,
// each its int16 times scale, a chunk at a time (a table of millions of
// weights is read at every start).
func (r *Reader) Dense16(dst []float32, scale float32) {
	var chunk [64 << 10]byte
	for off := 0; off < len(dst) && r.err == nil; {
		n := min(len(chunk)/2, len(dst)-off)
		r.Full(chunk[:2*n])
		for i := range n {
			dst[off+i] = float32(int16(binary.LittleEndian.Uint16(chunk[2*i:]))) * scale
		}
		off += n
	}
}

// Sparse16 reads weights written by [Writer.Sparse16] into dst (whose
// other elements it leaves as they are), each its int16 times scale.
func (r *Reader) Sparse16(dst []float32, scale float32) {
	nz := r.Count("weight count", len(dst))
	pos := uint64(0)
	for k := range nz {
		d := r.Uvarint()
		if (k > 0 && d == 0) || d >= uint64(len(dst)) {
			r.Fail("weight index step %d", d)
			return
		}
		pos += d
		q := r.Int16()
		if r.err != nil {
			return
		}
		if pos >= uint64(len(dst)) {
			r.Fail("weight index %d out of range", pos)
			return
		}
		dst[pos] = float32(q) * scale
	}
}
