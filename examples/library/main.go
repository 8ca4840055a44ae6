package main

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/textanalysis/go-textanalysis/textanalysis"
)

const article = `Ada Lovelace was born in London on 10 December 1815. She worked with
Charles Babbage on the Analytical Engine, and her notes are often called the first
computer program. Her work was brilliant, though it was long overlooked.`

func main() {
	ctx := context.Background()
	// New loads the models once; share the Analyzer across goroutines.
	an, err := textanalysis.New(textanalysis.Options{})
	if err != nil {
		log.Fatal(err)
	}

	ents, err := an.Entities(ctx, article, "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("Entities:")
	for _, e := range ents.Entities {
		fmt.Printf("  %-12s %-28q [%d:%d]\n", e.Label, e.Text, e.Start, e.End)
	}

	s, err := an.Sentiment(ctx, article, "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\nSentiment: %s (compound %.3f)\n", s.Label, s.Compound)
	for _, sent := range s.Sentences {
		fmt.Printf("  %+.3f %s\n", sent.Compound, strings.Join(strings.Fields(sent.Text), " "))
	}

	ans, err := an.Answer(ctx, "Who did Ada Lovelace work with?", article)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("\nAnswer:")
	if ans.Found {
		fmt.Printf("  %q (score %.2f) [%d:%d]\n", ans.Text, ans.Score, ans.Start, ans.End)
	} else {
		fmt.Println("  none good enough")
	}

	var html strings.Builder
	if err := an.Display(ctx, textanalysis.DisplayRequest{Text: article}, &html); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\nDisplay: %d bytes of HTML\n", html.Len())
}
