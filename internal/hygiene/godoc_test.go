package hygiene

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// documented are the packages whose exported docs a module user reads.
var documented = append(append([]string{}, library...), "server", "server/mcp", "server/developer", "server/mail", "server/access", "server/store")

// exportedDocs returns the doc comments of a package: its package comment
// and those of its exported declarations, by where they are.
func exportedDocs(t *testing.T, dir string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
	require.NoError(t, err)
	docs := map[string]string{}
	add := func(pos token.Pos, g *ast.CommentGroup) {
		if g != nil {
			docs[fset.Position(pos).String()] = g.Text()
		}
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		add(f.Package, f.Doc)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() {
					add(d.Pos(), d.Doc)
				}
			case *ast.GenDecl:
				exported := false
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							exported = true
							add(s.Pos(), s.Doc)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								exported = true
								add(s.Pos(), s.Doc)
							}
						}
					}
				}
				if exported {
					add(d.Pos(), d.Doc)
				}
			}
		}
	}
	return docs
}

// Exported docs say things themselves: a module user has no DESIGN.md or
// SPEC.md to look them up in.
func TestExportedDocsCiteNoProjectFiles(t *testing.T) {
	for _, dir := range documented {
		for where, text := range exportedDocs(t, dir) {
			for _, file := range []string{"DESIGN.md", "SPEC.md", "STYLE.md"} {
				assert.NotContains(t, text, file, where)
			}
		}
	}
}

// Doc comments define no links, which go doc prints as orphan
// "[name]: URL" lines.
func TestPackageDocsHaveNoOrphanLinks(t *testing.T) {
	for _, dir := range documented {
		for where, text := range exportedDocs(t, dir) {
			var p comment.Parser
			d := p.Parse(text)
			// go doc prints each definition as a bare "[name]: URL" line
			// under the text, cut off from where it is used.
			for _, def := range d.Links {
				assert.Fail(t, "link definition in a doc comment", "%s: [%s] prints as a line of its own in go doc; name the thing in words, or use a [Name] doc link", where, def.Text)
			}
		}
	}
}

// The facade's exported methods take no parameter named after a package
// they import (Answer's "context" hid the context package) and no bare
// boolean (options say what they mean).
func TestFacadeParameters(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("..", "..", "textanalysis", "*.go"))
	require.NoError(t, err)
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		imported := map[string]bool{}
		for _, im := range f.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			imported[p[strings.LastIndex(p, "/")+1:]] = true
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() {
				continue
			}
			for _, field := range fn.Type.Params.List {
				for _, n := range field.Names {
					assert.False(t, imported[n.Name], "%s: parameter %q of %s hides the package", fset.Position(n.Pos()), n.Name, fn.Name.Name)
				}
				if id, ok := field.Type.(*ast.Ident); ok && id.Name == "bool" {
					assert.Fail(t, "bare boolean parameter", "%s: %s takes a bool; use an options struct", fset.Position(field.Pos()), fn.Name.Name)
				}
			}
		}
	}
}
