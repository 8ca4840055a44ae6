// Package tagger is the ner package's machinery: the tokenizer, the feature
// extractor, the averaged structured perceptron (training and Viterbi
// decoding under BIO or BILOU constraints), word clustering and the compact
// model format.
//
// A [Model] is read-only once trained or read and safe for concurrent use;
// each goroutine tags with its own [Buffers].
//
//	m, err := tagger.Read(data)
//	var b tagger.Buffers
//	toks := tagger.Tokenize(nil, text)
//	for _, c := range m.Tag(nil, text, toks, &b) {
//		fmt.Println(m.Labels[c.Label], text[toks[c.Start].Start:toks[c.End-1].End])
//	}
package tagger
