package sentiment

import (
	"os"
	"path/filepath"
	"testing"
)

func benchAnalyze(b *testing.B, model, text string) {
	a := newTestAnalyzer(b, Options{Model: model})
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := a.Analyze(b.Context(), text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeVADERSentence(b *testing.B) {
	benchAnalyze(b, ModelVADER, "The staff were extremely helpful, but the room was NOT clean!!")
}

func BenchmarkAnalyzeVADERReview(b *testing.B) {
	text, err := os.ReadFile(filepath.Join("testdata", "review.txt"))
	if err != nil {
		b.Fatal(err)
	}
	benchAnalyze(b, ModelVADER, string(text))
}

// BenchmarkNewVADER would show the lexicon being rebuilt on every New.
func BenchmarkNewVADER(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Options{Model: ModelVADER}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyzeHybridWholeTweet(b *testing.B) {
	a := newTestAnalyzer(b, Options{Model: ModelHybrid, WholeOnly: true})
	text := "@user Loving the new update, but the battery dies way too fast. Not great :("
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := a.Analyze(b.Context(), text); err != nil {
			b.Fatal(err)
		}
	}
}
