package convert

import (
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
)

// Options control a conversion.
type Options struct {
	// Package is the CUE package name of the converted files; by default
	// one made from the module directory's name.
	Package string
	// ModulePath is the CUE module path written to cue.mod/module.cue and
	// used to import the tofu library; by default "tofucue.local/PACKAGE".
	ModulePath string
	// Sources find the modules of calls that are not local (Module); nil
	// finds those tofu init installed.
	Sources *config.Sources

	// templates are the templates converted in a batch (see templates.go).
	templates *templateCache
	// comments are the comments of the files converted in a batch.
	comments *commentCache
}

// Result is a converted module.
type Result struct {
	// Package and ModulePath are the CUE package and module written.
	Package, ModulePath string
	// Files are the converted files, one per source file, formatted.
	Files []File
	// Library is set when the files use the tofu library package.
	Library bool
	// Modules are the called modules converted with the module, by
	// directory relative to its own (see modules.go).
	Modules []string
	// Diagnostics are what was not converted, with source ranges; any
	// error means the files hold placeholders.
	Diagnostics hcl.Diagnostics
	// Reasons are the summaries of the constructs not converted, one per
	// occurrence, for summaries across modules.
	Reasons []string
	// embeds are the files of the module's directory that the converted
	// files embed (see files.go), by slash-separated path.
	embeds map[string][]byte
	// HCLLines is the number of lines of the module's own files that were
	// converted (not those of the modules it calls).
	HCLLines int
}

// File is one converted file.
type File struct {
	// Name is the file name, such as "main.cue".
	Name string
	// Source is the formatted CUE.
	Source []byte
	// Template is set for the file of a called module's template.
	Template bool
}

// Complete reports whether everything was converted.
func (r *Result) Complete() bool { return !r.Diagnostics.HasErrors() }

// converter holds the state of converting one module.
type converter struct {
	m    *config.Module
	opts Options
	// fam is shared by the root and the modules it calls; child is the
	// module's directory relative to the root's, "" for the root.
	fam   *family
	child string
	// resolved are the calls the family resolved before converting the
	// module (see resolveCalls), which childTemplate gives again.
	resolved map[*config.ModuleCall]*resolvedCall

	diags   hcl.Diagnostics
	reasons []string
	// libUsed is set when a file written imports the tofu library.
	libUsed bool

	// featureSymbols are the symbols of opt-in features, which a managed
	// resource type must not take at the top level.
	featureSymbols map[string]bool
	// topLevel are the top-level names the converted files refer to.
	topLevel map[string]bool

	// per file
	imports  map[string]bool
	comments *commentSet

	// per declaration
	scopes  []scope
	anon    map[*hclsyntax.AnonSymbolExpr]string
	curBody *hclsyntax.Body

	usesPath, usesWorkspace, usesPlanTime, usesHome bool
	// fileUse is the first file function that reads the module's files
	// as the converted module embeds them (see fileRef).
	fileUse *hcl.Range
	// yamlDepth counts the yamldecode calls yamlOfFiles is converting
	// for one it rewrote.
	yamlDepth int
	// usesTable is set when a templatefile call was converted to select
	// from the templates of the root module's files, or reported for
	// them (see template_table.go).
	usesTable bool

	// a is what the converter knows of the module's expressions.
	a *analysis
	// guarded are the expressions inside a template or call that
	// unknownScope guards, which need no guard or pending test of their
	// own (see unknownScope).
	guarded map[hclsyntax.Expression]bool
	// knownConds are the conditionals written whose condition is known
	// while planning, which a field may take apart (see fieldDecls).
	knownConds map[*ast.IndexExpr]bool
	// embeddable are the conditionals written whose condition and
	// results are pure, which the writer may write as a struct that
	// embeds them (see embedConditionals).
	embeddable map[*ast.IndexExpr]bool
	// consts evaluate expressions when converting (see constValue).
	consts [2]*constEnv
	// templates are the template files being converted, innermost last.
	templates []string
	// templateSrc are the sources of the templates converted, by file
	// name, for the placeholders of what they hold that is not converted.
	templateSrc map[string][]byte
}

