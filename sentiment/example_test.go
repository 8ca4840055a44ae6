package sentiment_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/textanalysis/go-textanalysis/sentiment"
)

func Example() {
	an, err := sentiment.New(sentiment.Options{Model: sentiment.ModelVADER})
	if err != nil {
		panic(err)
	}
	res, err := an.Analyze(context.Background(), "The soup was great. The service was slow and rude!")
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Label, res.Compound)
	for _, s := range res.Sentences {
		fmt.Printf("%d-%d %s %v %q\n", s.Start, s.End, s.Label, s.Compound, s.Text)
	}
	// Output:
	// positive 0.3382
	// 0-19 positive 0.6249 "The soup was great."
	// 20-50 negative -0.5093 "The service was slow and rude!"
}

func ExampleNew() {
	_, err := sentiment.New(sentiment.Options{Model: "bert"})
	fmt.Println(errors.Is(err, sentiment.ErrUnknownModel))
	// Output:
	// true
}

func ExampleModels() {
	for _, m := range sentiment.Models() {
		fmt.Println(m.Name)
	}
	// Output:
	// hybrid
	// vader
}

func ExampleAnalyzer_Analyze() {
	an, err := sentiment.New(sentiment.Options{Model: sentiment.ModelVADER})
	if err != nil {
		panic(err)
	}
	res, err := an.Analyze(context.Background(), "Not bad at all :)")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s compound=%v pos=%v neu=%v neg=%v\n", res.Label, res.Compound, res.Pos, res.Neu, res.Neg)
	// Output:
	// positive compound=0.705 pos=0.661 neu=0.339 neg=0
}

func ExampleAnalyzer_Analyze_hybrid() {
	an, err := sentiment.New(sentiment.Options{}) // the default model, hybrid
	if err != nil {
		panic(err)
	}
	for _, text := range []string{
		"It stopped charging after a week. Don't buy it.",
		"A warm, funny and quietly moving film.",
	} {
		res, err := an.Analyze(context.Background(), text)
		if err != nil {
			panic(err)
		}
		fmt.Println(res.Label, len(res.Sentences))
	}
	// Output:
	// negative 2
	// positive 1
}
