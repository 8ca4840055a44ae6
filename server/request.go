package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/textanalysis/go-textanalysis/server/mcp"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// input is a decoded, validated request: the string value of each field
// that was given, and where it came from, for error locations.
type input struct {
	source string            // "query" or "body"
	values map[string]string // present fields only
	// whole is the body as the client sent it (compacted JSON), echoed as
	// the "input" of body-level errors the way FastAPI does.
	whole json.RawMessage
}

// errorDetail is one entry of FastAPI's HTTPValidationError.detail.
type errorDetail struct {
	Type  string `json:"type"`
	Loc   []any  `json:"loc"`
	Msg   string `json:"msg"`
	Input any    `json:"input"`
	Ctx   any    `json:"ctx,omitempty"`
}

// validationError is a 422: every problem found in the request.
type validationError struct {
	Detail []errorDetail `json:"detail"`
}

func (e *validationError) Error() string {
	var msgs []string
	for _, d := range e.Detail {
		msgs = append(msgs, fmt.Sprintf("%v: %s", d.Loc, d.Msg))
	}
	return "server: invalid request: " + strings.Join(msgs, "; ")
}

func missing(in *input, name string) *validationError {
	var inputValue any
	if in.source == "body" {
		inputValue = in.whole
	}
	return &validationError{Detail: []errorDetail{{Type: "missing", Loc: []any{in.source, name}, Msg: "Field required", Input: inputValue}}}
}

// errBodyTooLarge is a POST body over Config.MaxBodyBytes (413).
type errBodyTooLarge struct{ limit int64 }

func (e *errBodyTooLarge) Error() string {
	return fmt.Sprintf("server: request body is larger than %d bytes", e.limit)
}

// decodeQuery reads the GET form. As in FastAPI, a parameter given twice
// takes its last value and unknown parameters are ignored.
func decodeQuery(op operation, r *http.Request, limits textanalysis.Limits) (*input, error) {
	q := r.URL.Query()
	in := &input{source: "query", values: map[string]string{}}
	var details []errorDetail
	// An MCP GET tool's arguments are typed JSON: the same types are
	// checked as in a POST body, so that both tools of a pair agree.
	args := mcp.QueryArguments(r.Context())
	for _, f := range op.Fields {
		if raw, ok := args[f.Name]; ok && !stringLike(f, raw) {
			details = append(details, errorDetail{Type: "string_type", Loc: []any{"query", f.Name}, Msg: "Input should be a valid string", Input: compactRaw(raw)})
			continue
		}
		vs, ok := q[f.Name]
		if !ok || len(vs) == 0 {
			if f.Required {
				details = append(details, errorDetail{Type: "missing", Loc: []any{"query", f.Name}, Msg: "Field required", Input: nil})
			}
			continue
		}
		v := strings.ToValidUTF8(vs[len(vs)-1], "\uFFFD")
		if d, bad := checkString(f, "query", v, json.RawMessage(nil), limits); bad {
			details = append(details, d)
			continue
		}
		in.values[f.Name] = v
	}
	return finish(op, in, details)
}

// decodeBody reads the POST form: a JSON object, whatever the
// Content-Type says (curl -d sends a form type).
func decodeBody(op operation, r *http.Request, maxBytes int64, limits textanalysis.Limits) (*input, error) {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, &errBodyTooLarge{limit: maxBytes}
		}
		return nil, fmt.Errorf("server: read body: %w", err)
	}
	in := &input{source: "body", values: map[string]string{}}
	if len(body) == 0 {
		return nil, &validationError{Detail: []errorDetail{{Type: "missing", Loc: []any{"body"}, Msg: "Field required", Input: nil}}}
	}
	var probe any
	if err := json.Unmarshal(body, &probe); err != nil {
		return nil, &validationError{Detail: []errorDetail{jsonInvalid(body, err)}}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, body); err != nil {
		return nil, &validationError{Detail: []errorDetail{jsonInvalid(body, err)}}
	}
	in.whole = compact.Bytes()
	obj, isObject := probe.(map[string]any)
	if probe == nil {
		return nil, &validationError{Detail: []errorDetail{{Type: "missing", Loc: []any{"body"}, Msg: "Field required", Input: nil}}}
	}
	if !isObject {
		return nil, &validationError{Detail: []errorDetail{{
			Type: "model_attributes_type", Loc: []any{"body"},
			Msg: "Input should be a valid dictionary or object to extract fields from", Input: in.whole,
		}}}
	}
	// Decode again keeping each value's raw JSON, to echo it in errors as
	// the client wrote it.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, &validationError{Detail: []errorDetail{jsonInvalid(body, err)}}
	}
	var details []errorDetail
	for _, f := range op.Fields {
		v, ok := obj[f.Name]
		if !ok || (v == nil && !f.Required) {
			if f.Required {
				details = append(details, errorDetail{Type: "missing", Loc: []any{"body", f.Name}, Msg: "Field required", Input: in.whole})
			}
			continue
		}
		s, isString := v.(string)
		if _, isArray := v.([]any); isArray && f.SpanArray {
			// The array form of spans: its JSON text is what the string
			// form would hold.
			s, isString = string(compactRaw(raw[f.Name])), true
		}
		if !isString {
			details = append(details, errorDetail{Type: "string_type", Loc: []any{"body", f.Name}, Msg: "Input should be a valid string", Input: compactRaw(raw[f.Name])})
			continue
		}
		if d, bad := checkString(f, "body", s, raw[f.Name], limits); bad {
			details = append(details, d)
			continue
		}
		in.values[f.Name] = s
	}
	return finish(op, in, details)
}

