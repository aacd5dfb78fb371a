package golden_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/convert"
	"github.com/tofucue/tofucue/golden"
)

// TestConvert converts the module of each case in convert/ and compares
// every CUE file written with want/NAME.cue and the diagnostics with
// want/diagnostics. The lines of the input file "args" may map module
// sources, as --module-source=SOURCE=DIR does, DIR relative to the case,
// and let sources lead out of the root's repository, as
// --allow-read=DIR does; the input "root" names the root module's
// directory within the case, which is otherwise the case's directory.
// The converted module must load with cue/load. A case
// with input files named *.cue (inputs.cue, setting _var fields) is also
// evaluated with them added to the package; want/eval holds the value, as
// CUE, of every field that is not hidden: resources, outputs, data.
func TestConvert(t *testing.T) {
	golden.Run(t, "convert", func(t *testing.T, c *golden.Case) map[string]string {
		dir := c.Materialize(t)
		dir = c.RootDir(dir)
		m, diags := config.Load(dir)
		if diags.HasErrors() {
			t.Fatalf("loading: %s", golden.Diagnostics(dir, diags))
		}
		var opts config.SourceOptions
		if s, ok := c.Input("args"); ok {
			for line := range strings.Lines(s) {
				if d, ok := strings.CutPrefix(strings.TrimSpace(line), "--allow-read="); ok {
					opts.AllowRead = append(opts.AllowRead, filepath.Join(dir, d))
					continue
				}
				arg, ok := strings.CutPrefix(strings.TrimSpace(line), "--module-source=")
				if !ok {
					t.Fatalf("args: %q: only --module-source=SOURCE=DIR and --allow-read=DIR are known here", line)
				}
				src, d, err := config.ParseSourceMapping(arg)
				if err != nil {
					t.Fatal(err)
				}
				if opts.Mappings == nil {
					opts.Mappings = map[string]string{}
				}
				opts.Mappings[src] = filepath.Join(dir, d)
			}
		}
		r := convert.Module(m, convert.Options{Package: "m", Sources: config.NewSources(opts)})
		out := map[string]string{"diagnostics": golden.Diagnostics(dir, r.Diagnostics)}
		for _, f := range r.Files {
			out[f.Name] = string(f.Source)
		}
		extra := map[string][]byte{}
		for _, f := range c.Files {
			if strings.HasSuffix(f.Name, ".cue") {
				extra[f.Name] = f.Data
			}
		}
		ctx := cuecontext.New()
		v, err := r.LoadWith(ctx, extra)
		if err != nil && !r.Diagnostics.HasErrors() {
			t.Fatalf("the converted module does not load: %v", err)
		}
		if len(extra) > 0 {
			out["eval"] = evaluated(t, v)
		}
		if r.Complete() {
			stockCue(t, r)
		}
		return out
	})
}

// stockCue runs the stock cue command that TOFUCUE_CUE names (.ci/run
// installs the one of go.mod's cuelang.org/go version) on the converted
// module written out: cue vet ./... with incomplete values allowed (the
// inputs without defaults, the provider's computed attributes), and cue
// fmt --check ./..., over the module and its tofu library. Without
// TOFUCUE_CUE it does nothing.
func stockCue(t *testing.T, r *convert.Result) {
	t.Helper()
	cueCmd := os.Getenv("TOFUCUE_CUE")
	if cueCmd == "" {
		return
	}
	files, err := r.OutputFiles()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"vet", "-c=false", "./..."}, {"fmt", "--check", "./..."}} {
		cmd := exec.Command(cueCmd, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("cue %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// evaluated writes the regular fields of v as CUE, as the article shows a
// plan's values: a value not known yet (a computed attribute) is its type.
func evaluated(t *testing.T, v cue.Value) string {
	t.Helper()
	if err := v.Validate(); err != nil {
		return "error: " + err.Error() + "\n"
	}
	b, err := format.Node(render(v))
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// render is the evaluated value of v: structs field by field, lists
// element by element, concrete scalars as themselves and anything else as
// the kind it will have.
func render(v cue.Value) ast.Expr {
	v, _ = v.Default()
	switch v.IncompleteKind() {
	case cue.StructKind:
		s := &ast.StructLit{}
		it, err := v.Fields()
		if err != nil {
			return &ast.BottomLit{}
		}
		for it.Next() {
			s.Elts = append(s.Elts, &ast.Field{Label: ast.NewString(it.Selector().String()), Value: render(it.Value())})
		}
		return s
	case cue.ListKind:
		l := &ast.ListLit{}
		it, err := v.List()
		if err != nil {
			return &ast.BottomLit{}
		}
		for it.Next() {
			l.Elts = append(l.Elts, render(it.Value()))
		}
		return l
	}
	if v.IsConcrete() {
		if x, ok := v.Syntax(cue.Final()).(ast.Expr); ok {
			return x
		}
	}
	if err := v.Err(); err != nil {
		b := &ast.BottomLit{}
		ast.AddComment(b, &ast.CommentGroup{Line: true, List: []*ast.Comment{{Text: "// " + strings.ReplaceAll(err.Error(), "\n", " ")}}})
		return b
	}
	x, err := parser.ParseExpr("kind", v.IncompleteKind().String())
	if err != nil {
		return &ast.BottomLit{}
	}
	return x
}
