package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/gob"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"os"
	"slices"

	"github.com/jdkato/prose/v2"
)

func main() {
	out := flag.String("o", "tagger.bin.gz", "output file")
	flag.Parse()
	if err := run(*out); err != nil {
		slog.Error("gentagger", "err", err)
		os.Exit(1)
	}
}

func decode(name string, v any) error {
	b, err := prose.Asset("model/AveragedPerceptron/" + name)
	if err != nil {
		return fmt.Errorf("read prose asset %s: %w", name, err)
	}
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(v); err != nil {
		return fmt.Errorf("decode prose asset %s: %w", name, err)
	}
	return nil
}

func run(out string) error {
	var weights map[string]map[string]float64
	var tags map[string]string
	var classes []string
	if err := decode("classes.gob", &classes); err != nil {
		return err
	}
	if err := decode("tags.gob", &tags); err != nil {
		return err
	}
	if err := decode("weights.gob", &weights); err != nil {
		return err
	}
	index := map[string]int{}
	for i, c := range classes {
		if _, dup := index[c]; dup {
			return fmt.Errorf("class %q listed twice", c)
		}
		index[c] = i
	}
	var buf bytes.Buffer
	uv := func(n uint64) { buf.Write(binary.AppendUvarint(nil, n)) }
	str := func(s string) { uv(uint64(len(s))); buf.WriteString(s) }
	buf.WriteString("nlptag1\n")
	uv(uint64(len(classes)))
	for _, c := range classes {
		str(c)
	}
	words := sortedKeys(tags)
	uv(uint64(len(words)))
	for _, w := range words {
		i, ok := index[tags[w]]
		if !ok {
			return fmt.Errorf("tag dictionary: %q has tag %q, not a class", w, tags[w])
		}
		str(w)
		uv(uint64(i))
	}
	feats := sortedKeys(weights)
	uv(uint64(len(feats)))
	pairs := 0
	for _, f := range feats {
		ws := weights[f]
		labels := sortedKeys(ws)
		slices.SortFunc(labels, func(a, b string) int { return index[a] - index[b] })
		str(f)
		uv(uint64(len(labels)))
		for _, l := range labels {
			i, ok := index[l]
			if !ok {
				return fmt.Errorf("feature %q: label %q is not a class", f, l)
			}
			w := ws[l]
			n := math.Round(w * 1000)
			if math.Abs(n) > 1<<52 || n/1000 != w {
				return fmt.Errorf("feature %q label %q: weight %v is not n/1000", f, l, w)
			}
			uv(uint64(i))
			buf.Write(binary.AppendVarint(nil, int64(n)))
			pairs++
		}
	}
	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return err
	}
	// No name or time in the header: the output depends on the data only.
	if _, err := zw.Write(buf.Bytes()); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(out, z.Bytes(), 0o644); err != nil {
		return err
	}
	slog.Info("wrote tagger", "file", out, "classes", len(classes), "tagdict", len(words),
		"features", len(feats), "weights", pairs, "bytes", z.Len(), "raw", buf.Len())
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
