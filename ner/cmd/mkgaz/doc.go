// Command mkgaz writes the ner package's external gazetteer: names typed by
// OntoNotes label, from data outside the training corpora, which trainner
// (-ext-gaz) turns into features and keeps in a model.
//
// It reads the WordNet 3.0 database as Debian's wordnet-base package
// (1:3.0-37) installs it in /usr/share/wordnet (Princeton WordNet licence:
// free use, copying and distribution with its copyright notice) and tzdata's
// zone1970.tab, zone.tab and iso3166.tab in /usr/share/zoneinfo (public
// domain):
//
//	go run ./ner/cmd/mkgaz -out ner/data/external-gazetteer.tsv.gz
//
// A WordNet noun synset takes the OntoNotes label of the nearest of a list
// of anchor synsets above it (country, city → GPE; body of water, region →
// LOC; structure, street → FAC; organization → ORG; person → PERSON; war,
// battle, contest → EVENT; writing, film, work of art → WORK_OF_ART;
// language → LANGUAGE; legal document → LAW; vehicle → PRODUCT;
// inhabitant, ethnic group, religion → NORP), and each of its capitalised
// lemmas is listed with it; a capitalised kind of person (Frenchman,
// Democrat) is NORP, and so is an adjective pertaining to a place, people
// or language (French, Nigerian). The cities of time-zone names and the
// country names of iso3166.tab are GPE. Each line is LABEL, phrase, 1 when
// the phrase is also a common lower-case word ("Reading"), and 1 when the
// label is the phrase's primary one (its most frequent WordNet sense,
// nationality adjectives first, GPE before LOC and ORG). The output is the
// same bytes for the same input files.
package main
