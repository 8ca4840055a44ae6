package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
)

// boilerplatePrefixes start short lines that introduce or close page
// furniture rather than say anything: "Read also", "Advertisement",
// "Share this". Matched on the lower-cased line without leading
// punctuation; prefix tests are much cheaper than a case-insensitive
// regular expression.
var boilerplatePrefixes = []string{
	"read also", "read more", "read next", "see also", "related", "more on ", "more from ", "more about ",
	"share this", "share on", "share via", "advertisement", "sponsored", "anzeige", "werbung", "publicidad",
	"lesen sie auch", "lesen sie hier", "lesen sie mehr", "mehr zum thema", "schon gelesen", "auch interessant",
	"das könnte sie auch interessieren", "vea también", "lea también", "contenido relacionado", "leggi anche",
	"lire aussi", "à lire aussi", "voir aussi", "click here", "subscribe", "sign up", "follow us",
	"all rights reserved", "copyright", "©", "explore further", "don't miss", "don’t miss", "filed under",
	"iklan", "reading time", "tempo de leitura", "lesezeit", "temps de lecture", "tiempo de lectura",
	"like this story?", "like this article?",
}

// furnitureLines are whole short lines that label page furniture: the
// heading of a comment section, a lone "Share".
var furnitureLines = setOf("comments", "comment", "kommentare", "kommentar", "comentarios", "commentaires",
	"commenti", "komentarze", "leave a comment", "leave a reply", "share", "teilen", "share this", "print", "drucken")

// creditWords start photo credits and source lines when followed by a
// colon or nothing: "Photo: AFP", "Quelle:".
var creditWords = []string{
	"photo", "foto", "fotos", "bild", "bilder", "image", "picture", "abbildung", "abb.", "grafik", "illustration",
	"credit", "credits", "quelle", "source", "sources", "źródło", "fuente", "fonte", "crédit", "crédits",
	"weiterlesen", "mehr dazu", "mehr erfahren",
}

// datelineWords start "Updated at 1:23 p.m." and its kin.
var datelineWords = []string{
	"updated", "last updated", "published", "posted", "modified", "aktualisiert", "veröffentlicht", "erstellt",
	"publicado", "actualizado", "publié", "mis à jour", "pubblicato", "aggiornato",
}

// The word lists above by their first byte: a line is tried only against
// the words that can start it.
var boilerplateByFirst, creditByFirst, datelineByFirst = byFirstByte(boilerplatePrefixes),
	byFirstByte(creditWords), byFirstByte(datelineWords)

// byFirstByte indexes non-empty words by their first byte.
func byFirstByte(words []string) *[256][]string {
	var x [256][]string
	for _, w := range words {
		x[w[0]] = append(x[w[0]], w)
	}
	return &x
}

// boilerplateLine reports a short line that is page furniture.
func boilerplateLine(s string) bool {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '©' })
	if len(s) > 48 {
		cut := 48
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	head := strings.ToLower(s)
	if furnitureLines[strings.TrimRightFunc(head, func(r rune) bool { return !unicode.IsLetter(r) })] {
		return true
	}
	if head == "" {
		return false // no prefix is empty
	}
	for _, p := range boilerplateByFirst[head[0]] {
		if strings.HasPrefix(head, p) {
			return true
		}
	}
	for _, w := range creditByFirst[head[0]] {
		if rest, ok := strings.CutPrefix(head, w); ok {
			if rest = strings.TrimSpace(rest); rest == "" || rest[0] == ':' {
				return true
			}
		}
	}
	if len(s) < 48 && strings.ContainsAny(s, "0123456789") {
		for _, w := range datelineByFirst[head[0]] {
			if rest, ok := strings.CutPrefix(head, w); ok {
				if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsLetter(r) {
					return true
				}
			}
		}
	}
	return false
}

