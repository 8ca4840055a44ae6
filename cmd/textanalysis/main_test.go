package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run runs the CLI like main does and returns stdout, stderr and the exit code.
func run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := newApp(strings.NewReader(stdin), &out, &errOut)
	err := runApp(context.Background(), app, append([]string{"textanalysis"}, args...))
	code := exitOK
	if err != nil {
		code = exitCodeOf(err)
	}
	return out.String(), errOut.String(), code
}

func TestEachFunctionOnStdin(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  []string // substrings of stdout
	}{
		{"ner", "Ada Lovelace was born in London.", []string{"ner"}, []string{`"entities":[`, `"London"`}},
		{"sentiment", "What a wonderful, lovely day!", []string{"sentiment"}, []string{`"label":"positive"`, `"sentences":[`}},
		{"sentiment vader", "What a wonderful, lovely day!", []string{"sentiment", "--model", "vader"}, []string{`"compound":0.`}},
		{"qa", "Ada Lovelace was born in London in 1815.", []string{"qa", "-q", "Where was Ada born?"}, []string{`"answer":"London"`, `"source":"context"`}},
		{"display", "Ada Lovelace was born in London.", []string{"display", "--spans", "0:12:PERSON"}, []string{"Lovelace", "PERSON", "was born in London."}},
		{"display page", "Ada was here.", []string{"display", "--page", "--spans", "0:3:PERSON"}, []string{"<!DOCTYPE html>", "PERSON"}},
		{"text from html", "<html><head><title>T</title></head><body><article><p>" + strings.Repeat("Plain words in a paragraph of the article. ", 8) + "</p></article></body></html>",
			[]string{"text", "--html", "-", "--url", "https://example.com/a"}, []string{"Plain words in a paragraph"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.stdin, tt.args...)
			require.Equal(t, exitOK, code, errOut)
			for _, w := range tt.want {
				assert.Contains(t, strings.ReplaceAll(out, "<!doctype", "<!DOCTYPE"), w)
			}
		})
	}
}

