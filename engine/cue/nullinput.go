package cue

import (
	"fmt"
	"go/token"
	"reflect"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	cuetoken "cuelang.org/go/cue/token"
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
// from its syntax with that field's value null (rebuiltProgram). Only the
// root's inputs are given this way: a called module's variables take
// their arguments in the form itself (see convert's modules.go).

// A value given for a variable with a default replaces the default in
// OpenTofu, where in CUE it is unified with *D | T, which takes D & V
// wherever that unifies. Given nulls inside V are nulls by default (*null
// | _, encodeInput), which unify with what D holds there: an object
// default that sets an attribute V leaves null ({https = {}}, given {http
// = {...}}) kept D's value for it. Where that happens (D & V unifies with
// V's nulls soft, not with them null) the field is built again without its
// default, as T, before V is filled in.

// fill is what inputs does with a variable's value.
type fill int

const (
	fillValue          fill = iota // unify the field with x
	fillNull                       // build the field again as null
	fillWithoutDefault             // build the field again without its default, then unify with x
)

// inputFill is the value filled at the @input field f (the field's
// value in the program, before any input) for the input val, and how.
// A null replaces the field where f does not admit it; it is *null | _
// where f admits null and has no default but null (*null | string: the
// provider may still decide an attribute set from it), and null where
// its default is another (*"x" | _), which the two defaults of *null | _
// would leave undecided. A value other than null is filled without f's
// default where the default would take it over (see above).
func inputFill(ctx *cue.Context, f cue.Value, val cty.Value) (ast.Expr, fill) {
	if !val.IsNull() {
		x := encodeInput(val)
		if d, ok := defaultArm(f); ok && d.Unify(ctx.BuildExpr(x)).Err() == nil && d.Unify(ctx.BuildExpr(encode(val))).Err() != nil {
			return x, fillWithoutDefault
		}
		return x, fillValue
	}
	if f.Unify(ctx.CompileString("null")).Err() != nil {
		return nil, fillNull
	}
	if dv, ok := f.Default(); ok && dv.Kind() != cue.NullKind {
		return encode(val), fillValue
	}
	return encodeInput(val), fillValue
}

// defaultArm is D of a field *D | T or (*D | T) & C. Value.Default's
// result is no use here: unified further, it is the whole disjunction
// again, T's arm included.
func defaultArm(f cue.Value) (cue.Value, bool) {
	if _, ok := f.Default(); !ok {
		return cue.Value{}, false
	}
	for {
		op, args := f.Expr()
		switch {
		case op == cue.AndOp && len(args) > 0:
			f = args[0]
		case op == cue.OrOp && len(args) == 2:
			return args[0], true
		default:
			return cue.Value{}, false
		}
	}
}

// rebuild is a field to build again, and how: as null, or without its
// default.
type rebuild struct {
	path cue.Path
	how  fill
}

// rebuiltProgram is the program v built again from its syntax with the
// value of each field of rs null or without its default: a field
// declared once, whose value is an expression of the program's own
// files; one to be built without its default is left as it is unless of
// the form *D | T or (*D | T) & C. The files are copied (syntaxCopier), so the program's own
// syntax is not changed, and every position stays where it was.
func rebuiltProgram(ctx *cue.Context, v cue.Value, rs []rebuild) (cue.Value, error) {
	bi := v.BuildInstance()
	if bi == nil {
		return v, fmt.Errorf("the program has no build instance to build again")
	}
	values := map[ast.Node]fill{}
	for _, r := range rs {
		src := v.LookupPath(r.path).Source()
		if f, ok := src.(*ast.Field); ok {
			src = f.Value
		}
		if src == nil {
			return v, fmt.Errorf("the field %s has no syntax to replace", r.path)
		}
		if e, ok := src.(ast.Expr); r.how == fillWithoutDefault && (!ok || withoutDefault(e) == nil) {
			// Not of a form to leave the default out of: the value is
			// unified with the field as it is.
			continue
		}
		values[src] = r.how
	}
	var fields []*ast.Field
	for _, f := range bi.Files {
		ast.Walk(f, func(n ast.Node) bool {
			if fd, ok := n.(*ast.Field); ok {
				if _, ok := values[fd.Value]; ok {
					fields = append(fields, fd)
				}
			}
			return true
		}, nil)
	}
	if len(fields) != len(values) {
		return v, fmt.Errorf("found %d of the %d fields to build again in the program's files", len(fields), len(values))
	}
	cp := newSyntaxCopier()
	nbi := *bi
	nbi.Files = make([]*ast.File, len(bi.Files))
	for i, f := range bi.Files {
		nbi.Files[i] = cp.copy(reflect.ValueOf(f)).Interface().(*ast.File)
	}
	for _, f := range fields {
		c := cp.copy(reflect.ValueOf(f)).Interface().(*ast.Field)
		if values[f.Value] == fillWithoutDefault {
			c.Value = withoutDefault(c.Value)
			continue
		}
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

// withoutDefault is x, of the form *D | T or (*D | T) & C, as T or T & C;
// nil where x is of neither form.
func withoutDefault(x ast.Expr) ast.Expr {
	for {
		p, ok := x.(*ast.ParenExpr)
		if !ok {
			break
		}
		x = p.X
	}
	b, ok := x.(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	switch b.Op {
	case cuetoken.OR:
		if u, ok := b.X.(*ast.UnaryExpr); ok && u.Op == cuetoken.MUL {
			return b.Y
		}
	case cuetoken.AND:
		if t := withoutDefault(b.X); t != nil {
			return &ast.BinaryExpr{X: t, OpPos: b.OpPos, Op: cuetoken.AND, Y: b.Y}
		}
	}
	return nil
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
