package sqlite_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

func ExampleOpen() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "textanalysis.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()

	acct, err := st.CreateAccount(ctx, store.Account{Email: "Ada@Example.com", Plan: store.PlanFree})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(acct.Email)

	// Count requests against an allowance of 3 for November.
	november := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for range 4 {
		count, ok, err := st.Consume(ctx, acct.ID, november, 3)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(count, ok)
	}
	// Output:
	// ada@example.com
	// 1 true
	// 2 true
	// 3 true
	// 3 false
}
