package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

func TestAnswerBody(t *testing.T) {
	tests := []struct {
		name string
		ans  textanalysis.Answer
		want string
	}{
		{"found", textanalysis.Answer{Found: true, Text: "AT&T <Inc>", Score: 0.5, Start: 3, End: 13, Source: "context"},
			`{"answer":"AT&T <Inc>","score":0.5,"start":3,"end":13,"source":"context"}`},
		{"not found", textanalysis.Answer{Score: 0.01, Source: "url", URL: "https://example.com/?a=1&b=2"},
			`{"answer":null,"score":0.01,"start":null,"end":null,"source":"url","url":"https://example.com/?a=1&b=2"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, EncodeJSON(&b, NewAnswerBody(&tt.ans), false))
			assert.Equal(t, tt.want+"\n", b.String())
		})
	}
}

// No answer of the API escapes HTML characters: /qa, which used the
// library's MarshalJSON, answers "AT&T <Inc>" as /ner does.
func TestNoHTMLEscapingOnTheWire(t *testing.T) {
	ms := newMeteredServer(t, filepath.Join(t.TempDir(), "ta.db"), access.Config{Rates: noRates}, Config{})
	key := ms.issue(t, store.PlanFree, "wire@example.com").Secret
	res := call(t, http.MethodPost, ms.URL+"/qa", key, `{"question":"Who bought the company?","context":"The company was bought by AT&T <Inc> in 2005."}`)
	require.Equal(t, http.StatusOK, res.status, res.body)
	assert.NotContains(t, res.body, `\u0026`)
	assert.NotContains(t, res.body, `\u003c`)
	assert.Contains(t, res.body, "AT&T")

	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html lang="en-US"><head><title>AT&amp;T &lt;Inc&gt;</title></head><body><article><p>`+
			`AT&amp;T &lt;Inc&gt; is a company with a long history of telephones and networks across the whole country.</p>`+
			`<p>It was founded a long time ago, and it still sells telephone service to many people today.</p></article></body></html>`)
	}))
	defer page.Close()
	res = call(t, http.MethodGet, ms.URL+"/text?url="+url.QueryEscape(page.URL+"/?a=1&b=2"), key, "")
	require.Equal(t, http.StatusOK, res.status, res.body)
	assert.NotContains(t, res.body, `\u0026`)
	assert.Contains(t, res.body, `"title":"AT&T <Inc>"`)
	assert.Contains(t, res.body, `"url":"`+page.URL+`/?a=1&b=2"`)
	t.Run("language is the base language, the declared tag kept", func(t *testing.T) {
		var body TextBody
		require.NoError(t, json.Unmarshal([]byte(res.body), &body))
		require.NotNil(t, body.Language)
		require.NotNil(t, body.LanguageTag)
		assert.Equal(t, "en", *body.Language)
		assert.Equal(t, "en-US", *body.LanguageTag)
	})
}

func TestBaseLanguage(t *testing.T) {
	for tag, want := range map[string]string{
		"en": "en", "en-US": "en", "EN_us": "en", "zh-Hant-TW": "zh", "gsw-CH": "gsw", " de-AT ": "de",
		"": "", "und": "", "x-klingon": "", "i-default": "", "english": "", "e1": "",
	} {
		assert.Equal(t, want, baseLanguage(tag), tag)
	}
}
