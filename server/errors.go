package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/textanalysis/go-textanalysis/display"
	"github.com/textanalysis/go-textanalysis/extract"
	"github.com/textanalysis/go-textanalysis/qa"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// problem is the body of every error but 422 (DESIGN.md §4): a sentence
// for a person, a machine code, and fields that help.
type problem struct {
	Detail    string `json:"detail"`
	Error     string `json:"error"`
	Cause     string `json:"cause,omitempty"`
	URL       string `json:"url,omitempty"`
	Status    int    `json:"upstream_status,omitempty"`
	Limit     int64  `json:"limit,omitempty"`
	RequestID string `json:"request_id,omitempty"`
}

// errorResponse turns an error from decoding or from an operation into a
// status and a body. source is "query" or "body", for 422 locations.
func errorResponse(err error, source string, in *input) (int, any) {
	var (
		verr     *validationError
		unknown  *textanalysis.UnknownModelError
		tooLong  *textanalysis.TooLongError
		spanErr  *display.SpanError
		urlErr   *extract.URLError
		fetchErr *extract.FetchError
		bodyErr  *errBodyTooLarge
		outErr   *display.OutputTooLargeError
	)
	echo := func(name string) any {
		if in == nil {
			return nil
		}
		if v, ok := in.values[name]; ok {
			return v
		}
		return nil
	}
	switch {
	case errors.As(err, &verr):
		return http.StatusUnprocessableEntity, verr
	case errors.As(err, &bodyErr):
		return http.StatusRequestEntityTooLarge, problem{
			Detail: fmt.Sprintf("The request body is larger than %d bytes.", bodyErr.limit),
			Error:  "body_too_large", Limit: bodyErr.limit,
		}
	case errors.As(err, &unknown):
		expected := literalList(unknown.Known)
		return http.StatusUnprocessableEntity, &validationError{Detail: []errorDetail{{
			Type: "literal_error", Loc: []any{source, "model"}, Msg: "Input should be " + expected,
			Input: unknown.Name, Ctx: map[string]any{"expected": expected},
		}}}
	case errors.As(err, &tooLong):
		return http.StatusUnprocessableEntity, &validationError{Detail: []errorDetail{{
			Type: "string_too_long", Loc: []any{source, tooLong.Field},
			Msg:   fmt.Sprintf("String should have at most %d characters", tooLong.Max),
			Input: echo(tooLong.Field), Ctx: map[string]any{"max_length": tooLong.Max},
		}}}
	case errors.Is(err, qa.ErrEmptyQuestion):
		return http.StatusUnprocessableEntity, valueError(source, "question", echo("question"), "the question has no words to look for")
	case errors.Is(err, textanalysis.ErrNoText):
		return http.StatusUnprocessableEntity, missing(in, "text")
	case errors.As(err, &outErr):
		// The input as a whole is at fault (text, spans and format
		// together), as with a model validator: loc is the source alone.
		var whole any
		if in != nil && in.source == "body" {
			whole = in.whole
		} else if in != nil {
			whole = in.values
		}
		return http.StatusUnprocessableEntity, &validationError{Detail: []errorDetail{{
			Type: "value_error", Loc: []any{source},
			Msg: fmt.Sprintf("Value error, the HTML would be larger than %d bytes, the most this API answers; "+
				"draw fewer or shorter overlapping spans, or a shorter text", outErr.Max),
			Input: whole, Ctx: map[string]any{"error": map[string]any{}},
		}}}
	case errors.As(err, &spanErr):
		return http.StatusUnprocessableEntity, valueError(source, "spans", echo("spans"), spanMessage(spanErr))
	case errors.As(err, &urlErr):
		return http.StatusUnprocessableEntity, valueError(source, "url", echo("url"), urlErr.Reason)
	case errors.As(err, &fetchErr):
		p := problem{
			Detail: "The page could not be fetched: " + fetchCauseText(fetchErr) + ".",
			Error:  "fetch_failed", Cause: fetchErr.Cause, URL: fetchErr.URL, Status: fetchErr.StatusCode,
		}
		return http.StatusBadGateway, p
	case errors.Is(err, extract.ErrTooComplex):
		// From a page the server fetched, like the FetchError above.
		return http.StatusBadGateway, problem{
			Detail: "The page could not be read: it has more elements than the server extracts.",
			Error:  "fetch_failed", Cause: extract.CauseTooComplex,
		}
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, problem{Detail: "The request took longer than the server allows.", Error: "timeout"}
	case errors.Is(err, context.Canceled):
		// The client went away; nobody reads this answer.
		return 499, problem{Detail: "The request was cancelled.", Error: "cancelled"}
	}
	return http.StatusInternalServerError, problem{Detail: "Internal server error. Quote the request id when you report it.", Error: "internal"}
}

// spanMessage says what is wrong with the spans in the caller's words:
// the span's position in the list and the reason, without the Go package
// name the error carries.
func spanMessage(e *display.SpanError) string {
	if e.Index < 0 {
		return e.Reason
	}
	return fmt.Sprintf("span %d: %s", e.Index, e.Reason)
}

func valueError(source, name string, input any, msg string) *validationError {
	return &validationError{Detail: []errorDetail{{
		Type: "value_error", Loc: []any{source, name}, Msg: "Value error, " + msg,
		Input: input, Ctx: map[string]any{"error": map[string]any{}},
	}}}
}

func fetchCauseText(e *extract.FetchError) string {
	switch e.Cause {
	case "dns":
		return "its host name could not be resolved"
	case "connect":
		return "the connection failed"
	case "timeout":
		return "it took too long"
	case "tls":
		return "the TLS handshake failed"
	case "status":
		return fmt.Sprintf("the site answered with status %d", e.StatusCode)
	case "content_type":
		return "it is not an HTML or text page"
	case "too_large":
		return "it is larger than the limit"
	case "redirects":
		return "it redirected too many times"
	case "too_complex":
		return "it has more elements than the server extracts"
	}
	return "reading it failed"
}
