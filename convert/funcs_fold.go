package convert

import (
	"path/filepath"
	"strings"

	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyfunction "github.com/zclconf/go-cty/cty/function"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	tofufuncs "github.com/tofucue/tofucue/functions"
)

// fold works a call out at conversion time with OpenTofu's own functions,
// when its arguments are constants: literals, calls of functions on
// literals, and path.module, which stands for the module directory (the
// file functions read only inside it). The result is written as a CUE
// literal. It fails (ok false) where an argument refers to anything else,
// where a function is not known until apply (timestamp, plantimestamp,
// uuid, bcrypt), where OpenTofu reports an error, and where the module
// directory itself shows in the result (it differs between modules).
func (cl *call) fold() (x ast.Expr, k kind, err string, ok bool) {
	dir, e := filepath.Abs(cl.c.m.Dir)
	if e != nil {
		return nil, kindUnknown, "", false
	}
	table := tofufuncs.Table(tofufuncs.Options{BaseDir: dir, PlanTime: true})
	table["plantimestamp"] = ctyfunction.New(&ctyfunction.Spec{
		Type: ctyfunction.StaticReturnType(cty.String),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) { return cty.UnknownVal(cty.String), nil },
	})
	ctx := &hcl.EvalContext{
		Functions: table,
		Variables: map[string]cty.Value{"path": cty.ObjectVal(map[string]cty.Value{"module": cty.StringVal(dir)})},
	}
	for _, a := range cl.src {
		for _, t := range a.Variables() {
			if !isPathModule(t) {
				return nil, kindUnknown, "", false
			}
		}
	}
	call := &hclsyntax.FunctionCallExpr{Name: cl.name, Args: cl.src, ExpandFinal: cl.expand, NameRange: cl.rng, OpenParenRange: cl.rng, CloseParenRange: cl.rng}
	v, diags := call.Value(ctx)
	if diags.HasErrors() {
		return nil, kindUnknown, diags[0].Detail, false
	}
	v, _ = v.UnmarkDeep()
	if !v.IsWhollyKnown() {
		return nil, kindUnknown, "", false
	}
	if b, e := ctyjson.Marshal(v, v.Type()); e != nil || strings.Contains(string(b), dir) {
		return nil, kindUnknown, "", false
	}
	x, k = cl.c.literal(v, cl.rng)
	return x, k, "", true
}

// foldOr is fold, or a "not converted" report saying why.
func (cl *call) foldOr(why string) ast.Expr {
	x, _, err, ok := cl.fold()
	if ok {
		return x
	}
	if err != "" {
		return cl.fail("OpenTofu reports an error for this call: " + err)
	}
	return cl.fail(why)
}

// isPathModule reports whether t is path.module.
func isPathModule(t hcl.Traversal) bool {
	if len(t) < 2 || t.RootName() != "path" {
		return false
	}
	a, ok := t[1].(hcl.TraverseAttr)
	return ok && a.Name == "module"
}
