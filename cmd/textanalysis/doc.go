// Command textanalysis runs the go-textanalysis functions from a shell and
// serves the HTTP API.
//
//	textanalysis text https://example.com/article
//	textanalysis ner "Ada Lovelace was born in London."
//	echo "What a great day" | textanalysis sentiment --pretty
//	textanalysis qa -q "Where was Ada born?" --context "Ada was born in London."
//	textanalysis display --page "Ada Lovelace was born in London." > ents.html
//	textanalysis ner --input texts.jsonl --output entities.jsonl --workers 2
//	textanalysis serve --addr :8080
//
// Every analysis command reads its input from arguments, a file (--file) or
// standard input, and writes JSON (--pretty for people). With --input it
// runs over JSON lines, one output line per input line, flushed line by
// line, so another program can drive it as a worker.
//
// Exit codes: 0 success; 1 the analysis or the server failed; 2 bad usage
// or input; 3 a batch finished but some of its lines failed.
package main
