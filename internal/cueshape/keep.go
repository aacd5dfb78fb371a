package main

import (
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"

	"github.com/tofucue/tofucue/cueform"
)

// declAttrs are the attributes that mark a declaration: Keep keeps or
// drops the field that carries one by its name.
var declAttrs = map[string]bool{
	cueform.AttrInput: true, cueform.AttrResource: true, cueform.AttrData: true,
	cueform.AttrEphemeral: true, cueform.AttrModule: true, cueform.AttrOutput: true,
	cueform.AttrProvider: true, cueform.AttrTerraform: true, cueform.AttrPath: true,
	cueform.AttrWorkspace: true, cueform.AttrPlanTimestamp: true, cueform.AttrHome: true,
	cueform.AttrValidation: true, cueform.AttrImport: true, cueform.AttrMoved: true,
	cueform.AttrRemoved: true, cueform.AttrMiddleware: true,
}

// Keep is the CUE file src with only the declarations named in keep, by
// the first argument of their attribute without [*] (base_cidr_block,
// aws_subnet.main, vpc_id), formatted again: a field that declares
// something else is dropped, and so is a field of no declaration (a
// local value) or a namespace left empty. The package clause and the
// imports stay (Count does not count them). It is how scripts/cue-shape
// measures examples/vpc on the declarations the article's program has.
func Keep(name string, src []byte, keep map[string]bool) ([]byte, error) {
	f, err := parser.ParseFile(name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var decls []ast.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.Package, *ast.ImportDecl:
			decls = append(decls, d)
		case *ast.Field:
			if kept(d, keep) {
				decls = append(decls, d)
			}
		}
	}
	f.Decls = decls
	return format.Node(f)
}

// kept tells whether field f stays: a declaration named in keep, or a
// namespace that holds one (which then keeps only those).
func kept(f *ast.Field, keep map[string]bool) bool {
	for _, a := range f.Attrs {
		key, body := a.Split()
		if !declAttrs[key] {
			continue
		}
		first, _, _ := strings.Cut(body, ",")
		return keep[strings.TrimSuffix(strings.TrimSpace(first), cueform.Instances)]
	}
	s, ok := f.Value.(*ast.StructLit)
	if !ok {
		return false
	}
	var elts []ast.Decl
	for _, e := range s.Elts {
		if g, ok := e.(*ast.Field); ok && kept(g, keep) {
			elts = append(elts, g)
		}
	}
	s.Elts = elts
	return len(elts) > 0
}
