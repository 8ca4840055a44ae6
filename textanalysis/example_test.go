package textanalysis_test

import (
	"context"
	"fmt"
	"log"

	"github.com/textanalysis/go-textanalysis/textanalysis"
)

func ExampleAnalyzer_Answer() {
	an, err := textanalysis.New(textanalysis.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ans, err := an.Answer(context.Background(), "Where was Ada Lovelace born?",
		"Ada Lovelace was born in London in 1815. She later worked with Charles Babbage.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ans.Text, ans.Start, ans.End)
	// Output: London 25 31
}

func ExampleAnalyzer_Sentiment() {
	an, err := textanalysis.New(textanalysis.Options{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := an.Sentiment(context.Background(), "The view was wonderful. The hotel was dirty.", "vader")
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range res.Sentences {
		fmt.Printf("%s %q\n", s.Label, s.Text)
	}
	// Output:
	// positive "The view was wonderful."
	// negative "The hotel was dirty."
}
