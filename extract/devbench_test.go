package extract

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textanalysis/go-textanalysis/internal/cputime"
)

// devPages reads the pages of the sets named in EXTRACT_BENCH_SETS, a
// list of set folders separated by ':' (each with html/<id>.html.gz or
// .html, as the evaluation data has them), e.g.
// EXTRACT_BENCH_SETS=../../shared/data/extract/scrapinghub. The data is
// not in the repository: without the variable the benchmark is skipped.
func devPages(b *testing.B) (pages [][]byte, total int64) {
	sets := os.Getenv("EXTRACT_BENCH_SETS")
	if sets == "" {
		b.Skip("EXTRACT_BENCH_SETS names no set folder")
	}
	pages, err := readDevPages(sets)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range pages {
		total += int64(len(p))
	}
	return pages, total
}

// readDevPages reads the pages of the set folders in sets, separated by ':'.
func readDevPages(sets string) (pages [][]byte, err error) {
	for _, dir := range strings.Split(sets, ":") {
		files, _ := filepath.Glob(filepath.Join(dir, "html", "*.html*"))
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			if strings.HasSuffix(f, ".gz") {
				zr, err := gzip.NewReader(bytes.NewReader(raw))
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f, err)
				}
				if raw, err = io.ReadAll(zr); err != nil {
					return nil, fmt.Errorf("%s: %w", f, err)
				}
			}
			pages = append(pages, raw)
		}
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("no pages in %s", sets)
	}
	return pages, nil
}

// BenchmarkDevPages extracts every page of the sets in EXTRACT_BENCH_SETS
// once per op; it reports pages per CPU-second as the harness does.
func BenchmarkDevPages(b *testing.B) {
	pages, total := devPages(b)
	b.ReportAllocs()
	b.SetBytes(total)
	cpu := cputime.Process()
	for b.Loop() {
		for _, raw := range pages {
			if _, err := FromHTML(b.Context(), bytes.NewReader(raw), "", Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if cpu > 0 {
		b.ReportMetric(float64(len(pages))*float64(b.N)/(float64(cputime.Process()-cpu)/1e9), "pages/cpu-s")
	}
}

// BenchmarkParseDevPages parses (builds the tree of) every page of the
// sets in EXTRACT_BENCH_SETS once per op.
func BenchmarkParseDevPages(b *testing.B) {
	pages, total := devPages(b)
	for i, p := range pages {
		pages[i] = decodeBytes(p, "")
	}
	b.ReportAllocs()
	b.SetBytes(total)
	cpu := cputime.Process()
	for b.Loop() {
		for _, p := range pages {
			if _, err := parseHTML(p, newWork(b.Context(), Options{})); err != nil {
				b.Fatal(err)
			}
		}
	}
	if cpu > 0 {
		b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N)/float64(len(pages)), "cpu-ns/page")
	}
}