// ctaWords are calls to action (follow us, subscribe, get the app),
// matched as whole words in lower-cased text; a plain substring search is
// ten times cheaper than a case-insensitive regular expression here.
var ctaWords = []string{
	"folgen sie uns", "folge uns", "síguenos", "suivez-nous", "seguici", "newsletter",
	"subscribe", "abonnieren sie", "abonniere", "suscríbete", "abonnez-vous", "zapraszamy",
	"download our app", "download the app", "unsere app", "if you enjoyed", "if you liked",
	"share this article", "share this story", "share this post", "teilen sie diesen",
}

// cookieContext are words that make a mention of cookies a cookie notice.
var cookieContext = []string{"website", "webseite", "site", "browser", "accept", "akzeptier", "consent",
	"einwillig", "zustimm", "privacy", "datenschutz", "zgod", "używamy", "korzystamy", "utilizamos", "utilisons",
	"usiamo", "we use", "wir verwenden", "wir nutzen"}

// creditMarkers name the author or owner of a picture; a short block
// holding one is a caption or a credit line ("Lee Elder in 1975. | ©
// Getty Images", "... Foto: Stuttgart Marketing").
var creditMarkers = []string{"©", "(c) ", "photograph by", "photo by", "photos by", "photo:", "photos:",
	"foto:", "fotos:", "bild:", "image:", "credit:", "getty images", "bildquelle", "bildnachweis", "symbolbild",
	"archivfoto", "bildcredit", "fotocredit", "pixabay", "shutterstock", "unsplash", "istockphoto", "stock.adobe"}

// pictureCredit reports a short text that credits a picture; lower is
// the text lower-cased.
func pictureCredit(lower string) bool {
	return strings.Contains(lower, "©") || creditPhrases.find(lower, false)
}

var creditPhrases = newPhraseSet(creditMarkers...)

// creditLine reports a line saying who contributed to the story. Lines
// naming who reported and edited it ("Reporting by ...") are kept: the
// gold sets disagree on them.
func creditLine(lower string) bool {
	tail := strings.TrimRight(lower, ".)] ")
	return strings.HasSuffix(tail, "contributed to this report") || strings.HasSuffix(tail, "contributed to this story") ||
		strings.HasSuffix(tail, "contributed to this article")
}

var ctaPhrases = newPhraseSet(ctaWords...)

// callToAction reports text that asks the reader to follow, subscribe or
// download rather than saying anything; lower is the text lower-cased.
func callToAction(lower string) bool {
	if ctaPhrases.find(lower, true) {
		return true
	}
	if len(lower) < 400 && containsWord(lower, "cookies") {
		for _, w := range cookieContext {
			if strings.Contains(lower, w) {
				return true // a cookie notice
			}
		}
	}
	if len(lower) < 300 && strings.Contains(lower, "javascript") {
		for _, w := range []string{"enable", "disabled", "turn on", "browser", "aktivier", "activ", "habilit", "włącz"} {
			if strings.Contains(lower, w) {
				return true // "Please enable JavaScript", from a <noscript>
			}
		}
	}
	if i := strings.Index(lower, "follow "); i >= 0 {
		rest := lower[i:]
		return strings.Contains(rest, " on twitter") || strings.Contains(rest, " on facebook") ||
			strings.Contains(rest, " on instagram") || strings.Contains(rest, " on linkedin")
	}
	return false
}

// A phraseSet finds any of a list of lower-case phrases in lower-cased
// text in one pass: at each word start it tries only the phrases that
// begin with the two bytes found there, which is many times cheaper than
// one search per phrase.
type phraseSet struct {
	first [256][]string
	// pairs has bit b of pairs[a] set when a phrase starts with bytes a,
	// b (or is the one byte a: then every b is set).
	pairs [256][4]uint64
}

func newPhraseSet(phrases ...string) *phraseSet {
	var p phraseSet
	for _, w := range phrases {
		p.first[w[0]] = append(p.first[w[0]], w)
		if len(w) == 1 {
			p.pairs[w[0]] = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		} else {
			p.pairs[w[0]][w[1]>>6] |= 1 << (w[1] & 63)
		}
	}
	return &p
}

