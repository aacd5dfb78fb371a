package convert

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/cueform"
	"github.com/tofucue/tofucue/internal/source"
)

// templatefile whose path is known only when the module is planned (an
// input, a map of template paths indexed by one, a for_each key, a
// fileset result) selects among the module's templates, each converted
// once, when the module is converted, into the table cueform.Templates
// of cueform.FilesFile:
//
//	_templates: {
//		"templates/a.tpl": {
//			#vars: _
//			out:   (tofu.#template & {#args: [#vars, "Hello, \(#vars.name)!"]}).out
//		}
//	}
//
// and the call is (_templates[path.Clean(p, path.Unix)] & {#vars: VARS}).out.
// The templates are the files the path can name (templatePatterns):
// exactly those its constant parts give, or, where a part is known only
// when planning, every file of the root module's directory whose name
// ends as the path does. A constant part may lead out of the root
// module's directory, to a template beside a called module (terraform-
// aws-eks's examples call ../../modules/_user_data, whose templates are
// in ../../templates): it is read inside the directory that holds the
// tree's modules, where OpenTofu's file functions read on the HCL side
// too, and keyed by its path from the root module's directory
// (../../templates/al2.tpl), which is what path.Clean makes of the path
// the call computes. A file that is not a template (not UTF-8, a template
// syntax error) has no entry: selecting it is an error, as in OpenTofu.

// The templates a call's table may hold at most, by number and by size.
const (
	maxTableTemplates = 64
	maxTableBytes     = 1 << 20
)

// tableTemplate is a template file converted for the table: its entry
// (nil when the file is not a template), the imports the entry uses, and,
// when it could not be converted, why.
type tableTemplate struct {
	entry   ast.Expr
	imports map[string]bool
	why     string
}

// pathPattern is a set of paths, relative to the root module's directory,
// that a path expression can give: one path, or (any) every path ending
// in ext ("" for every path). An exact path may lead out of the root
// module's directory (a template beside a called module): the table
// holds its conversion, so it is read when converting, inside the
// directory that holds the tree's modules. An any pattern matches the
// root module's files only; module is set where its path is built from
// path.module.
type pathPattern struct {
	exact  string
	any    bool
	ext    string
	module bool
}

// convTemplateAtPlan converts templatefile(path, vars) whose path is known
// only when the module is planned: a selection from the table of the
// module's templates.
func convTemplateAtPlan(cl *call) ast.Expr {
	c := cl.c
	// Whatever comes of it depends on the root module's files: a called
	// module's template is not shared with other roots (see
	// family.convert).
	c.usesTable = true
	runtime := strings.TrimPrefix(c.runtimeReason(cl.src[0]), " ")
	if len(c.templates) > 0 {
		return cl.fail("A template that calls templatefile with a path known only when the module is planned is not converted. " + runtime)
	}
	pats, why := c.templatePatterns(cl.src[0], 0)
	if why != "" {
		return cl.fail(why)
	}
	if slices.ContainsFunc(pats, func(p pathPattern) bool { return p.any && p.module }) {
		// A part known only when planning joined to path.module: the
		// files it can name are this module's, outside the root's.
		if why := c.outsideRoot(cl.src[0]); why != "" {
			return cl.fail(why)
		}
	}
	files, err := c.fam.moduleFiles()
	if err != nil {
		return cl.fail(fmt.Sprintf("The template's path is known only when the module is planned, so the converted module holds the templates of %s; they could not be read: %v.", c.fam.rootDir, err))
	}
	files = append(files, c.fam.outsideTemplates(pats)...)
	var chosen []moduleFile
	exact := map[string]bool{}
	size := 0
	for _, f := range files {
		match, isExact := false, false
		for _, p := range pats {
			switch {
			case !p.any && p.exact == f.path:
				match, isExact = true, true
			case p.any && strings.HasSuffix(f.path, p.ext):
				match = true
			}
		}
		if !match {
			continue
		}
		exact[f.path] = isExact
		if len(chosen) == maxTableTemplates {
			return cl.fail(fmt.Sprintf("More than %d files of the module's directory could be this call's template: its path is known only when the module is planned. %s", maxTableTemplates, runtime))
		}
		if size += len(f.data); size > maxTableBytes {
			return cl.fail(fmt.Sprintf("The files of the module's directory that could be this call's template are larger than %d KiB in all: its path is known only when the module is planned. %s", maxTableBytes>>10, runtime))
		}
		chosen = append(chosen, f)
	}
	if len(chosen) == 0 {
		return cl.fail("No file of the module's directory can be this call's template. " + runtime)
	}
	for _, f := range chosen {
		t := c.tableTemplate(f)
		if t.why == "" {
			continue
		}
		detail := fmt.Sprintf("The template %s, which this call may read, is not converted: %s", f.path, t.why)
		if exact[f.path] {
			return cl.fail(detail)
		}
		// A file that matches only because a part of the path is
		// known only when planning: its entry is the error.
		c.diags = append(c.diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Template not converted",
			Detail:   detail + " Selecting it fails in the CUE form.",
			Subject:  cl.rng.Ptr(),
		})
	}
	sel := binary(token.AND, c.fileRef(cueform.Templates, cl.strArg(0), cl.rng),
		&ast.StructLit{Elts: []ast.Decl{field(ident(templateVarsField), cl.args[1])}})
	return selector(&ast.ParenExpr{X: sel}, "out")
}