// Module converts a loaded module, and the modules its calls use (local,
// installed by tofu init or mapped: opts.Sources), each once, into files
// of the same package (see modules.go).
func Module(m *config.Module, opts Options) *Result {
	tree, _ := config.TreeOf(m, opts.Sources)
	return Tree(tree, opts)
}

// Tree converts a module tree loaded with config.LoadTree: its root and
// the modules its calls use, as Module does.
func Tree(tree *config.Tree, opts Options) *Result {
	m := tree.Root
	if opts.Package == "" {
		opts.Package = PackageName(m.Dir)
	}
	if opts.ModulePath == "" {
		opts.ModulePath = defaultModulePath(opts.Package)
	}
	fam := newFamily(tree, opts)
	c := newConverter(m, opts, fam, "")
	res := &Result{Package: opts.Package, ModulePath: opts.ModulePath}
	// The root's files keep their names; the modules' files take others.
	fileNames := map[string]string{}
	for _, path := range m.PrimaryPaths {
		fileNames[path] = cueFileName(path, fam.names)
	}
	for _, path := range m.PrimaryPaths {
		f := m.Files[path]
		if f == nil {
			continue
		}
		res.HCLLines += countLines(f.Bytes)
		c.imports = map[string]bool{}
		decls := c.fileDecls(path, f)
		res.Files = append(res.Files, File{Name: fileNames[path], Source: c.format(mergeDecls(decls))})
	}
	c.overrides()
	if c.usesContext() {
		c.imports = map[string]bool{}
		res.Files = append(res.Files, File{Name: cueFileName("tofu_context.tf", fam.names), Source: c.format(c.contextDecls())})
	}
	res.Files = append(res.Files, fam.files...)
	if use := cmp.Or(c.fileUse, fam.fileUse); use != nil {
		c.embedFiles(res, *use)
	}
	res.Modules = fam.converted
	res.Library = c.libUsed || fam.libUsed
	res.Diagnostics = slices.Concat(c.diags, fam.diags)
	res.Reasons = slices.Concat(c.reasons, fam.reasons)
	return res
}

// CUELines is the number of lines of the CUE files converted from the
// module's own files (not the templates of the modules it calls, nor the
// library): what HCLLines became.
func (r *Result) CUELines() int {
	n := 0
	for _, f := range r.Files {
		if !f.Template {
			n += countLines(f.Source)
		}
	}
	return n
}

// countLines is the number of lines of src, the last one counted whether
// or not a newline ends it.
func countLines(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// defaultModulePath is the module path of a conversion into package pkg
// that names none.
func defaultModulePath(pkg string) string {
	return "tofucue.local/" + pkg
}

// newConverter makes the converter of one module: the root (child "") or
// the module at child, relative to the root's directory.
func newConverter(m *config.Module, opts Options, fam *family, child string) *converter {
	c := &converter{
		m:              m,
		opts:           opts,
		fam:            fam,
		child:          child,
		featureSymbols: map[string]bool{},
		topLevel:       map[string]bool{},
		a:              newAnalysis(m, child != ""),
		knownConds:     map[*ast.IndexExpr]bool{},
		embeddable:     map[*ast.IndexExpr]bool{},
	}
	if fam != nil {
		c.a.knowing(fam.known.of(m))
	}
	for _, f := range m.Registry().Features() {
		if f.Symbol != "" {
			c.featureSymbols[f.Symbol] = true
		}
	}
	for _, r := range m.ManagedResources {
		c.topLevel[c.resourceTypeRoot(r.Type)[0]] = true
	}

	return c
}

// overrides reports the override files, which are not converted.
func (c *converter) overrides() {
	for _, path := range c.m.OverridePaths {
		c.unconverted(hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos},
			"Override file not converted",
			"hcl2cue does not convert override files yet: merge "+filepath.Base(path)+" into the files it overrides first.")
	}
}

// PackageName makes a CUE package name from a directory name.
func PackageName(dir string) string {
	base := filepath.Base(filepath.Clean(dir))
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r - 'A' + 'a')
		default:
			b.WriteRune('_')
		}
	}
	name := strings.Trim(b.String(), "_")
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		name = "module_" + name
	}
	return strings.TrimSuffix(name, "_")
}

