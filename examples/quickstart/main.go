package main

import (
	"context"
	"fmt"
	"log"

	"github.com/textanalysis/go-textanalysis/textanalysis"
)

func main() {
	ctx := context.Background()
	// README: the library snippet starts here.
	an, err := textanalysis.New(textanalysis.Options{}) // loads the models once; share it
	if err != nil {
		log.Fatal(err)
	}
	ents, err := an.Entities(ctx, "Ada Lovelace was born in London.", "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ents.Entities) // [{Ada Lovelace PERSON 0 12} {London GPE 25 31}]
	s, err := an.Sentiment(ctx, "The food was great, the service slow.", "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.Label, s.Compound)
	ans, err := an.Answer(ctx, "Where was Ada born?", "Ada Lovelace was born in London.")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ans.Text, ans.Score) // London …
	page, err := an.Text(ctx, "https://en.wikipedia.org/wiki/Ada_Lovelace")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Title, page.WordCount)
	// README: the library snippet ends here.
}
