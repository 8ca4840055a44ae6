package sentiment

import (
	_ "embed"
	"strings"
)

// A speller reads a misspelt sentiment word as the word it misspells, by
// the commonest class of English misspelling: a letter doubled or not
// ("dissapointing", "reccomend", "embarassing", "bizzarre"). Reviews and
// tweets are full of them, and to VADER's lexicon and to the word model,
// which learned mostly from edited text, each is an unknown word: "Very
// Dissapointing Performance." was neutral.
//
// A word w is read as the lexicon word c when both spell the same letters
// once doubled letters are written once (their key), no other lexicon word
// has that key, w is not itself a lexicon word, and w is not an English
// word in its own right ("shot" is not "shoot", "hopping" not "hoping"):
// the list of such words, [spellingRealWords], comes from a dictionary
// (see TestSpellingRealWords). Only words of four letters or more, all
// ASCII lower case, are read; other edits (a letter missing, swapped or
// wrong: "definately", "recieved") are not, since in English text the
// words one edit from a sentiment word are mostly other words and names
// ("lawful" and "awful", "oilers" and "killers").
type speller struct {
	byKey map[string]string   // key → the one lexicon word with that key
	real  map[string]struct{} // English words whose key is a lexicon word's
	// keys holds a bit for the hash of every key of byKey: most words are
	// no lexicon word's misspelling, and the bit spares them the map.
	keys [1 << 10]uint64
}

// spellingMinLen and spellingMaxLen bound the words a speller reads.
const (
	spellingMinLen = 4
	spellingMaxLen = 32
)

// spellingRealWordsText is [spellingRealWords] as written to the file.
//
//go:embed spelling_real_words.txt
var spellingRealWordsText string

// spellingRealWords are the English words (wamerican, SCOWL size 50) whose
// key is the key of a word of the hybrid's lexicon they are not.
func spellingRealWords() []string {
	var words []string
	for _, line := range strings.Split(spellingRealWordsText, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			words = append(words, line)
		}
	}
	return words
}

// newSpeller builds a speller for the words of t (sentiment words,
// boosters and negators alike).
func newSpeller(t *vaderTables, realWords []string) *speller {
	s := &speller{byKey: make(map[string]string), real: make(map[string]struct{}, len(realWords))}
	ambiguous := make(map[string]bool)
	var buf [spellingMaxLen]byte
	for w := range t.words {
		h, ok := spellingHash(w)
		if !ok {
			continue
		}
		key := spellingKey(buf[:0], w)
		s.keys[h/64] |= 1 << (h % 64) // an ambiguous key's bit only costs a lookup
		if other, seen := s.byKey[string(key)]; seen && other != w {
			ambiguous[string(key)] = true
			continue
		}
		s.byKey[string(key)] = w
	}
	for k := range ambiguous {
		delete(s.byKey, k)
	}

	for _, w := range realWords {
		s.real[w] = struct{}{}
	}
	return s
}

// spellingHash returns the hash (16 bits) of w's key, w with each run of
// a letter written once, without building the key, and whether w is a
// word a speller reads.
func spellingHash(w string) (uint32, bool) {
	if len(w) < spellingMinLen || len(w) > spellingMaxLen {
		return 0, false
	}
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c < 'a' || c > 'z' {
			return 0, false
		}
		if i == 0 || w[i-1] != c {
			h = (h ^ uint32(c)) * 16777619
		}
	}
	return (h ^ h>>16) & 0xffff, true
}

// spellingKey appends to dst the key of w, a word [spellingHash] accepts.
func spellingKey(dst []byte, w string) []byte {
	for i := 0; i < len(w); i++ {
		if i == 0 || w[i-1] != w[i] {
			dst = append(dst, w[i])
		}
	}
	return dst
}

// correct returns the lexicon word w misspells, if it misspells one.
func (s *speller) correct(w string) (string, bool) {
	// Most words stop at the bit of their key's hash.
	h, ok := spellingHash(w)
	if !ok || s.keys[h/64]&(1<<(h%64)) == 0 {
		return "", false
	}
	var buf [spellingMaxLen]byte
	c, ok := s.byKey[string(spellingKey(buf[:0], w))]
	if !ok || c == w {
		return "", false
	}
	if _, real := s.real[w]; real {
		return "", false
	}
	return c, true
}
