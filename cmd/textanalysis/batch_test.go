package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawJSON is a result that writes itself, as sentiment's does.
type rawJSON string

func (r rawJSON) appendJSON(b []byte) []byte { return append(b, r...) }

// Workers answer every line as one worker does, in input order, however
// the lines fall into batches: many lines, blank ones, failing ones, lines
// longer than a batch, and no final newline.
func TestParallelMatchesSerial(t *testing.T) {
	analyse := func(_ context.Context, line json.RawMessage, id *json.RawMessage) (any, error) {
		var in struct {
			ID   json.RawMessage `json:"id"`
			Text string          `json:"text"`
		}
		if err := json.Unmarshal(line, &in); err != nil {
			return nil, err
		}
		*id = in.ID
		switch {
		case in.Text == "fail":
			return nil, errors.New("it failed")
		case strings.HasPrefix(in.Text, "obj"):
			return rawJSON(fmt.Sprintf(`{"n":%d}`, len(in.Text))), nil
		case strings.HasPrefix(in.Text, "empty"):
			return rawJSON(`{}`), nil
		case strings.HasPrefix(in.Text, "num"):
			return rawJSON(`42`), nil
		}
		return map[string]int{"len": len(in.Text)}, nil
	}
	var b strings.Builder
	texts := []string{"obj", "fail", "empty", "num", "plain", "obj" + strings.Repeat("x", batchBytes+10)}
	for i := range 3*batchLines + 5 {
		if i%13 == 0 {
			b.WriteString("\n  \n")
		}
		if i%29 == 0 {
			b.WriteString("not json\n")
		}
		fmt.Fprintf(&b, `{"id":%d,"text":%q}`+"\n", i, texts[i%len(texts)])
	}
	b.WriteString(`{"id":"last","text":"obj"}`)
	input := b.String()

	var serial bytes.Buffer
	wantFailed, err := runSerial(context.Background(), strings.NewReader(input), &serial, analyse, nil, 1)
	require.NoError(t, err)
	require.Positive(t, wantFailed)
	lines := strings.Split(strings.TrimSuffix(serial.String(), "\n"), "\n")
	require.Len(t, lines, 3*batchLines+5+1+(3*batchLines+5+28)/29)
	assert.Equal(t, `{"id":"last","n":3}`, lines[len(lines)-1])
	assert.Equal(t, `{"id":0,"n":3}`, lines[1])
	assert.Equal(t, `{"id":1,"error":"it failed"}`, lines[2])
	assert.Equal(t, `{"id":2,"result":{}}`, lines[3])
	assert.Equal(t, `{"id":3,"result":42}`, lines[4])
	assert.Equal(t, `{"id":4,"len":5}`, lines[5])

	for _, workers := range []int{2, 3, 8} {
		var parallel bytes.Buffer
		failed, err := runParallel(context.Background(), strings.NewReader(input), &parallel, analyse, nil, workers)
		require.NoError(t, err)
		assert.Equal(t, wantFailed, failed)
		assert.Equal(t, serial.String(), parallel.String(), "workers %d", workers)

		// runSerial hands the lines after the first to runParallel.
		var handed bytes.Buffer
		failed, err = runSerial(context.Background(), strings.NewReader(input), &handed, analyse, nil, workers)
		require.NoError(t, err)
		assert.Equal(t, wantFailed, failed)
		assert.Equal(t, serial.String(), handed.String(), "handed to %d workers", workers)
	}
}
