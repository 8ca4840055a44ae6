package textanalysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/display"
	"github.com/textanalysis/go-textanalysis/extract"
)

var shared = sync.OnceValues(func() (*Analyzer, error) {
	return New(Options{Fetch: extract.Options{AllowPrivate: true}})
})

func testAnalyzer(tb testing.TB) *Analyzer {
	tb.Helper()
	an, err := shared()
	require.NoError(tb, err)
	return an
}

func TestNewRejectsUnknownModels(t *testing.T) {
	_, err := New(Options{NERModel: "nope"})
	var unknown *UnknownModelError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, "ner", unknown.Kind)
	assert.Equal(t, NERModelNames(), unknown.Known)

	_, err = New(Options{SentimentModel: "nope"})
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, "sentiment", unknown.Kind)
}

func TestLimitsAreEnforced(t *testing.T) {
	an := testAnalyzer(t)
	long := strings.Repeat("a", DefaultMaxTextRunes+1)
	ctx := context.Background()
	var tooLong *TooLongError

	_, err := an.Entities(ctx, long, "")
	require.ErrorAs(t, err, &tooLong)
	assert.Equal(t, "text", tooLong.Field)

	_, err = an.Sentiment(ctx, long, "")
	require.ErrorAs(t, err, &tooLong)

	_, err = an.Answer(ctx, "q", long)
	require.ErrorAs(t, err, &tooLong)
	assert.Equal(t, "context", tooLong.Field)

	_, err = an.Answer(ctx, strings.Repeat("q", DefaultMaxQuestionRunes+1), "c")
	require.ErrorAs(t, err, &tooLong)
	assert.Equal(t, "question", tooLong.Field)

	// The limit counts code points, not bytes.
	_, err = an.Sentiment(ctx, strings.Repeat("é", DefaultMaxTextRunes), "")
	assert.NoError(t, err)
}

func TestEntitiesOffsetsAndModel(t *testing.T) {
	an := testAnalyzer(t)
	text := "“Zoë Smith” moved from Paris to Berlin in 2019.\nShe joined Siemens."
	res, err := an.Entities(context.Background(), text, "")
	require.NoError(t, err)
	assert.Equal(t, an.DefaultNERModel(), res.Model)
	require.NotEmpty(t, res.Entities)
	rs := []rune(text)
	for _, e := range res.Entities {
		assert.Equal(t, e.Text, string(rs[e.Start:e.End]))
	}
	// An empty text has an empty list, not null, on the wire.
	empty, err := an.Entities(context.Background(), "", "")
	require.NoError(t, err)
	b, err := json.Marshal(empty)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"entities":[]`)
}

func TestDisplay(t *testing.T) {
	an := testAnalyzer(t)
	ctx := context.Background()
	tests := []struct {
		name string
		req  DisplayRequest
		want []string
	}{
		{"recognized entities", DisplayRequest{Text: "Angela Merkel visited Washington."}, []string{"Washington"}},
		{"given spans", DisplayRequest{Text: "Ada wrote notes.", Spans: []display.Span{{Start: 0, End: 3, Label: "PERSON"}}}, []string{"PERSON", "Ada"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			require.NoError(t, an.Display(ctx, tt.req, &b))
			for _, w := range tt.want {
				assert.Contains(t, b.String(), w)
			}
		})
	}
	var spanErr *display.SpanError
	err := an.Display(ctx, DisplayRequest{Text: "abc", Spans: []display.Span{{Start: 2, End: 9, Label: "X"}}}, &strings.Builder{})
	assert.ErrorAs(t, err, &spanErr)
}

func TestDisplayOutputLimit(t *testing.T) {
	ctx := context.Background()
	// Ten spans over 100,000 code points of one-letter words: 65 MB drawn.
	text := strings.Repeat("a ", DefaultMaxTextRunes/2)
	spans := make([]display.Span, 10)
	for i := range spans {
		spans[i] = display.Span{Start: 0, End: len(text), Label: "PERSON"}
	}
	small, err := New(Options{Lazy: true, Limits: Limits{MaxDisplayBytes: 1000}})
	require.NoError(t, err)
	tests := []struct {
		name string
		an   *Analyzer
		req  DisplayRequest
		max  int
	}{
		{"default limit", testAnalyzer(t), DisplayRequest{Text: text, Spans: spans}, DefaultMaxDisplayBytes},
		{"configured limit", small, DisplayRequest{Text: strings.Repeat("Ada ", 100), Spans: []display.Span{{Start: 0, End: 400, Label: "PERSON"}}}, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			err := tt.an.Display(ctx, tt.req, &b)
			require.ErrorIs(t, err, display.ErrOutputTooLarge)
			var tooLarge *display.OutputTooLargeError
			require.ErrorAs(t, err, &tooLarge)
			assert.Equal(t, tt.max, tooLarge.Max)
			assert.Zero(t, b.Len())
		})
	}
}

func TestAnswerURL(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Bridges</title></head><body><nav>Home | About</nav><article>
<p>The Golden Gate Bridge opened in 1937 and spans the Golden Gate strait in San Francisco.</p>
<p>Its chief engineer was Joseph Strauss, who had built hundreds of smaller bridges before it.</p>
</article></body></html>`)
	}))
	defer page.Close()
	an := testAnalyzer(t)
	ans, err := an.AnswerURL(context.Background(), "Who was the chief engineer of the bridge?", page.URL, AnswerURLOptions{WithContext: true})
	require.NoError(t, err)
	assert.Equal(t, "url", ans.Source)
	assert.Equal(t, page.URL, ans.URL)
	require.True(t, ans.Found)
	assert.Contains(t, ans.Text, "Strauss")
	assert.Equal(t, ans.Text, string([]rune(ans.Context)[ans.Start:ans.End]))

	_, err = New(Options{})
	require.NoError(t, err)
	guarded, err := New(Options{})
	require.NoError(t, err)
	_, err = guarded.AnswerURL(context.Background(), "q?", page.URL, AnswerURLOptions{})
	var urlErr *extract.URLError
	assert.ErrorAs(t, err, &urlErr, "loopback must be refused without AllowPrivate")
}

