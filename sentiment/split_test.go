package sentiment

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"spaces only", " \n\t ", nil},
		{"one sentence", "The soup is good.", []string{"The soup is good."}},
		{"no final punctuation", "The soup is good", []string{"The soup is good"}},
		{"two sentences", "The soup is good. The bread is stale.", []string{"The soup is good.", "The bread is stale."}},
		{"exclamation and question", "Wow! Is it hot? Yes.", []string{"Wow!", "Is it hot?", "Yes."}},
		{"punctuation runs", "Great!!! Really?! Sure...", []string{"Great!!!", "Really?!", "Sure..."}},
		{"closing quote", `He said "go." Then he left.`, []string{`He said "go."`, "Then he left."}},
		{"closing bracket", "It works (mostly.) Try it.", []string{"It works (mostly.)", "Try it."}},
		{"abbreviation", "Mr. Smith liked it. Dr. Who did not.", []string{"Mr. Smith liked it.", "Dr. Who did not."}},
		{"initial", "J. R. R. Tolkien wrote it.", []string{"J. R. R. Tolkien wrote it."}},
		{"dotted acronym", "Films from the U.S. are long.", []string{"Films from the U.S. are long."}},
		{"e.g.", "Some dishes, e.g. soup, are hot.", []string{"Some dishes, e.g. soup, are hot."}},
		{"lower case continues", "it 's good . but the end is weak .", []string{"it 's good . but the end is weak ."}},
		{"ellipsis then lower case", "well... it was fine", []string{"well... it was fine"}},
		{"decimal number", "It costs 3.50 now. Cheap.", []string{"It costs 3.50 now.", "Cheap."}},
		{"no space after period", "Visit example.com today.", []string{"Visit example.com today."}},
		{"line breaks", "First line\nSecond line\r\n\r\nthird", []string{"First line", "Second line", "third"}},
		{"short lines stand alone", "Pros\nGreat battery\nCons\nHeavy", []string{"Pros", "Great battery", "Cons", "Heavy"}},
		{"hard-wrapped prose", "Ada Lovelace was born in London in 1815 and later she worked with\nCharles Babbage on his engine. Her notes were often called the\nfirst program.",
			[]string{"Ada Lovelace was born in London in 1815 and later she worked with\nCharles Babbage on his engine.", "Her notes were often called the\nfirst program."}},
		{"lower-case continuation", "The service was\nslow today", []string{"The service was\nslow today"}},
		{"blank line always ends", "a long line that goes on and on and on and on and on and on\n\nnext one", []string{"a long line that goes on and on and on and on and on and on", "next one"}},
		{"unicode ellipsis", "Hmm… Fine.", []string{"Hmm…", "Fine."}},
		{"surrounding whitespace", "  Hi there.   Bye.  ", []string{"Hi there.", "Bye."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, sp := range splitSentences(tt.text) {
				got = append(got, tt.text[sp.start:sp.end])
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSplitSentencesOffsets(t *testing.T) {
	text := "Ünïcode «works». 😀 Yes!\nNext — line."
	rs := []rune(text)
	spans := splitSentences(text)
	assert.Len(t, spans, 3)
	for _, sp := range spans {
		assert.Equal(t, text[sp.start:sp.end], string(rs[sp.rstart:sp.rend]))
	}
}
