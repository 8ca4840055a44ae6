package main

import (
	"encoding/json"
	"log"
	"os"

	"github.com/textanalysis/go-textanalysis/extract/internal/blockmodel"
)

func main() {
	b, err := os.ReadFile("model.json")
	if err != nil {
		log.Fatal(err)
	}
	var m blockmodel.Model
	if err := json.Unmarshal(b, &m); err != nil {
		log.Fatalf("model.json: %v", err)
	}
	out, err := blockmodel.EncodeBinary(&m)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("model.bin", out, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote model.bin (%d bytes) from model.json (%d bytes)", len(out), len(b))
}