// cueFileName is the name of the CUE file for a source file: main.tf and
// main.tf.json become main.cue, unless another file took the name.
func cueFileName(path string, taken map[string]bool) string {
	base := filepath.Base(path)
	for _, ext := range []string{".tf.json", ".tofu.json", ".tf", ".tofu"} {
		if s, ok := strings.CutSuffix(base, ext); ok {
			base = s
			break
		}
	}
	// cue/load leaves out files whose names start with _ or ., and
	// takes those ending in _test or _tool for tests and cue cmd.
	if strings.HasPrefix(base, "_") || strings.HasPrefix(base, ".") {
		base = "tf" + base
	}
	if strings.HasSuffix(base, "_test") || strings.HasSuffix(base, "_tool") {
		base += "_tf"
	}
	name := base + ".cue"
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%s_%d.cue", base, i)
	}
	taken[name] = true
	return name
}

// fileDecls converts the declarations of one source file, adding the
// imports they use to c.imports.
func (c *converter) fileDecls(path string, f *hcl.File) []ast.Decl {
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		c.unconverted(hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos},
			"JSON configuration not converted",
			"hcl2cue converts files in OpenTofu's native syntax; "+filepath.Base(path)+" is in the JSON syntax.")
		return nil
	}
	var decls []ast.Decl
	c.comments = c.opts.comments.of(path, f)
	for _, block := range body.Blocks {
		decls = append(decls, c.block(block)...)
	}
	if rest := c.comments.rest(); len(rest) > 0 {
		// Comments after the last declaration end the file.
		cg := &ast.CommentGroup{}
		for _, l := range rest {
			cg.List = append(cg.List, &ast.Comment{Text: "//" + prefixSpace(l)})
		}
		decls = append(decls, cg)
	}
	return decls
}

// format writes a file's declarations with its package clause and imports.
func (c *converter) format(decls []ast.Decl) []byte {
	c.pruneImports(decls)
	if c.imports[libImport] {
		c.libUsed = true
	}
	file := &ast.File{}
	file.Decls = append(file.Decls, &ast.Package{Name: ident(c.opts.Package)})
	if len(c.imports) > 0 {
		imp := &ast.ImportDecl{}
		names := make([]string, 0, len(c.imports))
		for n := range c.imports {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			path := stdImports[n]
			if n == libImport {
				path = c.opts.ModulePath + "/" + libImport
			}
			spec := ast.NewImport(nil, path)
			imp.Specs = append(imp.Specs, spec)
		}
		file.Decls = append(file.Decls, imp)
	}
	for i, d := range decls {
		if i > 0 || len(c.imports) > 0 {
			ast.SetRelPos(d, token.NewSection)
		}
		file.Decls = append(file.Decls, d)
	}
	keepKeywordLabels(file)
	embedConditionals(file, c.embeddable)
	compactStructs(file)
	b, err := format.Node(file, format.Simplify())
	if err != nil {
		// The converter built syntax the formatter rejects: a bug, kept
		// visible rather than hidden.
		c.diags = append(c.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Internal error formatting CUE", Detail: err.Error()})
		c.reasons = append(c.reasons, "Internal error formatting CUE")
	}
	return b
}

// pruneImports drops the imports that the file's declarations do not use:
// an argument converted and then left out (a call folded at conversion or
// reported as not converted) may have asked for one. A package is used
// where it is the operand of a selector (strings.Join, tofu.#merge); no
// other identifier takes an imported name, since the converter quotes
// labels and picks bound names that would shadow one.
func (c *converter) pruneImports(decls []ast.Decl) {
	if len(c.imports) == 0 {
		return
	}
	used := map[string]bool{}
	for _, d := range decls {
		ast.Walk(d, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := s.X.(*ast.Ident); ok && c.imports[id.Name] {
					used[id.Name] = true
				}
			}
			return true
		}, nil)
	}
	for n := range c.imports {
		if !used[n] {
			delete(c.imports, n)
		}
	}
}