// stringLike reports whether a JSON argument may stand for field f: a
// string, null for an optional field, or for spans an array.
func stringLike(f field, raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return true
	}
	switch raw[0] {
	case '"':
		return true
	case 'n':
		// As in a body: null is absent for an optional field, and the
		// wrong type for a required one.
		return !f.Required
	case '[':
		return f.SpanArray
	}
	return false
}

func compactRaw(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// checkString applies a field's length and enum rules with Pydantic's
// error types and wording.
func checkString(f field, source, v string, raw json.RawMessage, limits textanalysis.Limits) (errorDetail, bool) {
	var echo any = v
	if raw != nil {
		echo = compactRaw(raw)
	}
	loc := []any{source, f.Name}
	if f.MinRunes > 0 && utf8.RuneCountInString(v) < f.MinRunes {
		return errorDetail{Type: "string_too_short", Loc: loc, Msg: fmt.Sprintf("String should have at least %d %s", f.MinRunes, plural(f.MinRunes, "character")),
			Input: echo, Ctx: map[string]any{"min_length": f.MinRunes}}, true
	}
	if f.MaxRunes != nil {
		if max := f.MaxRunes(limits); len(v) > max && utf8.RuneCountInString(v) > max {
			return errorDetail{Type: "string_too_long", Loc: loc, Msg: fmt.Sprintf("String should have at most %d %s", max, plural(max, "character")),
				Input: echo, Ctx: map[string]any{"max_length": max}}, true
		}
	}
	if f.Enum != nil {
		if allowed := f.Enum(); !slices.Contains(allowed, v) {
			expected := literalList(allowed)
			return errorDetail{Type: "literal_error", Loc: loc, Msg: "Input should be " + expected, Input: echo, Ctx: map[string]any{"expected": expected}}, true
		}
	}
	return errorDetail{}, false
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// literalList writes allowed values as Pydantic does: 'a', 'b' or 'c'.
func literalList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "'" + v + "'"
	}
	if len(quoted) <= 1 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}

// jsonInvalid builds FastAPI's json_invalid error. The position is the
// byte offset where parsing stopped; the message follows Python's json
// module for the common cases.
func jsonInvalid(body []byte, err error) errorDetail {
	pos := 0
	msg := "Expecting value"
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		pos = int(syn.Offset) - 1
		if pos < 0 {
			pos = 0
		}
		text := syn.Error()
		switch {
		case strings.Contains(text, "unexpected end of JSON input"):
			pos = len(body)
			msg = "Expecting value"
		case strings.Contains(text, "looking for beginning of object key string"):
			msg = "Expecting property name enclosed in double quotes"
		case strings.Contains(text, "after object key:value pair"):
			msg = "Expecting ',' delimiter"
		case strings.Contains(text, "after object key"):
			msg = "Expecting ':' delimiter"
		case strings.Contains(text, "after array element"):
			msg = "Expecting ',' delimiter"
		case strings.Contains(text, "after top-level value"):
			msg = "Extra data"
		case strings.Contains(text, "in string"):
			msg = "Invalid control character at"
		}
	}
	return errorDetail{Type: "json_invalid", Loc: []any{"body", pos}, Msg: "JSON decode error", Input: map[string]any{}, Ctx: map[string]any{"error": msg}}
}

// finish reports the field errors, or else runs the whole-input check, as
// Pydantic runs a model validator only on valid fields.
func finish(op operation, in *input, details []errorDetail) (*input, error) {
	if len(details) > 0 {
		return nil, &validationError{Detail: details}
	}
	if op.BodyCheck != nil {
		if d := op.BodyCheck(in); len(d) > 0 {
			return nil, &validationError{Detail: d}
		}
	}
	return in, nil
}
