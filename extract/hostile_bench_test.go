package extract

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/textanalysis/go-textanalysis/internal/cputime"
)

// hostileShapes build hostile pages of about a given size: each shape
// made a naive tree builder or extractor quadratic, or its recursion deep.
var hostileShapes = []struct {
	name  string
	build func(size int) string
}{
	{"nested-div", func(n int) string { return repeatTo("<div>", n) + "<p>Some words, with commas, to end the page.</p>" }},
	{"nested-div-text", func(n int) string { return repeatTo("<div>word, ", n) }},
	{"nested-inline", func(n int) string { return "<p>" + repeatTo("<b><i><span>x ", n) }},
	{"unclosed-p-table", func(n int) string { return repeatTo("<p class=title>word, word <table><tr><td>", n) }},
	{"tables-in-tables", func(n int) string { return repeatTo("<table><tr><td>cell, text ", n) }},
	{"unclosed-lists", func(n int) string { return repeatTo("<ul><li>item, text <ol><li><dl><dd>x", n) }},
	{"stray-end-tags", func(n int) string { return "<p>" + repeatTo("x</q>", n) }},
	{"nested-headers", func(n int) string { return repeatTo("<header>x ", n) }},
	{"nested-soft", func(n int) string { return repeatTo(`<div class="comment">words, `, n) }},
	{"many-siblings", func(n int) string {
		return "<div>" + repeatTo("<div><p>A paragraph, with commas, long enough to be scored as one of many.</p></div>", n)
	}},
	{"long-attributes", func(n int) string {
		return repeatTo(`<div class="a b c" id="x" data-a="1" data-b="2" data-c="3" style="color:red" hidden=no>x</div>`, n)
	}},
	{"html-attrs", func(n int) string { return "<p>x" + repeatTo("<html id>", n) }},
	{"comments", func(n int) string { return "<p>" + repeatTo("a<!-- c -->", n) }},
	{"short-blocks-long-class", func(n int) string {
		// Many short blocks before the article, under a wrapper with a
		// long class list: lead detection looks at each of them.
		return `<div class="` + repeatTo("wrapper ", n/8) + `">` + repeatTo("<div>a short line of text that has no end mark at all, none</div>", n*3/8) +
			`<div class="body">` + repeatTo("<p>An article paragraph, with commas, that goes on for a while, and on, and on.</p>", n/2) + "</div></div>"
	}},
}

// repeatTo repeats unit to at least n bytes.
func repeatTo(unit string, n int) string {
	return strings.Repeat(unit, (n+len(unit)-1)/len(unit))
}

// BenchmarkHostile extracts hostile pages of 64 KiB, 256 KiB and 1 MiB
// (1x, 4x, 16x): with linear extraction ns/op grows 4x per step and MB/s
// stays flat.
func BenchmarkHostile(b *testing.B) {
	for _, shape := range hostileShapes {
		for _, mult := range []int{1, 4, 16} {
			page := []byte(shape.build(mult * 64 << 10))
			b.Run(fmt.Sprintf("%s/%dx", shape.name, mult), func(b *testing.B) {
				benchExtract(b, page)
			})
		}
	}
}

// nestedDivPage is the page of issue 12: 4.5 MiB of nested <div> (8 KiB
// gzipped) with a paragraph at the bottom.
func nestedDivPage() []byte {
	const size = 4608 << 10
	return []byte(strings.Repeat("<div>", size/5) + "<p>Some words, with commas, to end the page.</p>")
}

// BenchmarkNestedDivPage extracts the 4.5 MiB nested-div page of issue 12:
// about 4 s of CPU before the tree builder indexed its open elements,
// 0.4 s after.
func BenchmarkNestedDivPage(b *testing.B) {
	benchExtract(b, nestedDivPage())
}

// benchExtract extracts page b.N times. Besides wall time it reports the
// process's CPU time per extraction (GC included), which other work on a
// shared machine disturbs less.
func benchExtract(b *testing.B, page []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(page)))
	cpu := cputime.Process()
	for b.Loop() {
		if _, err := FromHTML(b.Context(), bytes.NewReader(page), "", Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if cpu > 0 {
		b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
	}
}