// templateVarsField is the field of a table entry that takes the
// template's variables.
const templateVarsField = "#vars"

// templatePatterns gives the paths, relative to the root module's
// directory, that e can give: following local values, the branches of
// conditionals, coalesce's arguments and the values of a collection
// indexed by a value known only when planning. Where a part is known
// only then, every file ending as the path's constant tail does. A path
// outside the root module's directory is refused with the reason.
func (c *converter) templatePatterns(e hcl.Expression, depth int) ([]pathPattern, string) {
	if depth > 8 {
		return []pathPattern{c.anyPath(e, "")}, ""
	}
	if p, diags, ok := c.constPath(e); ok {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(c.m.Dir, p)
		}
		rel, inside := c.fam.templatePath(abs)
		if !inside {
			return nil, fmt.Sprintf("This call may read the template %s, outside %s, where the file functions read files, as on the HCL side: the directory that holds the modules of the tree, or the root module's repository, or a directory given with --allow-read that holds them.", p, c.fam.top())
		}
		return []pathPattern{{exact: rel}}, ""
	} else if diags.HasErrors() {
		return nil, "OpenTofu reports an error for this path: " + diags[0].Detail
	}
	union := func(es ...hclsyntax.Expression) ([]pathPattern, string) {
		var out []pathPattern
		for _, x := range es {
			if lit, ok := x.(*hclsyntax.LiteralValueExpr); ok && lit.Val.IsNull() {
				continue
			}
			ps, why := c.templatePatterns(x, depth+1)
			if why != "" {
				return nil, why
			}
			out = append(out, ps...)
		}
		return out, ""
	}
	switch x := e.(type) {
	case *hclsyntax.TemplateWrapExpr:
		return c.templatePatterns(x.Wrapped, depth+1)
	case *hclsyntax.ParenthesesExpr:
		return c.templatePatterns(x.Expression, depth+1)
	case *hclsyntax.ConditionalExpr:
		return union(x.TrueResult, x.FalseResult)
	case *hclsyntax.FunctionCallExpr:
		if x.Name == "coalesce" && !x.ExpandFinal {
			return union(x.Args...)
		}
	case *hclsyntax.IndexExpr:
		if items, ok := c.collectionItems(x.Collection, depth); ok {
			return union(items...)
		}
	case *hclsyntax.ScopeTraversalExpr:
		if name, ok := localName(x.Traversal); ok && c.m.Locals[name] != nil {
			return c.templatePatterns(c.m.Locals[name].Expr, depth+1)
		}
	case *hclsyntax.TemplateExpr:
		// Known only when planning: any file whose name ends as the
		// constant tail after the last such part does.
		if n := len(x.Parts); n > 0 {
			if lit, ok := x.Parts[n-1].(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String && !lit.Val.IsNull() {
				tail := lit.Val.AsString()
				if i := strings.LastIndexByte(tail, '/'); i >= 0 {
					tail = tail[i+1:]
				}
				return []pathPattern{c.anyPath(e, path.Ext(tail))}, ""
			}
		}
	}
	return []pathPattern{c.anyPath(e, "")}, ""
}

// anyPath is the pattern of every path ending in ext, for the path e
// known only when planning.
func (c *converter) anyPath(e hcl.Expression, ext string) pathPattern {
	return pathPattern{any: true, ext: ext, module: c.a.refersTo(e, isPathModule, nil)}
}

// localName is NAME for the traversal local.NAME.
func localName(t hcl.Traversal) (string, bool) {
	if len(t) != 2 || t.RootName() != "local" {
		return "", false
	}
	a, ok := t[1].(hcl.TraverseAttr)
	return a.Name, ok
}

// collectionItems gives the element expressions of an object or tuple
// constructor, following a local value to its definition.
func (c *converter) collectionItems(e hcl.Expression, depth int) ([]hclsyntax.Expression, bool) {
	for ; depth <= 8; depth++ {
		switch x := e.(type) {
		case *hclsyntax.ObjectConsExpr:
			items := make([]hclsyntax.Expression, len(x.Items))
			for i, it := range x.Items {
				items[i] = it.ValueExpr
			}
			return items, true
		case *hclsyntax.TupleConsExpr:
			return slices.Clone(x.Exprs), true
		case *hclsyntax.ScopeTraversalExpr:
			name, ok := localName(x.Traversal)
			if !ok || c.m.Locals[name] == nil {
				return nil, false
			}
			e = c.m.Locals[name].Expr
		default:
			return nil, false
		}
	}
	return nil, false
}

