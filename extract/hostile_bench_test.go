package extract

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// hostileUnits are repeated to build hostile pages of any size: each
// shape made naive tree builders or extractors quadratic, or recursion
// deep.
var hostileUnits = []struct{ name, head, unit, tail string }{
	{"nested-div", "", "<div>", "<p>Some words, with commas, to end the page.</p>"},
	{"nested-div-text", "", "<div>word, ", ""},
	{"nested-inline", "<p>", "<b><i><span>x ", ""},
	{"unclosed-p-table", "", "<p class=title>word, word <table><tr><td>", ""},
	{"tables-in-tables", "", "<table><tr><td>cell, text ", ""},
	{"stray-end-tags", "<p>", "x</q>", ""},
	{"nested-headers", "", "<header>x ", ""},
	{"nested-soft", "", `<div class="comment">words, `, ""},
	{"many-siblings", "<div>", "<div><p>A paragraph, with commas, long enough to be scored as one of many.</p></div>", ""},
	{"long-attributes", "", `<div class="a b c" id="x" data-a="1" data-b="2" data-c="3" style="color:red" hidden=no>x</div>`, ""},
	{"html-attrs", "<p>x", "<html id>", ""},
	{"comments", "<p>", "a<!-- c -->", ""},
}

// hostilePage repeats the unit of shape to about size bytes.
func hostilePage(shape int, size int) []byte {
	u := hostileUnits[shape]
	var b bytes.Buffer
	b.Grow(size + len(u.head) + len(u.tail))
	b.WriteString(u.head)
	for b.Len() < size {
		b.WriteString(u.unit)
	}
	b.WriteString(u.tail)
	return b.Bytes()
}

// BenchmarkHostile extracts hostile pages of 64 KiB, 256 KiB and 1 MiB
// (1x, 4x, 16x): with linear extraction ns/op grows 4x per step and MB/s
// stays flat.
func BenchmarkHostile(b *testing.B) {
	for i, u := range hostileUnits {
		for _, mult := range []int{1, 4, 16} {
			page := hostilePage(i, mult*64<<10)
			b.Run(fmt.Sprintf("%s/%dx", u.name, mult), func(b *testing.B) {
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

// BenchmarkNestedDivPage extracts the 4.5 MiB nested-div page of issue 12
// (about 8 s before the tree builder kept its open-element index).
func BenchmarkNestedDivPage(b *testing.B) {
	benchExtract(b, nestedDivPage())
}

// benchExtract extracts page b.N times. Besides wall time it reports the
// process's CPU time per extraction (GC included), which other work on a
// shared machine disturbs less.
func benchExtract(b *testing.B, page []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(page)))
	cpu := processCPU()
	for b.Loop() {
		if _, err := FromHTML(b.Context(), bytes.NewReader(page), "", Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if cpu > 0 {
		b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
	}
}
