package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFixture writes a tiny WordNet database (every anchor synset and a
// few names under them) and tzdata tables to a temporary directory.
func writeFixture(t *testing.T) string {
	dir := t.TempDir()
	var noun strings.Builder
	noun.WriteString("  1 This is a licence header line.\n")
	for _, a := range anchors {
		fmt.Fprintf(&noun, "%s 03 n 01 %s 0 000 | an anchor\n", a.offset, a.word)
	}
	noun.WriteString(`09000001 15 n 02 Burkina_Faso 0 Upper_Volta 0 001 @i 08544813 n 0000 | a country
09000002 18 n 01 London 0 001 @i 00007846 n 0000 | a writer
09000003 15 n 01 London 0 001 @i 08691669 n 0000 | a capital
08691669 15 n 01 national_capital 0 001 @ 08524735 n 0000 | a capital city
09000004 18 n 01 Frenchman 0 001 @ 09620078 n 0000 | a person of France
09000005 18 n 01 Democrat 0 001 @ 00007846 n 0000 | a kind of person
09000006 15 n 01 Reading 0 001 @i 08665504 n 0000 | a town
09000007 15 n 01 France 0 001 @i 08544813 n 0000 | a country
09000008 15 n 01 Taiwan 0 002 @i 09316454 n 0000 @i 08544813 n 0000 | an island and a country
09000009 05 n 01 reading 0 000 | a common word
09000010 06 n 01 Dalmatian 0 000 | a dog, under no anchor
09000011 15 n 01 hamlet 0 001 @ 08665504 n 0000 | a small town, not a name
`)
	files := map[string]string{
		"data.noun": noun.String(),
		"data.adj":  "03000001 01 a 01 French 0 001 \\ 09000007 n 0101 | of France\n03000002 01 a 01 Shakespearean 0 001 \\ 09000002 n 0101 | of a writer\n",
		"data.verb": "",
		"data.adv":  "",
		"index.noun": "  1 licence\nlondon n 2 1 @ 2 0 09000003 09000002\ntaiwan n 1 1 @ 1 0 09000008\n" +
			"reading n 2 0 2 0 09000009 09000006\n",
		"zone1970.tab": "# comment\nFR\t+4852+00220\tEurope/Paris\nUS\t+340308-1181434\tAmerica/Los_Angeles\n",
		"zone.tab":     "FR\t+4852+00220\tEurope/Paris\n",
		"iso3166.tab":  "# comment\nBF\tBurkina Faso\nKR\tKorea (South)\nBA\tBosnia & Herzegovina\n",
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	return dir
}

func TestGenerate(t *testing.T) {
	dir := writeFixture(t)
	lines, err := generate(dir, dir)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"GPE\tBurkina Faso\t0\t1",
		"NORP\tDemocrat\t0\t1", // a capitalised kind of person
		"GPE\tFrance\t0\t1",
		"NORP\tFrench\t0\t1", // an adjective pertaining to a country
		"NORP\tFrenchman\t0\t1",
		"GPE\tKorea\t0\t1",
		"GPE\tLondon\t0\t1", // the city is the first sense
		"PERSON\tLondon\t0\t0",
		"GPE\tLos Angeles\t0\t1",
		"GPE\tParis\t0\t1",
		"GPE\tReading\t1\t1", // also a common word
		"GPE\tTaiwan\t0\t1",  // island and country at one remove: the earlier anchor
		"GPE\tUpper Volta\t0\t1",
	}, lines)
}

func TestGenerateWrongWordNet(t *testing.T) {
	// An anchor whose offset names another synset (another WordNet
	// version) is an error, not a silent mislabelling.
	dir := writeFixture(t)
	data, err := os.ReadFile(filepath.Join(dir, "data.noun"))
	require.NoError(t, err)
	data = []byte(strings.Replace(string(data), anchors[0].offset+" 03 n 01 "+anchors[0].word, anchors[0].offset+" 03 n 01 something_else", 1))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "data.noun"), data, 0o644))
	_, err = generate(dir, dir)
	assert.ErrorContains(t, err, "not in this WordNet")
}
