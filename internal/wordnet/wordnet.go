package wordnet

import (
	"bufio"
	"os"
	"strings"
)

// EachLine calls fn with every line of the database file at path except
// its licence header (the lines that begin with a space), and stops at
// the first error fn returns. Lines may be long (a synset's gloss), up to
// 1 MiB.
func EachLine(path string, fn func(line string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, " ") {
			continue
		}
		if err := fn(line); err != nil {
			return err
		}
	}
	return sc.Err()
}
