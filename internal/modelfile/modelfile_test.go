package modelfile

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type record struct {
	name   string
	flags  uint64
	scale  float32
	pair   [2]float32
	ws     []float32
	tail   byte
	dense  []float32
	marker bool
}

func encode(t *testing.T, rec record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Raw("TEST1\n")
	w.String(rec.name)
	w.Uvarint(rec.flags)
	w.LE(rec.pair)
	w.LE(rec.scale)
	w.Sparse16(rec.ws, rec.scale)
	w.LE(rec.dense)
	w.LE(rec.marker)
	w.Byte(rec.tail)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func decode(data []byte, n, nDense int) (record, error) {
	r, err := NewReader(bytes.NewReader(data), "TEST1\n")
	if err != nil {
		return record{}, err
	}
	rec := readRecord(r, n, nDense)
	return rec, r.Err()
}

func readRecord(r *Reader, n, nDense int) record {
	rec := record{ws: make([]float32, n), dense: make([]float32, nDense)}
	rec.name = r.String(64)
	rec.flags = r.Uvarint()
	r.LE(&rec.pair)
	r.LE(&rec.scale)
	r.Sparse16(rec.ws, rec.scale)
	r.LE(rec.dense)
	r.LE(&rec.marker)
	rec.tail = r.Byte()
	return rec
}

func TestRoundTrip(t *testing.T) {
	ws := []float32{0, 1.5, -3, 0, 0, 2.25, 0.00001}
	scale := Scale16(ws)
	rec := record{name: "labels", flags: 1<<40 | 5, scale: scale, pair: [2]float32{0.5, -2},
		ws: ws, tail: 0xfe, dense: []float32{1, 2, 3}, marker: true}
	got, err := decode(encode(t, rec), len(ws), 3)
	require.NoError(t, err)
	assert.Equal(t, rec.name, got.name)
	assert.Equal(t, rec.flags, got.flags)
	assert.Equal(t, rec.pair, got.pair)
	assert.Equal(t, rec.dense, got.dense)
	assert.True(t, got.marker)
	assert.Equal(t, rec.tail, got.tail)
	for i, v := range ws {
		assert.InDelta(t, v, got.ws[i], float64(scale)/2+1e-9, "weight %d", i)
	}
	assert.Zero(t, got.ws[6], "a weight below half a unit is dropped")
}

func TestQuantize16(t *testing.T) {
	tests := []struct {
		name  string
		ws    []float32
		scale float32
	}{
		{"all zero", []float32{0, 0}, 1},
		{"largest magnitude negative", []float32{1, -32767}, 1},
		{"small", []float32{0.5, 0.25}, 0.5 / 32767},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Scale16(tt.ws)
			assert.Equal(t, tt.scale, s)
			var maxQ int16
			for _, v := range tt.ws {
				q := Quantize16(v, s)
				maxQ = max(maxQ, q, -q)
			}
			if tt.scale != 1 || tt.ws[1] != 0 {
				assert.Equal(t, int16(32767), maxQ)
			}
		})
	}
	assert.Equal(t, int16(32767), Quantize16(1e9, 1), "kept within int16")
	assert.Equal(t, int16(-32767), Quantize16(-1e9, 1))
}

// Every cut of a file fails with an error, never a panic or a value read
// past the end.
func TestTruncated(t *testing.T) {
	ws := []float32{1, 0, -1, 2}
	data := encode(t, record{name: "x", scale: Scale16(ws), ws: ws, dense: []float32{1}})
	// The uncompressed stream cut short, compressed again.
	raw := gunzip(t, data)
	for n := range len(raw) {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		w.Bytes(raw[:n])
		require.NoError(t, w.Close())
		_, err := decode(buf.Bytes(), len(ws), 1)
		assert.Error(t, err, "cut at %d of %d", n, len(raw))
	}
}

