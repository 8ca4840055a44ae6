package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/textanalysis/go-textanalysis/display"
	"github.com/textanalysis/go-textanalysis/ner"
	"github.com/textanalysis/go-textanalysis/sentiment"
)

// mcpText is the title and description of op's MCP tool. The two tools of
// a pair (GET and POST forms of one path) do the same work, so each says
// how it differs from its twin and which to prefer, in words a model can
// act on; a tool that takes a model or a format lists the choices that
// GET / lists, with the labels each NER model produces.
func (s *Server) mcpText(op operation) (title, desc string) {
	desc = op.Description
	twin, hasTwin := mcpTwin(op)
	if hasTwin && strings.HasPrefix(op.Description, "Same as `") {
		// The row says "Same as X, with the input as a JSON body": the
		// tool says what X does, and below how the two differ.
		desc = twin.Description
	}
	switch {
	case !hasTwin:
		title = op.Summary
	case op.Method == http.MethodGet && takesText(op):
		title = op.Summary + " (short texts)"
		desc += fmt.Sprintf(" Arguments travel in the URL, which holds about 60,000 characters of English at most: "+
			"for longer texts use `%s`, which does the same with a JSON body.", twin.ID)
	case op.Method == http.MethodPost && takesText(op):
		title = op.Summary + " (any length)"
		desc += fmt.Sprintf(" Same as `%s` with the arguments in a JSON body; prefer this tool for texts longer than a few thousand characters.", twin.ID)
	case op.Method == http.MethodGet:
		title = op.Summary + " (URL form)"
		desc += fmt.Sprintf(" Same as `%s`, with the arguments in the URL.", twin.ID)
	default:
		title = op.Summary + " (JSON body)"
		desc += fmt.Sprintf(" Same as `%s`, with the arguments in a JSON body; prefer this one for long inputs.", twin.ID)
	}
	if op.ID == "qa" {
		desc += " To search a web page instead of a given context, use `qa_post` with `url`."
	}
	switch {
	case op.Path == "/sentiment":
		desc += " " + sentimentModelsText()
	case hasField(op, "model"):
		desc += " " + s.nerModelsText()
	}
	if hasField(op, "format") {
		desc += " " + formatsText()
	}
	return title, desc
}

// mcpTwin is the other form of op's path, if any.
func mcpTwin(op operation) (operation, bool) {
	for _, o := range operations {
		if o.Path == op.Path && o.Method != op.Method {
			return o, true
		}
	}
	return operation{}, false
}

// takesText reports whether op takes a text of any length.
func takesText(op operation) bool { return hasField(op, "text") || hasField(op, "context") }

func hasField(op operation, name string) bool {
	return slices.ContainsFunc(op.Fields, func(f field) bool { return f.Name == name })
}

func (s *Server) nerModelsText() string {
	var parts []string
	for _, m := range ner.Models() {
		labels := make([]string, len(m.Labels))
		for i, l := range m.Labels {
			labels[i] = string(l)
		}
		name := "`" + m.Name + "`"
		if m.Name == s.an.DefaultNERModel() {
			name += " (the default)"
		}
		parts = append(parts, name+" labels "+strings.Join(labels, ", "))
	}
	return "Models: " + strings.Join(parts, "; ") + "."
}

func sentimentModelsText() string {
	var parts []string
	for _, m := range sentiment.Models() {
		name := "`" + m.Name + "`"
		if m.Name == sentiment.DefaultModel {
			name += " (the default)"
		}
		parts = append(parts, name+": "+m.Description)
	}
	return "Models: " + strings.Join(parts, "; ") + "."
}

func formatsText() string {
	var parts []string
	for _, f := range display.Formats() {
		parts = append(parts, "`"+string(f.Name)+"`: "+f.Description)
	}
	return "Formats: " + strings.Join(parts, "; ") + "."
}
