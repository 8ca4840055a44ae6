package extract

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPooledBuffersNotKept checks that neither a Page nor a tree keeps a
// slice of the buffers that FromHTML and the parser give back to the pool:
// extracting other pages, which reuse them, must leave an earlier result
// as it was.
func TestPooledBuffersNotKept(t *testing.T) {
	page := func(word string) []byte {
		return []byte(`<html lang="en"><head><title>` + word + ` title</title><meta name="author" content="` + word + ` Author">` +
			`<script>var x = 1;</script></head><body class="` + word + `"><article><h1>` + word + `</h1>` +
			strings.Repeat(`<p class="`+word+`">The `+word+` paragraph, with commas, is long enough to be kept as text. `+word+` again.</p><!-- c -->`, 20) +
			`<noscript><p>` + word + ` in noscript</p></noscript></article></body></html>`)
	}
	first, err := FromHTML(t.Context(), bytes.NewReader(page("alpha")), "", Options{})
	require.NoError(t, err)
	require.Contains(t, first.Text, "alpha paragraph")
	want := fmt.Sprintf("%+v", *first)
	doc := testParse(t, page("gamma"))
	wantTree := dumpTree(doc)
	for i := 0; i < 4; i++ {
		_, err := FromHTML(t.Context(), strings.NewReader(string(page("betabeta"))), "", Options{})
		require.NoError(t, err)
	}
	assert.Equal(t, want, fmt.Sprintf("%+v", *first))
	assert.Equal(t, wantTree, dumpTree(doc))
}

// TestConcurrentExtractionsAgree extracts the golden pages from several
// goroutines at once, so that they take buffers, tree builders and tables
// from the pools while others give them back: every result must be the
// one a lone extraction gives (run with -race to check the sharing too).
func TestConcurrentExtractionsAgree(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.html"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var pages [][]byte
	var want []string
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		p, err := FromHTML(t.Context(), bytes.NewReader(raw), "", Options{})
		require.NoError(t, err)
		pages = append(pages, raw)
		want = append(want, fmt.Sprintf("%+v", *p))
	}
	const workers = 4
	got := make([][]string, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				for i := range pages {
					j := (i + k + round) % len(pages) // different pages at the same time
					p, err := FromHTML(t.Context(), bytes.NewReader(pages[j]), "", Options{})
					if err != nil {
						got[k] = append(got[k], fmt.Sprintf("page %d: %v", j, err))
						continue
					}
					if s := fmt.Sprintf("%+v", *p); s != want[j] {
						got[k] = append(got[k], fmt.Sprintf("page %d differs", j))
					}
				}
			}
		}()
	}
	wg.Wait()
	for k := range workers {
		assert.Empty(t, got[k], "worker %d", k)
	}
}
