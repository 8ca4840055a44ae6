package ner_test

import (
	"context"
	"fmt"

	"github.com/textanalysis/go-textanalysis/ner"
)

func ExampleNew() {
	r, err := ner.New(ner.Options{Model: "conll"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Model().Name, r.Model().Labels)
	_, err = ner.New(ner.Options{Model: "spacy"})
	fmt.Println(err)
	// Output:
	// conll [PERSON ORG LOC MISC]
	// ner: unknown model "spacy" (known: ontonotes, conll)
}

func ExampleRecognizer_Recognize() {
	r, err := ner.New(ner.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ents, err := r.Recognize(context.Background(), "Ada Lovelace was born in London in 1815.")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range ents {
		fmt.Println(e.Label, e.Text, e.Start, e.End)
	}
	// Output:
	// PERSON Ada Lovelace 0 12
	// GPE London 25 31
	// DATE 1815 35 39
}

func ExampleModels() {
	for _, m := range ner.Models() {
		fmt.Println(m.Name, m.Default, len(m.Labels))
	}
	// Output:
	// ontonotes true 18
	// conll false 4
}
