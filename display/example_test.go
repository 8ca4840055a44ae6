package display_test

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/textanalysis/go-textanalysis/display"
)

func ExampleRender() {
	text := "Ada met Alan in London."
	spans := []display.Span{{Start: 0, End: 3, Label: "PERSON"}, {Start: 16, End: 22, Label: "GPE"}}
	var b strings.Builder
	if err := display.Render(&b, text, spans, display.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Count(b.String(), `<mark class="entity"`), "entities")
	fmt.Println(strings.Contains(b.String(), "background: #feca74"), "(GPE in displaCy's orange)")
	// Output:
	// 2 entities
	// true (GPE in displaCy's orange)
}

func ExampleRender_escaping() {
	text := `<b>Tom</b> & "Jerry"`
	spans := []display.Span{{Start: 3, End: 6, Label: "<i>PERSON</i>"}}
	_ = display.Render(os.Stdout, text, spans, display.Options{})
	// Output:
	// <div class="entities" style="line-height: 2.5; direction: ltr">&lt;b&gt;<mark class="entity" style="background: #ddd; padding: 0.45em 0.6em; margin: 0 0.25em; line-height: 1; border-radius: 0.35em;">Tom<span class="entity-label" style="font-size: 0.8em; font-weight: bold; line-height: 1; border-radius: 0.35em; vertical-align: middle; margin-left: 0.5rem">&lt;i&gt;PERSON&lt;/i&gt;</span></mark>&lt;/b&gt; &amp; &#34;Jerry&#34;</div>
}

func ExampleRender_span() {
	// Overlapping spans are stacked in the span format.
	text := "New York City"
	spans, _ := display.ParseSpans("0:8:GPE,0:13:GPE,4:8:PART")
	var b strings.Builder
	err := display.Render(&b, text, spans, display.Options{Format: display.FormatSpan})
	fmt.Println(err, strings.Count(b.String(), `class="span-label"`), "labels")
	err = display.Render(&b, text, spans, display.Options{})
	fmt.Println(err)
	// Output:
	// <nil> 3 labels
	// display: span 0: overlaps span 1; the ent format needs spans that do not overlap (the span format stacks them)
}

func ExampleParseSpans() {
	spans, err := display.ParseSpans("0:5:PERSON,10:16:ORG")
	fmt.Println(spans, err)
	spans, err = display.ParseSpans(`[{"start": 0, "end": 5, "label": "PERSON"}]`)
	fmt.Println(spans, err)
	_, err = display.ParseSpans("0:5:PERSON,10:ORG")
	var se *display.SpanError
	if errors.As(err, &se) {
		fmt.Println(se.Index, se.Reason)
	}
	// Output:
	// [{0 5 PERSON} {10 16 ORG}] <nil>
	// [{0 5 PERSON}] <nil>
	// 1 want start:end:LABEL, got "10:ORG"
}

func ExampleValidate() {
	err := display.Validate("Ada", []display.Span{{Start: 0, End: 4, Label: "PERSON"}}, display.Options{})
	fmt.Println(err)
	// Output:
	// display: span 0: end 4 is beyond the end of the text (3 code points)
}

func ExampleParseFormat() {
	f, err := display.ParseFormat("span")
	fmt.Println(f, err)
	_, err = display.ParseFormat("dep")
	fmt.Println(errors.Is(err, display.ErrUnknownFormat), err)
	// Output:
	// span <nil>
	// true display: unknown format "dep" (known: ent, span)
}

func ExampleFormats() {
	for _, f := range display.Formats() {
		fmt.Println(f.Name)
	}
	// Output:
	// ent
	// span
}

func ExampleLabelColor() {
	fmt.Println(display.LabelColor("PERSON"), display.LabelColor("org"), display.LabelColor("MISC"))
	// Output:
	// #aa9cfc #7aecec #ddd
}

func ExamplePage() {
	var frag strings.Builder
	_ = display.Render(&frag, "Ada", []display.Span{{Start: 0, End: 3, Label: "PERSON"}}, display.Options{})
	var page strings.Builder
	_ = display.Page(&page, "Entities", frag.String())
	fmt.Println(strings.HasPrefix(page.String(), "<!DOCTYPE html>"), strings.Contains(page.String(), "<title>Entities</title>"))
	// Output:
	// true true
}