// tableTemplate converts the template in f once for the table of the
// module's templates, with the variables as #vars, and keeps it in the
// family; the entry goes in cueform.FilesFile with the imports it uses.
func (c *converter) tableTemplate(f moduleFile) *tableTemplate {
	if t, ok := c.fam.templates[f.path]; ok {
		return t
	}
	t := &tableTemplate{}
	c.fam.templates[f.path] = t
	if !utf8.Valid(f.data) || source.CheckNesting(f.data, f.path, source.Template) != nil {
		return t
	}
	name := filepath.Join(c.fam.rootDir, filepath.FromSlash(f.path))
	expr, diags := hclsyntax.ParseTemplate(f.data, name, hcl.InitialPos)
	if diags.HasErrors() {
		return t
	}
	if c.templateSrc == nil {
		c.templateSrc = map[string][]byte{}
	}
	c.templateSrc[name] = f.data
	// The template is converted as if alone: its names are its
	// variables, and nothing of the declaration being converted applies.
	saved := struct {
		imports        map[string]bool
		diags, reasons int
	}{c.imports, len(c.diags), len(c.reasons)}
	c.imports = map[string]bool{}
	c.templates = append(c.templates, name)
	c.scopes = append(c.scopes, scope{names: map[string]binding{}, templateVars: templateVarsField})
	x, _ := convertExpr(c, expr)
	c.pop()
	c.templates = c.templates[:len(c.templates)-1]
	out := field(ident("out"), c.lib("template", ident(templateVarsField), x))
	for _, d := range c.diags[saved.diags:] {
		if d.Severity != hcl.DiagError {
			continue
		}
		// The entry has no result: selecting it fails where it is used,
		// as an incomplete value (an error here would fail the whole
		// module).
		t.why = d.Summary + ": " + d.Detail
		out = &ast.Field{Label: ident("out"), Constraint: token.NOT, Value: ident("_")}
		ast.AddComment(out, &ast.CommentGroup{Line: true, Position: 4, List: []*ast.Comment{{Text: "// not converted: " + d.Summary}}})
		c.diags, c.reasons = c.diags[:saved.diags], c.reasons[:saved.reasons]
		c.imports = map[string]bool{}
		break
	}
	t.imports = c.imports
	c.imports = saved.imports
	t.entry = &ast.StructLit{Elts: []ast.Decl{field(ident(templateVarsField), ident("_")), out}}
	return t
}

// templateTable is the declaration of cueform.Templates, the templates
// the converted files select from, and the imports it uses.
func (f *family) templateTable() (ast.Decl, map[string]bool) {
	if len(f.templates) == 0 {
		return nil, nil
	}
	paths := make([]string, 0, len(f.templates))
	for p, t := range f.templates {
		if t.entry != nil {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	s := &ast.StructLit{}
	imports := map[string]bool{}
	for _, p := range paths {
		t := f.templates[p]
		s.Elts = append(s.Elts, field(stringLit(p), t.entry))
		for n := range t.imports {
			imports[n] = true
		}
	}
	d := field(ident(cueform.Templates), s)
	docComment(d, []string{
		"The templates that templatefile may read where its path is known only",
		"when the module is planned, each converted once, by their paths from",
		"the module's directory: (_templates[path] & {#vars: VARIABLES}).out",
		"renders one.",
	})
	return d, imports
}

// top is the directory where templates may be read: the tree's
// ReadRoot, or the root module's directory without a tree.
func (f *family) top() string {
	if f.tree != nil && f.tree.ReadRoot != "" {
		return f.tree.ReadRoot
	}
	return f.rootDir
}

// templatePath is the path abs as a table key, slash-separated and
// relative to the root module's directory (with leading ".." where it is
// outside it), and whether it is inside the directory of the tree's
// modules.
func (f *family) templatePath(abs string) (key string, inside bool) {
	root, err1 := filepath.Abs(f.rootDir)
	top, err2 := filepath.Abs(f.top())
	abs, err3 := filepath.Abs(abs)
	if err1 != nil || err2 != nil || err3 != nil {
		return "", false
	}
	rel, err1 := filepath.Rel(root, abs)
	inTop, err2 := filepath.Rel(top, abs)
	if err1 != nil || err2 != nil || !filepath.IsLocal(inTop) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// outsideTemplates reads the files that exact patterns name outside the
// root module's directory, inside the directory of the tree's modules
// (through os.Root: a symbolic link that leads out of it is not
// followed). A path that names no regular file has no entry: selecting it
// fails, as OpenTofu's call does.
func (f *family) outsideTemplates(pats []pathPattern) []moduleFile {
	var names []string
	for _, p := range pats {
		if !p.any && !filepath.IsLocal(filepath.FromSlash(p.exact)) && !slices.Contains(names, p.exact) {
			names = append(names, p.exact)
		}
	}
	if len(names) == 0 {
		return nil
	}
	top, err := filepath.Abs(f.top())
	if err != nil {
		return nil
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		return nil
	}
	defer root.Close()
	var out []moduleFile
	for _, name := range names {
		abs, err := filepath.Abs(filepath.Join(f.rootDir, filepath.FromSlash(name)))
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(top, abs)
		if err != nil {
			continue
		}
		if st, err := root.Stat(rel); err != nil || !st.Mode().IsRegular() {
			continue
		}
		if b, err := fs.ReadFile(root.FS(), filepath.ToSlash(rel)); err == nil {
			out = append(out, moduleFile{path: name, data: b})
		}
	}
	return out
}
