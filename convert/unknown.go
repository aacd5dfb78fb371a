package convert

import (
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Values not known yet. The engine gives a value that OpenTofu does not
// know while planning as its CUE type (string), and CUE's type is what
// OpenTofu's unknown is: a comparison or a function of it is not known
// either. But CUE's interpolation of a type, or a builtin called with one,
// is an incomplete error, not a type, and CUE has no test that tells an
// incomplete error from any other: a disjunction drops both. So try(x,
// null), where x is "${aws_s3_bucket.b.id}-logs", took its fallback, and a
// block's list attribute unified with a list holding such an error left
// its schema's disjunction undecided, where OpenTofu's value is an unknown
// string.
//
// A template, or a call of a function whose string result is not known
// while an argument is not (upper, replace), that may wait for a value not
// known yet is therefore written
//
//	"\(x)-logs" | (tofu.#unknown & {#args: [x]}).out
//
// where #args are the references the expression reads: tofu.#unknown is
// string while every one of them is a string, number or bool and one is
// not known yet, and an error otherwise (a reference that is an error,
// null, a list or a struct, or every one known), which the disjunction
// drops, leaving the template itself. A reference that is a list or a
// struct (join(",", var.names)) keeps the template alone, as before.

// atPlan are the functions whose result is not known until apply (see
// unknownAtPlan); filled in by init, since the registry's functions (try)
// ask mayBeUnknown.
var atPlan = map[string]bool{}

func init() {
	for name, f := range functions {
		if f.how == unknownAtPlan {
			atPlan[name] = true
		}
	}
}

// mayBeUnknown is whether e may have a value not known while planning: it
// reads a resource, data source or module output, a variable of a called
// module (the root's inputs are known), a local that may be unknown, an
// iterator over a value that may be, or calls timestamp or uuid.
func (c *converter) mayBeUnknown(e hclsyntax.Expression) bool {
	for _, t := range hclsyntax.Variables(e) {
		if c.traversalMayBeUnknown(t) {
			return true
		}
	}
	return len(atPlanCalls(e)) > 0
}

// atPlanCalls are the calls in e of functions whose result is not known
// until apply.
func atPlanCalls(e hclsyntax.Expression) []*hclsyntax.FunctionCallExpr {
	var calls []*hclsyntax.FunctionCallExpr
	_ = hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if f, ok := n.(*hclsyntax.FunctionCallExpr); ok && atPlan[strings.TrimPrefix(f.Name, "core::")] {
			calls = append(calls, f)
		}
		return nil
	})
	return calls
}

// traversalMayBeUnknown is mayBeUnknown for one reference.
func (c *converter) traversalMayBeUnknown(t hcl.Traversal) bool {
	root := t.RootName()
	if b, ok := c.lookup(root); ok {
		if root == "each" && len(t) > 1 {
			if a, isAttr := t[1].(hcl.TraverseAttr); isAttr && a.Name == "key" {
				return false
			}
		}
		return !b.known
	}
	switch root {
	case "var":
		return c.child != ""
	case "count", "path", "terraform":
		return false
	case "local":
		if len(t) < 2 {
			return true
		}
		a, ok := t[1].(hcl.TraverseAttr)
		return !ok || c.localMayBeUnknown(a.Name)
	}
	return true
}

// localMayBeUnknown is mayBeUnknown for a local value's expression, which
// is read in no scope of the declaration being converted. A cycle adds
// nothing; an undeclared local is reported where it is read.
func (c *converter) localMayBeUnknown(name string) bool {
	return perLocal(c, c.localsUnknown, name, false, func(x hcl.Expression) bool {
		e, ok := x.(hclsyntax.Expression)
		if !ok {
			return true
		}
		scopes := c.scopes
		c.scopes = nil
		defer func() { c.scopes = scopes }()
		return c.mayBeUnknown(e)
	})
}

// knownIn is the known flag of the bindings of an iteration over src: its
// keys and values are known where src is.
func (c *converter) knownIn(src hcl.Expression) bool {
	e, ok := src.(hclsyntax.Expression)
	return ok && !c.mayBeUnknown(e)
}

// unknownScope is called before the template or call e is converted; the
// function it returns takes the conversion x and gives x, or the string
// not known yet where e waits for values not known yet (see above), and
// every caller calls it on each of its returns. A template or call inside
// one that gets the test needs none of its own: the outer test reads the
// same references, and the outer value is not known where the inner one
// is not.
func (c *converter) unknownScope(e hclsyntax.Expression) func(ast.Expr) ast.Expr {
	refs := c.unknownRefs(e)
	if refs == nil {
		return func(x ast.Expr) ast.Expr { return x }
	}
	c.inUnknown = true
	return func(x ast.Expr) ast.Expr {
		c.inUnknown = false
		if _, lit := x.(*ast.BasicLit); lit {
			return x
		}
		return binary(token.OR, x, c.lib("unknown", refs...))
	}
}

// unknownRefs is what tofu.#unknown reads for e: the references e reads,
// and its calls of timestamp or uuid (string); nil where e needs no test:
// inside another that has one, where it reads no value that may be
// unknown, and where one of its references is known to be a list or a
// map, for which tofu.#unknown would be an error.
func (c *converter) unknownRefs(e hclsyntax.Expression) []ast.Expr {
	if c.inUnknown || !c.mayBeUnknown(e) {
		return nil
	}
	var refs []ast.Expr
	collection := false
	seen := map[string]bool{}
	diags, reasons := len(c.diags), len(c.reasons)
	for _, t := range hclsyntax.Variables(e) {
		text := traversalText(t)
		if seen[text] {
			continue
		}
		seen[text] = true
		ref, k := c.expr(&hclsyntax.ScopeTraversalExpr{Traversal: t, SrcRange: t.SourceRange()})
		collection = collection || k == kindList || k == kindMap
		refs = append(refs, ref)
	}
	for _, f := range atPlanCalls(e) {
		ref, _ := c.expr(f)
		refs = append(refs, ref)
	}
	// The references are converted with e too, which reports whatever
	// they have to report.
	c.diags, c.reasons = c.diags[:diags], c.reasons[:reasons]
	if collection {
		return nil
	}
	return refs
}