func TestArgumentsAndPretty(t *testing.T) {
	out, _, code := run(t, "", "ner", "--pretty", "Ada", "Lovelace", "visited", "Paris.")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "\n  \"entities\": [")
	var res struct {
		Model    string `json:"model"`
		Entities []struct {
			Text  string `json:"text"`
			Start int    `json:"start"`
			End   int    `json:"end"`
		} `json:"entities"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	text := []rune("Ada Lovelace visited Paris.")
	for _, e := range res.Entities {
		assert.Equal(t, e.Text, string(text[e.Start:e.End]))
	}
}

func TestFileInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.txt")
	require.NoError(t, os.WriteFile(path, []byte("I hate rainy Mondays."), 0o600))
	out, _, code := run(t, "", "sentiment", "--file", path)
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, `"label":"negative"`)
}

func TestBatch(t *testing.T) {
	in := `{"id":1,"text":"I love it"}
{"id":"b","text":"I hate it"}

{"id":{"n":3},"text":"It is a chair"}
`
	out, errOut, code := run(t, in, "sentiment", "--input", "-")
	require.Equal(t, exitOK, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3)
	assert.True(t, strings.HasPrefix(lines[0], `{"id":1,"label":"positive"`), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], `{"id":"b","label":"negative"`), lines[1])
	assert.True(t, strings.HasPrefix(lines[2], `{"id":{"n":3},"label":`), lines[2])

	t.Run("workers and output file", func(t *testing.T) {
		var b strings.Builder
		for i := range 20 {
			fmt.Fprintf(&b, `{"id":%d,"text":"Ada Lovelace met Charles Babbage in London in 1833."}`+"\n", i)
		}
		path := filepath.Join(t.TempDir(), "out.jsonl")
		_, errOut, code := run(t, b.String(), "ner", "--input", "-", "--output", path, "--workers", "3")
		require.Equal(t, exitOK, code, errOut)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		require.Len(t, lines, 20)
		for i, line := range lines {
			var v struct {
				ID       int               `json:"id"`
				Entities []json.RawMessage `json:"entities"`
			}
			require.NoError(t, json.Unmarshal([]byte(line), &v))
			assert.Equal(t, i, v.ID, "answers keep the input order")
			assert.NotEmpty(t, v.Entities)
		}
	})

	t.Run("workers keep the order of lines of very different cost", func(t *testing.T) {
		var b strings.Builder
		long := strings.Repeat("Ada Lovelace met Charles Babbage in London. ", 400)
		for i := range 300 {
			text := "Paris."
			if i%7 == 0 {
				text = long
			}
			fmt.Fprintf(&b, `{"id":%d,"text":%q}`+"\n", i, text)
		}
		serial, errOut, code := run(t, b.String(), "ner", "--input", "-", "--workers", "1")
		require.Equal(t, exitOK, code, errOut)
		parallel, errOut, code := run(t, b.String(), "ner", "--input", "-", "--workers", "4")
		require.Equal(t, exitOK, code, errOut)
		assert.Equal(t, serial, parallel)
	})

	t.Run("workers answer a line-by-line driver at once", func(t *testing.T) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		app := newApp(inR, outW, io.Discard)
		done := make(chan error, 1)
		go func() {
			done <- app.RunContext(context.Background(), []string{"textanalysis", "sentiment", "--input", "-", "--workers", "3"})
			outW.Close()
		}()
		answers := bufio.NewReader(outR)
		// nextAnswer fails the test when no answer comes: a batch that
		// waited for more input would hang.
		nextAnswer := func() string {
			got := make(chan string, 1)
			go func() {
				line, _ := answers.ReadString('\n')
				got <- line
			}()
			select {
			case line := <-got:
				return line
			case <-time.After(30 * time.Second):
				t.Fatal("no answer within 30 s: the batch is waiting for more input")
			}
			return ""
		}
		for i := range 5 {
			_, err := fmt.Fprintf(inW, `{"id":%d,"text":"What a lovely day"}`+"\n", i)
			require.NoError(t, err)
			// The next line is only written once this one is answered: a
			// batch that waited for more input would hang here.
			line := nextAnswer()
			assert.True(t, strings.HasPrefix(line, fmt.Sprintf(`{"id":%d,"label":"positive"`, i)), line)
		}
		// Lines that arrive together go to the workers, which answer
		// them in order, and then the next lone line at once.
		var many strings.Builder
		for i := 5; i < 40; i++ {
			fmt.Fprintf(&many, `{"id":%d,"text":"What a lovely day"}`+"\n", i)
		}
		go func() { _, _ = io.WriteString(inW, many.String()) }()
		for i := 5; i < 41; i++ {
			if i == 40 {
				_, err := fmt.Fprintf(inW, `{"id":%d,"text":"What a lovely day"}`+"\n", i)
				require.NoError(t, err)
			}
			line := nextAnswer()
			assert.True(t, strings.HasPrefix(line, fmt.Sprintf(`{"id":%d,"label":"positive"`, i)), line)
		}
		require.NoError(t, inW.Close())
		require.NoError(t, <-done)
	})

	t.Run("negative workers is a usage error", func(t *testing.T) {
		_, _, code := run(t, `{"id":1,"text":"x"}`, "sentiment", "--input", "-", "--workers", "-1")
		assert.Equal(t, exitUsage, code)
	})

	t.Run("a bad line is reported and the batch goes on", func(t *testing.T) {
		in := `{"id":1,"question":"Where?","context":"In Paris."}
not json
{"id":3,"question":"Where?"}
{"id":4,"question":"Where was it?","context":"It was in Paris."}
`
		out, _, code := run(t, in, "qa", "--input", "-")
		assert.Equal(t, exitBatchFailed, code)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.Len(t, lines, 4)
		assert.Contains(t, lines[1], `"error":"invalid JSON line`)
		assert.Contains(t, lines[1], "for plain text use --file -", "a line of plain text gets the hint")
		assert.NotContains(t, lines[2], "for plain text", "a JSON object with a missing field does not")
		assert.Contains(t, lines[2], `{"id":3,"error":`)
		assert.True(t, strings.HasPrefix(lines[3], `{"id":4,"answer":`), lines[3])
	})

	t.Run("text lines with html", func(t *testing.T) {
		page := "<html><body><article><p>" + strings.Repeat("A sentence of the article body. ", 10) + "</p></article></body></html>"
		line, err := json.Marshal(map[string]string{"id": "p1", "url": "https://example.com/x", "html": page})
		require.NoError(t, err)
		out, errOut, code := run(t, string(line)+"\n", "text", "--input", "-")
		require.Equal(t, exitOK, code, errOut)
		var v struct {
			ID   string `json:"id"`
			Text string `json:"text"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &v))
		assert.Equal(t, "p1", v.ID)
		assert.Contains(t, v.Text, "A sentence of the article body.")
	})
}

func TestTextFromURL(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html lang="en"><head><title>News</title></head><body><article><p>`+strings.Repeat("The council approved the new budget on Tuesday. ", 6)+`</p></article></body></html>`)
	}))
	defer ts.Close()

	out, errOut, code := run(t, "", "text", "--allow-private", ts.URL)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `"title":"News"`)
	assert.Contains(t, out, "approved the new budget")

	// Without --allow-private the guard refuses this machine's own address.
	_, _, code = run(t, "", "text", ts.URL)
	assert.Equal(t, exitUsage, code)
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  int
	}{
		{"unknown flag", "", []string{"ner", "--nope"}, exitUsage},
		{"unknown model", "text", []string{"ner", "--model", "nope"}, exitUsage},
		{"qa without question", "context", []string{"qa"}, exitUsage},
		{"bad spans", "abc", []string{"display", "--spans", "0:9:X"}, exitUsage},
		{"display too large", strings.Repeat("a ", 50_000), []string{"display", "--format", "span", "--spans",
			strings.TrimSuffix(strings.Repeat("0:100000:X,", 10), ",")}, exitUsage},
		{"missing input file", "", []string{"ner", "--input", "/nonexistent/file.jsonl"}, exitUsage},
		{"help", "", []string{"--help"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, code := run(t, tt.stdin, tt.args...)
			assert.Equal(t, tt.want, code)
		})
	}
}

func TestHelpHasExamples(t *testing.T) {
	for _, cmd := range []string{"text", "ner", "display", "sentiment", "qa", "serve"} {
		out, _, code := run(t, "", cmd, "--help")
		require.Equal(t, exitOK, code)
		assert.Contains(t, out, "Examples:", cmd)
	}
}
