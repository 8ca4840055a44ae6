package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/textanalysis"
)

var fuzzLimits = textanalysis.Limits{MaxTextRunes: 50, MaxQuestionRunes: 10, MaxURLRunes: 30, MaxSpans: 5}

// checkDecoded holds for every request: it decodes to valid fields or to
// errors whose 422 body encodes and points at the right place.
func checkDecoded(t *testing.T, op operation, in *input, err error, source string) {
	t.Helper()
	if err != nil {
		var verr *validationError
		var big *errBodyTooLarge
		switch {
		case errors.As(err, &verr):
			if len(verr.Detail) == 0 {
				t.Fatal("validation error without detail")
			}
			for _, d := range verr.Detail {
				if len(d.Loc) == 0 || d.Loc[0] != source || d.Type == "" || d.Msg == "" {
					t.Fatalf("bad detail %+v", d)
				}
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			if err := enc.Encode(verr); err != nil {
				t.Fatalf("422 body does not encode: %v", err)
			}
			if !json.Valid(buf.Bytes()) {
				t.Fatalf("422 body is not JSON: %s", buf.Bytes())
			}
		case errors.As(err, &big):
		default:
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		return
	}
	for _, f := range op.Fields {
		v, ok := in.values[f.Name]
		if !ok {
			if f.Required {
				t.Fatalf("required %s missing without error", f.Name)
			}
			continue
		}
		if !utf8.ValidString(v) {
			t.Fatalf("%s is not valid UTF-8", f.Name)
		}
		if f.MaxRunes != nil && utf8.RuneCountInString(v) > f.MaxRunes(fuzzLimits) {
			t.Fatalf("%s over its limit", f.Name)
		}
	}
}

func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{`{"text":"a"}`, `{}`, `null`, ``, `[1]`, `{"text":1}`, `{"question":"q","url":"u","context":"c"}`,
		`{"text":"é\u0000","model":null}`, `{"text":"a"} x`, `{"a":`, "\xff", `{"text":"` + strings.Repeat("x", 60) + `"}`} {
		f.Add(seed, uint8(1))
		f.Add(seed, uint8(9))
	}
	f.Fuzz(func(t *testing.T, body string, which uint8) {
		var posts []operation
		for _, op := range operations {
			if op.Method == "POST" {
				posts = append(posts, op)
			}
		}
		op := posts[int(which)%len(posts)]
		r := httptest.NewRequest("POST", op.Path, strings.NewReader(body))
		in, err := decodeBody(op, r, 4096, fuzzLimits)
		checkDecoded(t, op, in, err, "body")
	})
}

func FuzzDecodeQuery(f *testing.F) {
	for _, seed := range []string{"text=a", "", "text=%ff", "question=&context=c", "text=a&text=b&model=x", "format=span&spans=0:1:X&text=ab", "%zz"} {
		f.Add(seed, uint8(2))
		f.Add(seed, uint8(8))
	}
	f.Fuzz(func(t *testing.T, query string, which uint8) {
		var gets []operation
		for _, op := range operations {
			if op.Method == "GET" {
				gets = append(gets, op)
			}
		}
		op := gets[int(which)%len(gets)]
		r := httptest.NewRequest("GET", op.Path, nil)
		r.URL.RawQuery = query
		if _, err := url.ParseQuery(query); err != nil {
			// Go keeps what parses; the check is the same.
			_ = err
		}
		in, err := decodeQuery(op, r, fuzzLimits)
		checkDecoded(t, op, in, err, "query")
	})
}
