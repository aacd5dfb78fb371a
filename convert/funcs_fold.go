package convert

import (
	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// fold works a call out at conversion time with OpenTofu's own functions
// (see constValue): its arguments may be literals, calls, path.module and
// local values built from them; anything that depends on the module's
// inputs leaves the result unknown, and the call is not folded. The result
// is written as a CUE literal. It fails (ok false) where the result is not
// known (an input, a function not known until apply such as timestamp,
// uuid or bcrypt), where OpenTofu reports an error (err says it), and where
// the result shows or depends on how the module directory is spelled (it
// differs between modules).
func (cl *call) fold() (x ast.Expr, k kind, err string, ok bool) {
	call := &hclsyntax.FunctionCallExpr{Name: cl.name, Args: cl.src, ExpandFinal: cl.expand, NameRange: cl.rng, OpenParenRange: cl.rng, CloseParenRange: cl.rng}
	v, diags, ok := cl.c.constValue(call)
	if diags.HasErrors() {
		return nil, kindUnknown, diags[0].Detail, false
	}
	if !ok {
		return nil, kindUnknown, "", false
	}
	x, k = cl.c.literal(v, cl.rng)
	return x, k, "", true
}

// arityFold checks the number of arguments and works the call out when
// its arguments are constants: done is set, with the expression to
// write, when the call has the wrong number of arguments (reported),
// folds, or is an error in OpenTofu (reported).
func (cl *call) arityFold(lo, hi int) (x ast.Expr, done bool) {
	if !cl.arity(lo, hi) {
		return cl.fail(arityDetail(cl.name, lo, hi)), true
	}
	if x, _, err, ok := cl.fold(); ok {
		return x, true
	} else if err != "" {
		return cl.fail("OpenTofu reports an error for this call: " + err), true
	}
	return nil, false
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
