package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/textanalysis/go-textanalysis/display"
	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// packagePrefixes are the Go package names that library errors start with;
// a person reading the CLI's messages has no use for them.
var packagePrefixes = []string{"textanalysis: ", "display: ", "extract: ", "access: ", "ner: ", "sentiment: ", "qa: ", "server: "}

// userMessage is err in a person's words: the CLI prints it after
// "textanalysis: ", and batch lines carry it as "error".
func userMessage(err error) string {
	var (
		tooLong *textanalysis.TooLongError
		spanErr *display.SpanError
	)
	switch {
	case errors.As(err, &tooLong):
		return fmt.Sprintf("%s is longer than %d characters", tooLong.Field, tooLong.Max)
	case errors.As(err, &spanErr):
		if spanErr.Index < 0 {
			return "spans: " + spanErr.Reason
		}
		return fmt.Sprintf("span %d: %s", spanErr.Index, spanErr.Reason)
	case errors.Is(err, access.ErrBadEmail):
		return "invalid e-mail address"
	}
	msg := err.Error()
	for trimmed := true; trimmed; {
		trimmed = false
		for _, p := range packagePrefixes {
			if rest, ok := strings.CutPrefix(msg, p); ok {
				msg, trimmed = rest, true
			}
		}
	}
	return msg
}
