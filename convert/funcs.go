package convert

import (
	"fmt"
	"sort"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyfunction "github.com/zclconf/go-cty/cty/function"

	tofufuncs "github.com/tofucue/tofucue/functions"
)

// how says how an OpenTofu function is written in CUE.
type how int

const (
	// byStdlib: a function of CUE's standard library with the same meaning.
	byStdlib how = iota
	// byExpr: a CUE expression written in place (an operator, a
	// comprehension, a builtin).
	byExpr
	// byLibrary: a definition of the tofu package that hcl2cue writes
	// beside the converted module, in pure CUE.
	byLibrary
	// byConversion: worked out when converting, from constant arguments
	// (a literal format string, a file of the module).
	byConversion
	// unknownAtPlan: its result is not known until apply (timestamp, uuid);
	// it becomes a CUE type, CUE's form of an unknown value.
	unknownAtPlan
	// notConverted: CUE cannot express it; a call is reported.
	notConverted
)

func (h how) String() string {
	return [...]string{"CUE standard library", "CUE expression", "tofu library", "at conversion", "unknown at plan", "not converted"}[h]
}

// function is how one OpenTofu function is converted.
type function struct {
	how how
	// note is one line for the package doc's table: what the function
	// becomes, or why it is not converted.
	note string
	// conv writes a call; nil when how is notConverted. It may report a
	// diagnostic with call.fail for arguments it cannot take.
	conv func(*call) ast.Expr
	// result is the kind of the result, when the function fixes it: its
	// spec's (see resultKind).
	result kind
}

// call is one function call being converted.
type call struct {
	c    *converter
	name string
	// args are the converted arguments; kinds their kinds; src the
	// arguments as written.
	args  []ast.Expr
	kinds []kind
	src   []hclsyntax.Expression
	// expand is set when the last argument is followed by "...".
	expand bool
	rng    hcl.Range
	// readsPending is the converter's readsPending, which try's
	// conversion calls: a field, since a conversion that called the
	// converter's method would refer back to the table of functions
	// that holds it.
	readsPending func(hclsyntax.Expression) ast.Expr
	// expr is the converter's expr, for a conversion that writes a part
	// of an argument (tryAttr): a field for the same reason.
	expr func(hcl.Expression) (ast.Expr, kind)
}

// fail reports that this call cannot be converted and returns the
// placeholder for it.
func (cl *call) fail(detail string) ast.Expr {
	return cl.c.unconverted(cl.rng, fmt.Sprintf("Function %s not converted", cl.name), detail)
}

// arity checks the number of arguments, reporting a call with another
// number as OpenTofu does.
func (cl *call) arity(lo, hi int) bool {
	n := len(cl.args)
	if n >= lo && (hi < 0 || n <= hi) && !cl.expand {
		return true
	}
	return false
}

// std is pkg.fn(args...), importing pkg.
func (cl *call) std(pkg, fn string, args ...ast.Expr) ast.Expr { return cl.c.std(pkg, fn, args...) }

// lib is the call of the library definition name with args.
func (cl *call) lib(name string, args ...ast.Expr) ast.Expr { return cl.c.lib(name, args...) }

// libDef is the library's definition tofu.#name, importing the library.
func (c *converter) libDef(name string) ast.Expr {
	c.imports[libImport] = true
	return &ast.SelectorExpr{X: ident(libImport), Sel: ident("#" + name)}
}

// valueTest is [(*x | 'error') & tofu.#value] != _|_ (op NEQ): whether
// x is a value, known or not, rather than an error; == _|_ with op EQL.
func (c *converter) valueTest(x ast.Expr, op token.Token) ast.Expr {
	return binary(op, list(binary(token.AND, orError(x), c.libDef("value"))), &ast.BottomLit{})
}

// std is pkg.fn(args...), importing pkg into the file being written.
func (c *converter) std(pkg, fn string, args ...ast.Expr) ast.Expr {
	c.imports[pkg] = true
	return ast.NewCall(&ast.SelectorExpr{X: ident(pkg), Sel: ident(fn)}, args...)
}

// lib is the call of a definition of the tofu library: the CUE idiom for a
// function, (tofu.#name & {#args: [args...]}).out.
func (c *converter) lib(name string, args ...ast.Expr) ast.Expr {
	return c.libList(name, list(args...))
}

// libList is lib with the arguments given as one list expression, for a
// call whose last argument is expanded with "...".
func (c *converter) libList(name string, args ast.Expr) ast.Expr {
	c.imports[libImport] = true
	def := &ast.SelectorExpr{X: ident(libImport), Sel: ident("#" + name)}
	argsField := &ast.Field{Label: ident("#args"), Value: args}
	s := &ast.StructLit{Elts: []ast.Decl{argsField}}
	if inline(args) {
		// On one line, as a person writes a call: cue/format breaks a
		// struct whose field and closing brace have no position of their
		// own.
		ast.SetRelPos(argsField, token.NoSpace)
		s.Rbrace = token.NoSpace.Pos()
	}
	return &ast.SelectorExpr{X: &ast.ParenExpr{X: binary(token.AND, def, s)}, Sel: ident("out")}
}

// libArgs is the list of arguments of x where x is a call of the
// library definition name that lib wrote.
func libArgs(x ast.Expr, name string) (*ast.ListLit, bool) {
	if libCallName(x) != name {
		return nil, false
	}
	s, ok := x.(*ast.SelectorExpr).X.(*ast.ParenExpr).X.(*ast.BinaryExpr).Y.(*ast.StructLit)
	if !ok || len(s.Elts) != 1 {
		return nil, false
	}
	f, ok := s.Elts[0].(*ast.Field)
	if !ok || identName(f.Label) != "#args" {
		return nil, false
	}
	l, ok := f.Value.(*ast.ListLit)
	return l, ok
}

