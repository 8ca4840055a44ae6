package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"
)

func main() {
	base := flag.String("base", "http://localhost:8080", "base URL of the API")
	key := flag.String("key", "", "API key (sent as X-API-Key)")
	flag.Parse()

	client := &http.Client{Timeout: 30 * time.Second}
	calls := []struct{ path, body string }{
		{"/ner", `{"text":"Ada Lovelace was born in London."}`},
		{"/sentiment", `{"text":"What a wonderful day. The train was late."}`},
		{"/qa", `{"question":"Where was Ada born?","context":"Ada Lovelace was born in London in 1815."}`},
		{"/ner/display", `{"text":"Ada was born in London.","spans":"0:3:PERSON,16:22:GPE"}`},
		{"/ner", `{}`}, // a validation error: 422 with FastAPI's body
	}
	for _, c := range calls {
		req, err := http.NewRequest(http.MethodPost, *base+c.path, bytes.NewBufferString(c.body))
		if err != nil {
			log.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if *key != "" {
			req.Header.Set("X-API-Key", *key)
		}
		res, err := client.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("POST %s -> %d (request %s, remaining %q)\n%s\n\n",
			c.path, res.StatusCode, res.Header.Get("X-Request-Id"), res.Header.Get("X-Gw-Remaining"), body)
	}
}