// One Analyzer serves many goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	an := testAnalyzer(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text := fmt.Sprintf("Maria Garcia flew from Madrid to Tokyo on day %d. It was great.", i)
			if _, err := an.Entities(ctx, text, ""); err != nil {
				errs <- err
			}
			for _, m := range NERModelNames() {
				if _, err := an.Entities(ctx, text, m); err != nil {
					errs <- err
				}
			}
			if _, err := an.Sentiment(ctx, text, ""); err != nil {
				errs <- err
			}
			if _, err := an.Answer(ctx, "Where did Maria fly to?", text); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCancelledContext(t *testing.T) {
	an := testAnalyzer(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := an.Entities(ctx, strings.Repeat("Paris is big. ", 200), "")
	assert.True(t, errors.Is(err, context.Canceled), "got %v", err)
}

func TestLazyLoadsOnFirstUse(t *testing.T) {
	an, err := New(Options{Lazy: true})
	require.NoError(t, err)
	res, err := an.Sentiment(context.Background(), "Lovely!", "vader")
	require.NoError(t, err)
	assert.Equal(t, "positive", res.Label)
	ans, err := an.Answer(context.Background(), "Who wrote it?", "Mary Shelley wrote it in 1818.")
	require.NoError(t, err)
	assert.Equal(t, "context", ans.Source)
}

func TestSentimentWholeHasTheSameScores(t *testing.T) {
	an := testAnalyzer(t)
	text := "The room was lovely. The staff were rude!"
	for _, model := range SentimentModelNames() {
		full, err := an.Sentiment(context.Background(), text, model)
		require.NoError(t, err)
		whole, err := an.SentimentWhole(context.Background(), text, model)
		require.NoError(t, err)
		assert.Len(t, full.Sentences, 2)
		assert.Empty(t, whole.Sentences)
		full.Sentences, whole.Sentences = nil, nil
		assert.Equal(t, full, whole, model)
	}
	_, err := an.SentimentWhole(context.Background(), "x", "nope")
	var unknown *UnknownModelError
	assert.ErrorAs(t, err, &unknown)
}
