// Package qa answers a question with a span of a context text: extractive
// question answering in pure Go, without a neural network.
//
// A [Reader] narrows a long context to the three passages that best match
// the question (BM25 over paragraphs of about 1,500 characters), tags them
// with part-of-speech tags and named entities (package ner; em dashes,
// footnote marks and currency signs joined to a word are split off
// first, offsets still pointing into the caller's text), lists
// candidate answers (named entities, noun-phrase chunks and
// their parts, proper-noun runs, numbers with units, dates and weekdays,
// lists, quoted titles, verb + object, reason and manner clauses such as
// "because ..." and "by ...ing") and ranks them with a log-linear model. Its
// features follow the logistic regression of the SQuAD paper, with
// parse-free stand-ins for the dependency paths: question-word overlap in
// the sentence and in windows left and right of the span, word order of
// the matched words against the wh-word, the short tag path to the nearest
// matched word, the wh-word and the noun it asks for ("which river")
// against the span's kind, tags and head word, span length and position,
// and the answer type the question asks for (when: a date; how much, what
// price: an amount; who, which senator: a name) against the span's type,
// and whether the span's last word belongs, by WordNet's noun classes, to
// the class the question asks for ("what country": Ireland), and which
// broad classes it has (a belief, a person, a period) against the noun the
// question asks for ("what was the Norman religion": Catholicism), and the
// label of the named entity the span is or overlaps (who: PERSON, when:
// DATE) against the wh-word and answer type, and whether the question
// asks for one thing or several ("what countries", "what three sites")
// against a list span. Words match by a light stem, a list of irregular and derived forms ("died" and "death", "born" and
// "birth", "met" and "meet") and WordNet's irregular inflections and nouns
// derived from verbs ("invasion" and "invaded"); in a sentence that does
// not name the question's subject, a pronoun ("she", "they") stands for
// the last name of the question met before it.
// A second stage, 200 small boosted trees over dense features (the
// first stage's mass, rank and margin, token and sentence marginals,
// answer-type agreement, where the question's words stand around the
// span, the score of each feature group), then picks
// among the five most probable answer texts. The weights (about
// 470,000, 1.2 MB compressed) and the trees (17 kB) are trained by
// qa/cmd/trainqa on 16,620 SQuAD-style Wikipedia questions and embedded,
// with the two WordNet tables (1 MB compressed) that qa/cmd/genlemmas
// writes.
//
// What to expect: on half of the SQuAD v1.1 dev set (never trained on) it
// gives the exact answer for 51.8% of questions, token F1 61.1 — better
// than the SQuAD paper's logistic regression, far below neural readers
// (80+). By question: when 75% exact, how many 75%, who 63%, how much
// 62%, which 58%, where 50%, what 46%, how 32% (F1 48), why 29% (F1
// 55). It does best when the answer is a
// date, number or name in a sentence that repeats the question's words; it
// is weak on why and how questions, on answers that are clauses rather
// than noun phrases, on questions that paraphrase the text, and on
// sentences that refer back with a pronoun ("It was designed by ..."). It
// reads English only. Score is the model's probability that the answer is
// right; on the SQuAD dev half, 71% of the answers scored above 0.5 are
// exactly right, 40% of those from 0.3 to 0.5 and 21% of those below.
//
// Build one [Reader] per process and share it: [New] decodes the embedded
// model and its WordNet tables (half a second with the tagger, about 25 MB
// of memory) and loads the tagger and the named-entity model.
// [Reader.Answer] takes one to three milliseconds for a paragraph on one
// core, most of it tagging and entity recognition, and about ten to
// twenty for a whole article; a
// Reader keeps the last few tagged passages, so further questions on the
// same text cost a fraction of that. It is safe for concurrent use.
//
//	r, err := qa.New(qa.Options{})
//	if err != nil { ... }
//	ans, err := r.Answer(ctx, "When did the bridge open?",
//		"The bridge was designed by Martha Greaves and opened in 1871.")
//	if ans.Found {
//		fmt.Println(ans.Text, ans.Start, ans.End) // 1871 56 60
//	}
package qa
