// Command genlemmas writes the word-to-lemma table that package qa's
// reader uses to match words of a question with other forms of them in
// the text ("invasion" and "invaded", "better" and "good"). It reads
// WordNet 3.0 as Debian's wordnet-base package installs it (the WordNet
// licence, permissive):
//
//	apt-get install wordnet-base
//	go run ./qa/cmd/genlemmas -wordnet /usr/share/wordnet -out qa/internal/core/lemmas.txt.gz
//
// It takes the irregular inflections (verb.exc, noun.exc, adj.exc) and, from
// the derivational links between noun and verb senses, the nouns formed
// from a verb with a suffix (-tion, -ment, -ance, -al, -ure, -er, ...) that
// share the verb's first letters. Its output is sorted and gzipped without
// a name or time, so the same WordNet gives the same bytes; the runtime
// never reads WordNet.
package main