func TestBadData(t *testing.T) {
	tests := []struct {
		name  string
		write func(w *Writer)
		want  error
	}{
		{"wrong magic", func(w *Writer) { w.Raw("TEST2\n") }, ErrFormat},
		{"string too long", func(w *Writer) { w.Raw("TEST1\n"); w.Uvarint(1 << 40) }, ErrFormat},
		{"weight count above the table", func(w *Writer) {
			w.Raw("TEST1\n")
			w.String("")
			w.Uvarint(0)
			w.LE([2]float32{})
			w.LE(float32(1))
			w.Uvarint(100)
		}, ErrFormat},
		{"weight index out of range", func(w *Writer) {
			w.Raw("TEST1\n")
			w.String("")
			w.Uvarint(0)
			w.LE([2]float32{})
			w.LE(float32(1))
			w.Uvarint(2)
			w.Uvarint(1)
			w.LE(int16(3))
			w.Uvarint(3)
			w.LE(int16(3))
		}, ErrFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := NewWriter(&buf)
			tt.write(w)
			require.NoError(t, w.Close())
			_, err := decode(buf.Bytes(), 4, 1)
			require.Error(t, err)
			assert.True(t, errors.Is(err, tt.want), "got %v", err)
		})
	}
	_, err := NewReader(bytes.NewReader([]byte("not gzip")), "TEST1\n")
	assert.Error(t, err)
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterKeepsFirstError(t *testing.T) {
	w := NewWriter(failWriter{})
	w.Raw(string(make([]byte, 1<<20))) // more than bufio and gzip hold
	w.Uvarint(3)
	assert.EqualError(t, w.Close(), "disk full")
}

func gunzip(t *testing.T, data []byte) []byte {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), "")
	require.NoError(t, err)
	raw, err := io.ReadAll(r.br)
	require.NoError(t, err)
	return raw
}

func TestEnd(t *testing.T) {
	ws := []float32{1, -1}
	data := encode(t, record{name: "x", scale: Scale16(ws), ws: ws, dense: []float32{1}})
	read := func(data []byte) error {
		r, err := NewReader(bytes.NewReader(data), "TEST1\n")
		if err != nil {
			return err
		}
		readRecord(r, 2, 1)
		return r.End()
	}
	require.NoError(t, read(data))
	for _, n := range []int{len(data) - 1, len(data) - 4, len(data) - 8} {
		assert.Error(t, read(data[:n]), "gzip trailer cut at %d of %d", n, len(data))
	}
	raw := gunzip(t, data)
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Bytes(append(raw, 0))
	require.NoError(t, w.Close())
	assert.ErrorIs(t, read(buf.Bytes()), ErrFormat, "a byte after the last field")
}

// Any bytes give a record or an error, never a panic or an allocation
// beyond the caller's bounds.
func FuzzReader(f *testing.F) {
	ws := []float32{1, 0, -1, 2}
	var seed bytes.Buffer
	w := NewWriter(&seed)
	w.Raw("TEST1\n")
	w.String("x")
	w.Uvarint(7)
	w.LE([2]float32{1, 2})
	w.LE(Scale16(ws))
	w.Sparse16(ws, Scale16(ws))
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	f.Add(gunzipBytes(f, seed.Bytes()))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		w.Bytes(raw)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		_, _ = decode(buf.Bytes(), 4, 1)
	})
}

func gunzipBytes(f *testing.F, data []byte) []byte {
	r, err := NewReader(bytes.NewReader(data), "")
	if err != nil {
		f.Fatal(err)
	}
	raw, err := io.ReadAll(r.br)
	if err != nil {
		f.Fatal(err)
	}
	return raw
}

func TestInt16(t *testing.T) {
	vals := []int16{0, 1, -1, 32767, -32767, -32768, 258}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Raw("I\n")
	for _, v := range vals {
		w.LE(v)
	}
	require.NoError(t, w.Close())
	r, err := NewReader(bytes.NewReader(buf.Bytes()), "I\n")
	require.NoError(t, err)
	for _, v := range vals {
		assert.Equal(t, v, r.Int16())
	}
	require.NoError(t, r.End())
	assert.Zero(t, r.Int16(), "past the end")
	assert.ErrorIs(t, r.Err(), io.ErrUnexpectedEOF)
}

// TestMore checks that More finds an optional field, or the end of the
// stream with its gzip trailer checked.
func TestMore(t *testing.T) {
	write := func(raw string) []byte {
		var buf bytes.Buffer
		w := NewWriter(&buf)
		w.Raw("M\n" + raw)
		require.NoError(t, w.Close())
		return buf.Bytes()
	}
	tests := []struct {
		name    string
		data    []byte
		more    bool
		wantErr bool
	}{
		{"an optional field", write("x"), true, false},
		{"none", write(""), false, false},
		{"gzip trailer cut", write("")[:len(write(""))-2], false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewReader(bytes.NewReader(tt.data), "M\n")
			require.NoError(t, err)
			assert.Equal(t, tt.more, r.More())
			if tt.wantErr {
				assert.Error(t, r.Err())
			} else {
				assert.NoError(t, r.Err())
			}
		})
	}
}