// contextDecls declare what OpenTofu's path and terraform objects and
// plantimestamp() give: values the engine sets, with OpenTofu's values for
// a root module as defaults (plantimestamp has none: the plan's time is
// not known before the plan). In a module called by the root, path.module is the module's
// directory relative to the root's.
func (c *converter) contextDecls() []ast.Decl {
	var decls []ast.Decl
	if c.usesPath {
		s := &ast.StructLit{}
		for _, n := range []string{"module", "root", "cwd"} {
			v := defaulted(stringLit("."), ident("string"))
			if n == "module" && c.child != "" {
				v = stringLit(c.child)
			}
			s.Elts = append(s.Elts, field(ident(n), v))
		}
		f := field(ident(pathRoot), s)
		f.Attrs = []*ast.Attribute{attr(cueform.AttrPath)}
		docComment(f, []string{"path.module, path.root and path.cwd: the engine sets them; \".\" in a root module."})
		decls = append(decls, f)
	}
	if c.usesWorkspace {
		f := field(ident(workspaceRoot), defaulted(stringLit("default"), ident("string")))
		f.Attrs = []*ast.Attribute{attr(cueform.AttrWorkspace)}
		docComment(f, []string{"terraform.workspace: the engine sets it; \"default\" unless a workspace is selected."})
		decls = append(decls, f)
	}
	if c.usesPlanTime {
		f := field(ident(planTimeRoot), ident("string"))
		f.Attrs = []*ast.Attribute{attr(cueform.AttrPlanTimestamp)}
		docComment(f, []string{"plantimestamp(): the engine sets it to the time the plan is made."})
		decls = append(decls, f)
	}
	if c.usesHome {
		f := field(ident(homeRoot), ident("string"))
		f.Attrs = []*ast.Attribute{attr(cueform.AttrHome)}
		lines := []string{"The home directory pathexpand expands ~ to: the engine sets it to the", "machine's, as OpenTofu uses it."}
		if c.child == "" {
			// A tag only at the root: a module's declarations are
			// inside the comprehension of its instances, where CUE
			// allows none.
			f.Attrs = append(f.Attrs, attr("tag", "home"))
			lines[1] += " cue export -t home=DIR sets it."
		}
		docComment(f, lines)
		decls = append(decls, f)
	}
	blankBeforeComments(decls)
	return decls
}

// blankBeforeComments puts the blank line that format writes between
// declarations before the doc comment of each one after the first, where
// format would put it between the comment and the declaration.
func blankBeforeComments(decls []ast.Decl) {
	for _, d := range decls[min(1, len(decls)):] {
		if cgs := ast.Comments(d); len(cgs) > 0 {
			cgs[0].List[0].Slash = token.NoPos.WithRel(token.NewSection)
		}
	}
}

// usesContext reports whether the module reads a value the engine sets
// (contextDecls).
func (c *converter) usesContext() bool {
	return c.usesPath || c.usesWorkspace || c.usesPlanTime || c.usesHome
}

// defaulted is *d | t.
func defaulted(d, t ast.Expr) ast.Expr {
	return &ast.BinaryExpr{X: &ast.UnaryExpr{Op: token.MUL, X: paren(d)}, Op: token.OR, Y: t}
}

// nested builds the field path[0]: path[1]: ...: value, and returns the
// outer field and the innermost one, which carries the attribute.
func (c *converter) nested(path []string, value ast.Expr) (outer, inner *ast.Field) {
	inner = field(c.rootLabel(path[len(path)-1], len(path) == 1), value)
	outer = inner
	for i := len(path) - 2; i >= 0; i-- {
		outer = field(c.rootLabel(path[i], i == 0), &ast.StructLit{Elts: []ast.Decl{outer}})
	}
	return outer, inner
}

// rootLabel is the label of a field on the path of a declaration: a
// namespace at the top, then type and name labels.
func (c *converter) rootLabel(name string, top bool) ast.Label {
	if top && (strings.HasPrefix(name, "_") || isPlainLabel(name)) {
		return ident(name)
	}
	return c.lbl(name)
}

// sortedAttrs is a body's attributes in source order.
func sortedAttrs(b *hclsyntax.Body) []*hclsyntax.Attribute {
	attrs := make([]*hclsyntax.Attribute, 0, len(b.Attributes))
	for _, a := range b.Attributes {
		attrs = append(attrs, a)
	}
	slices.SortFunc(attrs, func(a, b *hclsyntax.Attribute) int { return cmp.Compare(a.SrcRange.Start.Byte, b.SrcRange.Start.Byte) })
	return attrs
}
