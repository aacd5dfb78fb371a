package convert

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing/fstest"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/load"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
)

// Load loads the converted module as the cue tool would, with
// cuelang.org/go/cue/load, from memory, and builds it in ctx. It fails
// when the files do not parse, an import is missing or a reference is
// undefined; values that are not concrete yet (inputs, computed
// attributes) are not errors.
func (r *Result) Load(ctx *cue.Context) (cue.Value, error) {
	return r.LoadWith(ctx, nil)
}

// LoadWith is Load with extra files added to the converted module's
// package, such as one that sets inputs: extra maps file names to CUE
// source.
func (r *Result) LoadWith(ctx *cue.Context, extra map[string][]byte) (v cue.Value, err error) {
	return r.load(ctx, extra, nil, false)
}

// load is LoadWith with syntax trees that stand for the files of the same
// names instead of their source, as cue/load would have parsed it:
// checkLoads passes the files with their templates and defaults left
// open. templatesOpen says that the templates are (see templateErrors).
func (r *Result) load(ctx *cue.Context, extra map[string][]byte, syntax map[string]*ast.File, templatesOpen bool) (v cue.Value, err error) {
	defer func() {
		// The CUE evaluator can panic (v0.17.1 does in its cycle
		// detection on some module trees): an error, not a crash.
		if e := recover(); e != nil {
			v, err = cue.Value{}, fmt.Errorf("building the converted module: the CUE evaluator failed: %v", e)
		}
	}()
	files, err := r.OutputFiles()
	if err != nil {
		return cue.Value{}, err
	}
	for name, b := range extra {
		files[name] = b
	}
	fsys := fstest.MapFS{}
	for name, b := range files {
		fsys[name] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	if len(r.Files) == 0 {
		// An empty module is an empty package.
		fsys["empty.cue"] = &fstest.MapFile{Data: []byte("package " + r.Package + "\n")}
	}
	cfg := &load.Config{FS: sourceFS{fsys}, Dir: "/"}
	if syntax != nil {
		cfg.ParseFile = func(name string, src any, pc parser.Config) (*ast.File, error) {
			if f, ok := syntax[strings.TrimPrefix(name, "/")]; ok {
				return f, nil
			}
			return parser.ParseFile(name, src, pc)
		}
	}
	insts := load.Instances([]string{"."}, cfg)
	if len(insts) != 1 {
		return cue.Value{}, fmt.Errorf("loading the converted module gave %d instances", len(insts))
	}
	if insts[0].Err != nil {
		return cue.Value{}, fmt.Errorf("loading the converted module: %s", errors.Details(insts[0].Err, nil))
	}
	if ctx == nil {
		ctx = cuecontext.New()
	}
	v = ctx.BuildInstance(insts[0])
	if err := v.Err(); err != nil && !r.templateErrors(v, err, templatesOpen) {
		return v, fmt.Errorf("building the converted module: %s", errors.Details(err, nil))
	}
	return v, nil
}

// sourceFS holds the files of a converted module for cue/load, which
// reads each of them twice with fs.ReadFile (for its imports, then in
// full) and only reads them: its ReadFile gives a file's bytes where
// fstest.MapFS's gives a copy, a twentieth of the bytes allocated
// converting the corpus.
type sourceFS struct{ fstest.MapFS }

func (fsys sourceFS) ReadFile(name string) ([]byte, error) {
	if f := fsys.MapFS[name]; f != nil && f.Mode.IsRegular() {
		return f.Data, nil
	}
	return fsys.MapFS.ReadFile(name)
}

// checkSyntax is r's files as checkLoads loads them: parsed, the templates
// of the modules r calls open (see openTemplate) and, with openDefaults,
// the defaults open too (see loadOpen). Positions stay those of r's
// files.
func (r *Result) checkSyntax(openDefaults bool) (map[string]*ast.File, error) {
	syntax := map[string]*ast.File{}
	for _, f := range r.Files {
		if !f.Template && !openDefaults {
			continue
		}
		file, err := parser.ParseFile("/"+f.Name, f.Source)
		if err != nil {
			return nil, err
		}
		if f.Template {
			openTemplate(file)
		}
		if openDefaults {
			openValues(file)
		}
		syntax[f.Name] = file
	}
	return syntax, nil
}

// openTemplate leaves open, in a template file, the template of the
// module it holds: compiled but never evaluated. Its
//
//	_module: "modules/net": {...} @source("modules/net")
//
// becomes
//
//	_module: "modules/net": {...} @source("modules/net")
//	if false {
//		_module: "modules/net": {...} @source("modules/net")
//	}
//
// with the template's declarations in the second only. CUE compiles the
// body of a comprehension, so that its references are checked, and
// evaluates it only when its conditions hold. Each call instance then
// evaluates its arguments, converted to the variables' types, and none of
// the module's declarations, and its outputs are open.
func openTemplate(file *ast.File) {
	var decls []ast.Decl
	for _, d := range file.Decls {
		decls = append(decls, d)
		tmpl, ok := d.(*ast.Field)
		if !ok || identName(tmpl.Label) != templateRoot {
			continue
		}
		s, ok := tmpl.Value.(*ast.StructLit)
		if !ok {
			continue
		}
		stubs := &ast.StructLit{}
		for _, e := range s.Elts {
			if t, ok := e.(*ast.Field); ok {
				stubs.Elts = append(stubs.Elts, &ast.Field{Label: t.Label, Value: &ast.StructLit{Elts: []ast.Decl{&ast.Ellipsis{}}}, Attrs: t.Attrs})
			}
		}
		decls[len(decls)-1] = &ast.Field{Label: tmpl.Label, Value: stubs}
		decls = append(decls, &ast.Comprehension{
			Clauses: []ast.Clause{&ast.IfClause{Condition: ast.NewBool(false)}},
			Value:   &ast.StructLit{Elts: []ast.Decl{tmpl}},
		})
	}
	file.Decls = decls
}

// templateErrors reports whether every error of err is in the template of
// a called module: at a path under _module, or at no path of the program
// (an element of a list being built, say "0") with every position in a
// template's file. A template is evaluated with its variables' defaults,
// which no instance has to share; its instances have their own errors.
//
// In a module whose templates are open (see openTemplate), no template is
// evaluated, and an error in one is the conversion's: it is not compiled.
func (r *Result) templateErrors(v cue.Value, err error, templatesOpen bool) bool {
	if templatesOpen {
		return false
	}
	templates := map[string]bool{}
	for _, f := range r.Files {
		if f.Template {
			templates[f.Name] = true
		}
	}
	for _, e := range errors.Errors(err) {
		p := e.Path()
		if len(p) > 0 && p[0] == templateRoot {
			continue
		}
		if len(p) > 0 && v.Exists() && v.LookupPath(cue.ParsePath(p[0])).Exists() {
			return false
		}
		positions := append([]token.Pos{e.Position()}, e.InputPositions()...)
		for _, pos := range positions {
			if pos.IsValid() && !templates[filepath.Base(pos.Filename())] {
				return false
			}
		}
		if !e.Position().IsValid() {
			return false
		}
	}
	return true
}

// openValues leaves open, in file, the values a plan decides: the
// defaults of the input variables, and the nulls by default of resource
// arguments (*null | _, see nullByDefault), which the provider decides
// where the attribute is computed. An error at the defaults is not
// always one of the conversion: a data source argument left null, then
// interpolated, is null in the program until the engine gives the
// attribute the provider's type, where OpenTofu's value is not known
// yet; the same interpolation of a variable's null default fails in
// OpenTofu too, but only when the module is planned with it. With these
// values open, such an error is a value not known yet, and what is
// still an error fails for every input.
func openValues(file *ast.File) {
	// ast.Walk, not astutil.Apply: this runs over every file that
	// convert checks, and Apply costs several times as much.
	ast.Walk(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if isInput(n) {
				n.Value = noDefaults(n.Value)
				return false
			}
		case *ast.BinaryExpr:
			if d, ok := n.X.(*ast.UnaryExpr); ok && n.Op == token.OR && d.Op == token.MUL && isNullLit(d.X) && isTop(n.Y) {
				n.X = d.X
			}
		}
		return true
	}, nil)
}

// isInput tells whether f is an @input field.
func isInput(f *ast.Field) bool {
	for _, a := range f.Attrs {
		if strings.HasPrefix(a.Text, "@input(") {
			return true
		}
	}
	return false
}

// noDefaults removes the default marks of x and of the values inside it.
func noDefaults(x ast.Expr) ast.Expr {
	return astutil.Apply(x, func(c astutil.Cursor) bool {
		if u, ok := c.Node().(*ast.UnaryExpr); ok && u.Op == token.MUL {
			c.Replace(u.X)
		}
		return true
	}, nil).(ast.Expr)
}

func isTop(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == "_"
}
