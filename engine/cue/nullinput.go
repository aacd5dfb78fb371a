package cue

import (
	"fmt"
	"go/token"
	"reflect"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"github.com/zclconf/go-cty/cty"
)

// Nullable inputs set to null. In OpenTofu a nullable variable (every
// variable without nullable = false) set to null is null, whatever its
// default: tags = null, where the default is {}, reads null. The CUE form
// writes a variable as its type and default (*close({}) | {[string]:
// string} @input(tags)), which null does not unify with. Writing `| null`
// into every variable's schema would say it, but it weakens the stock cue
// tool's evaluation at the defaults: the library's null tests take a
// value that may be null for null, so tofu.#merge would leave out a
// variable that is only by default a map. So the planner does what
// OpenTofu does, and replaces the variable's value: where an input given
// null does not unify with its @input field, the program is built again
// from its syntax with that field's value null (nullProgram). Only the
// root's inputs are given this way: a called module's variables take
// their arguments in the form itself (see convert's modules.go).

// inputFill is the value filled at the @input field f (the field's
// value in the program, before any input) for the input val, and whether
// it must replace the field instead (null, which f does not admit).
// A null is *null | _ where f admits null and has no default but null
// (*null | string: the provider may still decide an attribute set from
// it), and null where its default is another (*"x" | _), which the two
// defaults of *null | _ would leave undecided.
func inputFill(ctx *cue.Context, f cue.Value, val cty.Value) (x ast.Expr, replace bool) {
	if !val.IsNull() {
		return encodeInput(val), false
	}
	if f.Unify(ctx.CompileString("null")).Err() != nil {
		return nil, true
	}
	if dv, ok := f.Default(); ok && dv.Kind() != cue.NullKind {
		return encode(val), false
	}
	return encodeInput(val), false
}

// nullProgram is the program v built again from its syntax with the
// values of the fields at paths null: a field declared once, whose value
// is an expression of the program's own files. The files are copied
// (syntaxCopier), so the program's own syntax is not changed, and every
// position stays where it was.
func nullProgram(ctx *cue.Context, v cue.Value, paths []cue.Path) (cue.Value, error) {
	bi := v.BuildInstance()
	if bi == nil {
		return v, fmt.Errorf("the program has no build instance to build again")
	}
	values := map[ast.Node]bool{}
	for _, p := range paths {
		src := v.LookupPath(p).Source()
		if f, ok := src.(*ast.Field); ok {
			src = f.Value
		}
		if src == nil {
			return v, fmt.Errorf("the field %s has no syntax to replace", p)
		}
		values[src] = true
	}
	var fields []*ast.Field
	for _, f := range bi.Files {
		ast.Walk(f, func(n ast.Node) bool {
			if fd, ok := n.(*ast.Field); ok && values[fd.Value] {
				fields = append(fields, fd)
			}
			return true
		}, nil)
	}
	if len(fields) != len(values) {
		return v, fmt.Errorf("found %d of the %d fields to set to null in the program's files", len(fields), len(values))
	}
	cp := newSyntaxCopier()
	nbi := *bi
	nbi.Files = make([]*ast.File, len(bi.Files))
	for i, f := range bi.Files {
		nbi.Files[i] = cp.copy(reflect.ValueOf(f)).Interface().(*ast.File)
	}
	for _, f := range fields {
		c := cp.copy(reflect.ValueOf(f)).Interface().(*ast.Field)
		null := ast.NewNull()
		ast.SetPos(null, f.Value.Pos())
		c.Value = null
	}
	nv := ctx.BuildInstance(&nbi)
	if err := nv.Err(); err != nil {
		return v, err
	}
	return nv, nil
}

// syntaxCopier copies CUE syntax trees deeply, each node once: a node
// that several others point to (an identifier's Node, the field or
// import it resolves to) is one node in the copy too, so that the copy
// resolves as the original does. Nodes of types the package does not
// export (the predeclared identifiers' marker) are shared, as are
// positions and comments.
type syntaxCopier struct {
	copied map[syntaxKey]reflect.Value
}

type syntaxKey struct {
	t reflect.Type
	p uintptr
}

func newSyntaxCopier() *syntaxCopier {
	return &syntaxCopier{copied: map[syntaxKey]reflect.Value{}}
}

var astPackage = reflect.TypeFor[ast.Field]().PkgPath()

func (c *syntaxCopier) copy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		t := v.Type().Elem()
		if v.IsNil() || t.Kind() != reflect.Struct || t.PkgPath() != astPackage || !token.IsExported(t.Name()) {
			return v
		}
		key := syntaxKey{t, v.Pointer()}
		if cp, ok := c.copied[key]; ok {
			return cp
		}
		cp := reflect.New(t)
		c.copied[key] = cp
		cp.Elem().Set(v.Elem())
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				cp.Elem().Field(i).Set(c.copy(v.Elem().Field(i)))
			}
		}
		return cp
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		cp := reflect.New(v.Type()).Elem()
		cp.Set(c.copy(v.Elem()))
		return cp
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			cp.Index(i).Set(c.copy(v.Index(i)))
		}
		return cp
	}
	return v
}
