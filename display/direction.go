package display

import "unicode"

// rtlScripts are the scripts written right to left.
var rtlScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Hebrew, unicode.Syriac, unicode.Thaana, unicode.Nko,
	unicode.Samaritan, unicode.Mandaic, unicode.Adlam, unicode.Hanifi_Rohingya,
}

// direction is the CSS direction of text, "rtl" or "ltr", by its first
// letter, as a browser decides dir="auto" by the first strong character:
// a text that starts in Arabic or Hebrew is drawn right to left, as
// displaCy does for those languages.
func direction(text []rune) string {
	for _, r := range text {
		if !unicode.IsLetter(r) {
			continue
		}
		if unicode.In(r, rtlScripts...) {
			return "rtl"
		}
		return "ltr"
	}
	return "ltr"
}
