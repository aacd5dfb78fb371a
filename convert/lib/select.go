package lib

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"sync"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
)

// Select returns the library files a converted module needs when it
// uses the definitions named in roots ("#cidrsubnet"): each file that
// holds one of them or a definition they use, directly or through
// others, with only those definitions and only the imports they use,
// formatted as cue fmt formats it (the library's files are, and so is
// what Select puts together from them: TestSelect). It maps file names to CUE source. A
// name that is not a definition of the library is an error: the
// converter wrote a call of a function the library does not have.
func Select(roots []string) (map[string][]byte, error) {
	idx, err := index()
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	var visit func(name string) error
	visit = func(name string) error {
		if keep[name] {
			return nil
		}
		d, ok := idx.defs[name]
		if !ok {
			return fmt.Errorf("the tofu library has no definition %s", name)
		}
		keep[name] = true
		for _, u := range d.uses {
			if err := visit(u); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range roots {
		if err := visit(r); err != nil {
			return nil, err
		}
	}
	out := map[string][]byte{}
	for _, f := range idx.files {
		var body bytes.Buffer
		imports := map[string]bool{}
		for _, name := range f.defs {
			if !keep[name] {
				continue
			}
			d := idx.defs[name]
			body.WriteString("\n")
			body.Write(d.text)
			body.WriteString("\n")
			for _, p := range d.imports {
				imports[p] = true
			}
		}
		if body.Len() == 0 {
			continue
		}
		var src bytes.Buffer
		src.Write(f.header)
		if len(imports) > 0 {
			paths := make([]string, 0, len(imports))
			for p := range imports {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			src.WriteString("\nimport (\n")
			for _, p := range paths {
				src.WriteString("\t" + strconv.Quote(p) + "\n")
			}
			src.WriteString(")\n")
		}
		src.Write(body.Bytes())
		out[f.name] = src.Bytes()
	}
	return out, nil
}

// A libIndex is the library's files cut into their definitions, made once
// per process: what Select copies from.
type libIndex struct {
	files []libFile
	defs  map[string]*libDef
}

// A libFile is one file of the library: its text up to and including the
// package clause (the package's doc comment is in core.cue's), and the
// names of its definitions in their order.
type libFile struct {
	name   string
	header []byte
	defs   []string
}

// A libDef is one top-level definition: its text with its doc comment,
// the definitions of the library it refers to, and the import paths it
// uses.
type libDef struct {
	text    []byte
	uses    []string
	imports []string
}

var index = sync.OnceValues(func() (*libIndex, error) {
	entries, err := fs.ReadDir(Files, ".")
	if err != nil {
		return nil, err
	}
	idx := &libIndex{defs: map[string]*libDef{}}
	parsed := map[string]*ast.File{}
	srcs := map[string][]byte{}
	// Every top-level field is a definition of the one package, which the
	// others refer to by name whatever file holds it.
	top := map[ast.Node]string{}
	names := map[string]bool{}
	for _, e := range entries {
		src, err := fs.ReadFile(Files, e.Name())
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(e.Name(), src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		parsed[e.Name()], srcs[e.Name()] = f, src
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.Field); ok {
				name, _, err := ast.LabelName(fd.Label)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", e.Name(), err)
				}
				// The parser resolves a reference to a field to its value.
				top[fd], top[fd.Value], names[name] = name, name, true
			}
		}
	}
	for _, e := range entries {
		f, src := parsed[e.Name()], srcs[e.Name()]
		lf := libFile{name: e.Name()}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.Package:
				lf.header = src[:d.End().Offset()]
				lf.header = append(slices.Clip(lf.header), '\n')
			case *ast.ImportDecl, *ast.CommentGroup:
			case *ast.Field:
				name := top[d]
				if _, dup := idx.defs[name]; dup {
					return nil, fmt.Errorf("%s: %s is defined twice", e.Name(), name)
				}
				idx.defs[name] = &libDef{text: declText(src, d), uses: usedDefs(d, top, names), imports: usedImports(d)}
				lf.defs = append(lf.defs, name)
			default:
				return nil, fmt.Errorf("%s: a top-level %T is not a definition", e.Name(), d)
			}
		}
		if lf.header == nil {
			return nil, fmt.Errorf("%s: no package clause", e.Name())
		}
		idx.files = append(idx.files, lf)
	}
	return idx, nil
})

// declText is d's source with its doc comments, through the end of the
// line where d ends (a comment after it on that line included).
func declText(src []byte, d *ast.Field) []byte {
	start := d.Pos().Offset()
	for _, cg := range ast.Comments(d) {
		if cg.Doc && cg.Pos().Offset() < start {
			start = cg.Pos().Offset()
		}
	}
	end := d.End().Offset()
	if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
		end += i
	} else {
		end = len(src)
	}
	return src[start:end]
}

// usedDefs lists the top-level definitions d's value refers to: the
// identifiers the parser resolved to one in the same file, and those it
// left unresolved that name one in another file. (A label of the same
// name as a definition counts too: one more definition kept, never one
// missing.)
func usedDefs(d *ast.Field, top map[ast.Node]string, names map[string]bool) []string {
	seen := map[string]bool{top[d]: true}
	var uses []string
	ast.Walk(d.Value, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		name, ok := top[id.Node]
		if !ok && id.Node == nil && names[id.Name] {
			name, ok = id.Name, true
		}
		if ok && !seen[name] {
			seen[name] = true
			uses = append(uses, name)
		}
		return true
	}, nil)
	return uses
}

// usedImports lists the import paths of the packages d refers to.
func usedImports(d *ast.Field) []string {
	seen := map[string]bool{}
	var paths []string
	ast.Walk(d.Value, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if spec, ok := id.Node.(*ast.ImportSpec); ok {
				p, err := strconv.Unquote(spec.Path.Value)
				if err == nil && !seen[p] {
					seen[p] = true
					paths = append(paths, p)
				}
			}
		}
		return true
	}, nil)
	return paths
}