// argList is the arguments as one CUE list, with an expanded last
// argument spliced in.
func (cl *call) argList() ast.Expr {
	if !cl.expand {
		return list(cl.args...)
	}
	n := len(cl.args)
	if n == 1 {
		return cl.args[0]
	}
	return cl.std("list", "Concat", list(list(cl.args[:n-1]...), cl.args[n-1]))
}

// call converts a function call.
func (c *converter) call(e *hclsyntax.FunctionCallExpr) (ast.Expr, kind) {
	name := e.Name
	if strings.Contains(name, "::") {
		if rest, ok := strings.CutPrefix(name, "core::"); ok {
			name = rest
		} else {
			return c.unconverted(e.Range(), "Provider function not converted",
				fmt.Sprintf("%s is a provider-defined function; CUE has no way to call a provider.", e.Name)), kindUnknown
		}
	}
	f, ok := functions[name]
	if !ok {
		return c.unconverted(e.Range(), "Call to unknown function",
			fmt.Sprintf("There is no function named %q.", e.Name)), kindUnknown
	}
	if x, ok := c.canMatch(name, e); ok {
		return x, kindBool
	}
	outer := func(x ast.Expr) ast.Expr { return x }
	if f.result == kindString && f.how != unknownAtPlan && len(e.Args) > 0 {
		// A string function is not known while an argument is not.
		outer = c.unknownScope(e)
	}
	cl := &call{c: c, name: name, src: e.Args, expand: e.ExpandFinal, rng: e.Range(), readsPending: c.readsPending, expr: c.expr}
	for _, a := range e.Args {
		x, k := c.expr(a)
		cl.args = append(cl.args, x)
		cl.kinds = append(cl.kinds, k)
	}
	if f.conv == nil {
		return outer(cl.fail(f.note)), kindUnknown
	}
	cl.convertParams()
	return outer(f.conv(cl)), f.result
}

// paramType is the type of a function's parameter i (its variadic
// parameter's past the others); false for a call with too many
// arguments.
func paramType(f ctyfunction.Function, i int) (cty.Type, bool) {
	params, variadic := f.Params(), f.VarParam()
	switch {
	case i < len(params):
		return params[i].Type, true
	case variadic != nil:
		return variadic.Type, true
	}
	return cty.NilType, false
}

// signatures are OpenTofu's functions as cty functions, for their
// parameters' types.
var signatures = tofufuncs.Table(tofufuncs.Options{PlanTime: true})

// convertParams converts the arguments of scalar kind to their parameter's
// type where that is another scalar one, as OpenTofu does: a string to a
// number (cidrsubnet(p, 8, var.prefixes[i]) of a list(string) variable,
// which a caller sets to numbers that the module call makes strings), a
// number or bool to a string (upper(var.port)). CUE's builtins and the
// library's definitions would conflict with the other kind.
func (cl *call) convertParams() {
	sig, ok := signatures[cl.name]
	if !ok {
		return
	}
	for i := range cl.args {
		if cl.expand && i == len(cl.args)-1 {
			break
		}
		ty, ok := paramType(sig, i)
		if !ok {
			continue
		}
		switch {
		case ty == cty.Number && cl.kinds[i] == kindString:
			cl.args[i], cl.kinds[i] = cl.lib("tonumber", cl.args[i]), kindNumber
		case ty == cty.String && (cl.kinds[i].isNumber() || cl.kinds[i] == kindBool):
			cl.args[i], cl.kinds[i] = cl.strArg(i), kindString
		}
	}
}

// functions is every OpenTofu function and how it is converted, built from
// the groups in the funcs_*.go files, with what the function's spec says
// of its result.
var functions = func() map[string]function {
	m := map[string]function{}
	for _, group := range []map[string]function{coreFuncs, collectionFuncs, stringFuncs, numericFuncs, encodingFuncs, networkFuncs, filesystemFuncs, cryptoFuncs, typeFuncs, dateFuncs} {
		for name, f := range group {
			if _, dup := m[name]; dup {
				panic("function " + name + " is in two groups")
			}
			spec, ok := tofufuncs.Lookup(name)
			if !ok {
				panic("function " + name + " has no spec")
			}
			f.result = resultKind(spec.Result)
			m[name] = f
		}
	}
	return m
}()

// resultKind is the converter's kind of a spec's result kind.
func resultKind(k tofufuncs.Kind) kind {
	switch k {
	case tofufuncs.String:
		return kindString
	case tofufuncs.Number:
		return kindNumber
	case tofufuncs.Integer:
		return kindInt
	case tofufuncs.Bool:
		return kindBool
	case tofufuncs.List, tofufuncs.Set:
		return kindList
	case tofufuncs.Map:
		return kindMap
	}
	return kindUnknown
}

// FunctionNames is every function name the converter knows, sorted.
func FunctionNames() []string {
	names := make([]string, 0, len(functions))
	for n := range functions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// FunctionStatus says how a function is converted ("CUE standard library",
// "tofu library", "not converted", ...) and the doc table's note for it.
func FunctionStatus(name string) (status, note string, ok bool) {
	f, ok := functions[name]
	if !ok {
		return "", "", false
	}
	return f.how.String(), f.note, true
}