// find reports a phrase of p that starts a word of lower; with whole, the
// phrase must also end one (no letter right after it).
func (p *phraseSet) find(lower string, whole bool) bool {
	for i := 0; i+1 < len(lower); i++ {
		if b := lower[i+1]; p.pairs[lower[i]][b>>6]&(1<<(b&63)) == 0 || i > 0 && letterBefore(lower, i) {
			continue
		}
		if p.tryAt(lower, i, whole) {
			return true
		}
	}
	// The last byte can only start a phrase of one byte.
	if i := len(lower) - 1; i >= 0 && (i == 0 || !letterBefore(lower, i)) {
		return p.tryAt(lower, i, whole)
	}
	return false
}

// tryAt reports a phrase of p at byte i of lower, as find wants it.
func (p *phraseSet) tryAt(lower string, i int, whole bool) bool {
	for _, w := range p.first[lower[i]] {
		if !strings.HasPrefix(lower[i:], w) {
			continue
		}
		if !whole {
			return true
		}
		if r, _ := utf8.DecodeRuneInString(lower[i+len(w):]); !unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// letterBefore reports a letter right before byte i of s.
func letterBefore(s string, i int) bool {
	if b := s[i-1]; b < utf8.RuneSelf {
		return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsLetter(r)
}

// containsWord reports w in s with no letter right before or after it.
func containsWord(s, w string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return false
		}
		i += off
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(w):])
		if !unicode.IsLetter(before) && !unicode.IsLetter(after) {
			return true
		}
		off = i + 1
	}
}

// lettersShare is the share of letters among the runes of s.
func lettersShare(s string) float64 {
	n, l := 0, 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		n++
		if unicode.IsLetter(r) {
			l++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(l) / float64(n)
}

// normalizeText tidies text that did not come through the HTML walk:
// invisible characters dropped, lines trimmed, runs of blank lines made one.
func normalizeText(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
			return -1
		case '\u00a0', '\t':
			return ' '
		case '\r':
			return -1
		}
		return r
	}, s)
	lines := strings.Split(s, "\n")
	var out []string
	blank := false
	for _, l := range lines {
		l = strings.Join(strings.Fields(l), " ")
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// countWords counts runs of letters and digits; each CJK ideograph or kana
// counts as a word of its own.
func countWords(s string) int {
	n := 0
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return n + countWordsRunes(s[i:], in)
		}
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			if !in {
				n++
				in = true
			}
		case c == '\'' || c == '-':
		default:
			in = false
		}
	}
	return n
}

// countWordsRunes is countWords for text with non-ASCII characters; in
// says whether a word is open at its start.
func countWordsRunes(s string, in bool) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x2e80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)):
			// (No Han, Hiragana or Katakana below U+2E80: the test spares
			// alphabetic text three table searches per letter.)
			n++
			in = false
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			if !in {
				n++
				in = true
			}
		case r == '\'' || r == '’' || r == '-':
			// inside a word: don't split "don't" or "well-known"
		default:
			in = false
		}
	}
	return n
}

// detectLanguage guesses the language of text, "" when unsure.
func detectLanguage(text string) string {
	if len(text) > 600 {
		cut := 600
		for cut > 0 && !utf8RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	if len(text) < 20 {
		return ""
	}
	info := whatlanggo.Detect(text)
	if !info.IsReliable() {
		return ""
	}
	return info.Lang.Iso6391()
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// indexCurrency is strings.IndexAny(s, "$€£¥") by bytes: the search for a
// set with signs outside ASCII decodes every rune of s.
func indexCurrency(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '$':
			return i
		case 0xC2: // £ is C2 A3, ¥ is C2 A5
			if i+1 < len(s) && (s[i+1] == 0xA3 || s[i+1] == 0xA5) {
				return i
			}
		case 0xE2: // € is E2 82 AC
			if i+2 < len(s) && s[i+1] == 0x82 && s[i+2] == 0xAC {
				return i
			}
		}
	}
	return -1
}
