package postgres_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/textanalysis/go-textanalysis/server/store/postgres"
)

// This example needs a PostgreSQL server, so it is compiled but not run.
func ExampleOpen() {
	ctx := context.Background()
	st, err := postgres.Open(ctx, os.Getenv("TEXTANALYSIS_DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()

	// Every server process sharing the database counts against the same
	// allowance; none is ever counted past it.
	november := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	count, ok, err := st.Consume(ctx, 42, november, 1000)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(count, ok)
}
