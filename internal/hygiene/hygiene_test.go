package hygiene

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/textanalysis/go-textanalysis"

// leaves are the analysis packages; each stands alone.
var leaves = []string{"extract", "ner", "display", "sentiment", "qa"}

// leafUses are the only imports allowed between leaves, each one-way: qa
// reads the named entities of ner as evidence of answer types (issue 15),
// and a qa user gets ner's default model with it. Nothing imports qa, so
// no cycle can form.
var leafUses = map[string][]string{"qa": {"ner"}}

// library packages are what a `go get` user imports.
var library = append([]string{"textanalysis"}, leaves...)

// forbidden are imports no library package may pull in, directly or not.
var forbidden = []string{
	module + "/server",
	module + "/cmd",
	"github.com/urfave/cli",
	"github.com/modelcontextprotocol",
	"github.com/mark3labs/mcp-go",
	"database/sql",
	"github.com/jackc/pgx",
	"modernc.org/sqlite",
	"github.com/mattn/go-sqlite3",
	"github.com/redis",
	"testing",
	"net/http/httptest",
}

type pkg struct {
	ImportPath string
	Deps       []string
}

func goList(t *testing.T, args ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json=ImportPath,Deps"}, args...)...)
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	require.NoError(t, err, "go list")
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		require.NoError(t, dec.Decode(&p))
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(dir, "go.mod"))
	require.NoError(t, err)
	return dir
}

func TestLibraryImportsNoServiceCode(t *testing.T) {
	var patterns []string
	for _, l := range library {
		patterns = append(patterns, "./"+l+"/...")
	}
	for _, p := range goList(t, patterns...) {
		if strings.Contains(p.ImportPath, "/cmd/") || strings.Contains(p.ImportPath, "/internal/train") {
			// Training programs under a library folder are commands,
			// not part of what a library user imports.
			continue
		}
		for _, dep := range p.Deps {
			for _, bad := range forbidden {
				assert.False(t, dep == bad || strings.HasPrefix(dep, bad+"/"), "%s imports %s", p.ImportPath, dep)
			}
		}
	}
}

func TestLeavesImportNoOtherLeafNorFacade(t *testing.T) {
	for _, leaf := range leaves {
		for _, p := range goList(t, "./"+leaf+"/...") {
			if strings.Contains(p.ImportPath, "/cmd/") {
				continue
			}
			for _, dep := range p.Deps {
				if dep == module+"/textanalysis" {
					t.Errorf("%s imports the facade", p.ImportPath)
				}
				for _, other := range leaves {
					if other != leaf && !slices.Contains(leafUses[leaf], other) &&
						(dep == module+"/"+other || strings.HasPrefix(dep, module+"/"+other+"/")) {
						t.Errorf("%s imports leaf %s", p.ImportPath, other)
					}
				}
			}
		}
	}
}

// Every package has exactly one package comment, in doc.go.
func TestOnePackageCommentInDocGo(t *testing.T) {
	root := repoRoot(t)
	dirs := map[string]bool{}
	require.NoError(t, filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			dirs[filepath.Dir(path)] = true
		}
		return nil
	}))
	for dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			var withComment []string
			for _, e := range entries {
				if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
					continue
				}
				f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.PackageClauseOnly|parser.ParseComments)
				require.NoError(t, err)
				if f.Doc != nil && strings.TrimSpace(f.Doc.Text()) != "" && !strings.HasPrefix(f.Doc.Text(), "Code generated") {
					withComment = append(withComment, e.Name())
				}
			}
			assert.Equal(t, []string{"doc.go"}, withComment)
		})
	}
}
