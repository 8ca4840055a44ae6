package ner

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkRecognizeSentences runs over the sentences of a shared NER data
// file (TEXTANALYSIS_NER_BENCH_DATA, e.g. .../ontonotes/dev.jsonl.gz; the
// benchmark is skipped without it). Unlike BenchmarkRecognize, whose short
// text keeps the few weights it reads in the caches, thousands of
// sentences read the model's tables as the command line does, mostly from
// memory. One op is the whole file; tok/s counts whitespace-separated words.
func BenchmarkRecognizeSentences(b *testing.B) {
	path := os.Getenv("TEXTANALYSIS_NER_BENCH_DATA")
	if path == "" {
		b.Skip("TEXTANALYSIS_NER_BENCH_DATA names no data file")
	}
	model := os.Getenv("TEXTANALYSIS_NER_BENCH_MODEL")
	texts := readTexts(b, path)
	r := testRecognizer(b, model)
	words := 0
	for _, t := range texts {
		words += len(strings.Fields(t))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			if _, err := r.Recognize(b.Context(), t); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(words)*float64(b.N)/b.Elapsed().Seconds(), "words/s")
}

// readTexts returns the "text" of each line of a gzipped JSON-lines file.
func readTexts(tb testing.TB, path string) []string {
	tb.Helper()
	f, err := os.Open(path)
	require.NoError(tb, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(tb, err)
	var texts []string
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Text string `json:"text"`
		}
		require.NoError(tb, json.Unmarshal(sc.Bytes(), &rec))
		texts = append(texts, rec.Text)
	}
	require.NoError(tb, sc.Err())
	return texts
}
