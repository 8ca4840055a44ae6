package sentiment

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jonreiter/govader"
)

// devTexts reads the texts of the sets named in SENTIMENT_BENCH_SETS, a
// list of set folders separated by ':' (each with dev.jsonl, as the
// evaluation data has them), e.g.
// SENTIMENT_BENCH_SETS=$(echo ../../shared/data/sentiment/*/ | tr ' ' :).
// The data is not in the repository: without the variable the benchmark
// is skipped.
func devTexts(b *testing.B) (texts []string, total int64) {
	sets := os.Getenv("SENTIMENT_BENCH_SETS")
	if sets == "" {
		b.Skip("SENTIMENT_BENCH_SETS names no set folder")
	}
	for _, dir := range strings.Split(sets, ":") {
		if dir == "" {
			continue
		}
		f, err := os.Open(filepath.Join(dir, "dev.jsonl"))
		if os.IsNotExist(err) {
			continue // a folder without texts, such as the lexicon
		}
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var rec struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				b.Fatalf("%s: %v", f.Name(), err)
			}
			texts = append(texts, rec.Text)
			total += int64(len(rec.Text))
		}
		f.Close()
		if err := sc.Err(); err != nil {
			b.Fatal(err)
		}
	}
	if len(texts) == 0 {
		b.Fatalf("no texts in %s", sets)
	}
	return texts, total
}

// BenchmarkDevHybridWhole scores every dev text with the default model,
// whole texts only, as a batch does; one op is one pass over all texts,
// and texts/s is reported beside [BenchmarkDevGovader]'s.
func BenchmarkDevHybridWhole(b *testing.B) {
	texts, total := devTexts(b)
	a := newTestAnalyzer(b, Options{Model: ModelHybrid, WholeOnly: true})
	b.ReportAllocs()
	b.SetBytes(total)
	for b.Loop() {
		for _, t := range texts {
			if _, err := a.Analyze(b.Context(), t); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "texts/s")
}

// BenchmarkDevGovader is the reference point of the speed goal: the
// govader module's PolarityScores on the same texts.
func BenchmarkDevGovader(b *testing.B) {
	texts, total := devTexts(b)
	g := govader.NewSentimentIntensityAnalyzer()
	b.ReportAllocs()
	b.SetBytes(total)
	for b.Loop() {
		for _, t := range texts {
			g.PolarityScores(t)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "texts/s")
}
