package qa_test

import (
	"context"
	"fmt"

	"github.com/textanalysis/go-textanalysis/qa"
)

func ExampleReader_Answer() {
	r, err := qa.New(qa.Options{})
	if err != nil {
		panic(err)
	}
	text := "The bridge was designed by Martha Greaves and opened in 1871."
	ans, err := r.Answer(context.Background(), "When did the bridge open?", text)
	if err != nil {
		panic(err)
	}
	fmt.Println(ans.Found, ans.Text, ans.Start, ans.End)
	// Output: true 1871 56 60
}
