package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Middleware is a middleware block, as the middleware RFC designs it: an
// external program that OpenTofu talks to over JSON-RPC at plan and apply
// time. The loader only decodes it; nothing here runs it.
type Middleware struct {
	declBase
	Name string
	// Command is the program to run; Args its arguments; Env extra
	// environment variables. They may refer to variables and locals, so
	// they are kept as expressions.
	Command hcl.Expression
	Args    hcl.Expression
	Env     hcl.Expression
	// MetadataKey names where the middleware's metadata is stored.
	MetadataKey   string
	SendSensitive bool
}

var middlewareSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command", Required: true},
		{Name: "args"},
		{Name: "env"},
		{Name: "metadata_key"},
		{Name: "send_sensitive"},
	},
}

// decodeMiddleware decodes a middleware block. Its diagnostics are marked
// with KindMiddlewareBlock: the rule middleware_block reports them. (The
// block's name is checked with the other feature blocks' names.)
func (d *decoder) decodeMiddleware(block *hcl.Block) *Middleware {
	sub := &decoder{path: d.path, override: d.override, opts: d.opts}
	m := &Middleware{declBase: baseOf(block), Name: block.Labels[0]}
	content := sub.content(block.Body, middlewareSchema)
	suggestMiddlewareArguments(block.Body, sub.diags)
	if attr, ok := content.Attributes["command"]; ok {
		m.Command = attr.Expr
		sub.checkConstantType(attr, cty.String)
	}
	if attr, ok := content.Attributes["args"]; ok {
		m.Args = attr.Expr
		sub.checkConstantType(attr, cty.List(cty.String))
	}
	if attr, ok := content.Attributes["env"]; ok {
		m.Env = attr.Expr
		sub.checkConstantType(attr, cty.Map(cty.String))
	}
	if attr, ok := content.Attributes["metadata_key"]; ok {
		sub.decodeValue(attr, &m.MetadataKey)
	}
	if attr, ok := content.Attributes["send_sensitive"]; ok {
		sub.decodeValue(attr, &m.SendSensitive)
	}
	d.reportKind(KindMiddlewareBlock, sub.diags...)
	return m
}

// middlewareArgumentAliases are the names that a middleware block's
// arguments are likely to be mistaken for, beyond the small typos that
// hcl's own suggestion catches. middleware_key is the RFC's own slip.
var middlewareArgumentAliases = map[string]string{
	"middleware_key": "metadata_key",
	"metadata":       "metadata_key",
	"key":            "metadata_key",
	"cmd":            "command",
	"arguments":      "args",
	"argv":           "args",
	"environment":    "env",
	"sensitive":      "send_sensitive",
}

// suggestMiddlewareArguments adds a suggestion to hcl's "Unsupported
// argument" diagnostics in a middleware block, where hcl has none and the
// argument is a known mistake.
func suggestMiddlewareArguments(body hcl.Body, diags hcl.Diagnostics) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return
	}
	for _, diag := range diags {
		if diag.Summary != "Unsupported argument" || diag.Subject == nil || strings.Contains(diag.Detail, "Did you mean") {
			continue
		}
		for name, attr := range sb.Attributes {
			if attr.NameRange != *diag.Subject {
				continue
			}
			if want, ok := middlewareArgumentAliases[name]; ok {
				diag.Detail = fmt.Sprintf("An argument named %q is not expected here. Did you mean %q?", name, want)
			}
		}
	}
}

// checkConstantType reports an argument whose value, where it can be known
// without evaluation, cannot convert to ty. A list or map constructor whose
// elements are partly references has its constant elements checked one by
// one against the element type.
func (d *decoder) checkConstantType(attr *hcl.Attribute, ty cty.Type) {
	if len(attr.Expr.Variables()) == 0 {
		d.checkConstantValue(fmt.Sprintf("attribute %q", attr.Name), attr.Expr, ty)
		return
	}
	what := fmt.Sprintf("an element of attribute %q", attr.Name)
	switch {
	case ty.IsListType():
		if exprs, diags := hcl.ExprList(attr.Expr); !diags.HasErrors() {
			for _, e := range exprs {
				d.checkConstantValue(what, e, ty.ElementType())
			}
		}
	case ty.IsMapType():
		if pairs, diags := hcl.ExprMap(attr.Expr); !diags.HasErrors() {
			for _, p := range pairs {
				d.checkConstantValue(what, p.Value, ty.ElementType())
			}
		}
	}
}

// checkConstantValue reports an expression that refers to nothing and
// whose value cannot convert to ty; what names it in the message.
func (d *decoder) checkConstantValue(what string, expr hcl.Expression, ty cty.Type) {
	if len(expr.Variables()) > 0 {
		return
	}
	val, diags := expr.Value(nil)
	if diags.HasErrors() || !val.IsWhollyKnown() {
		return
	}
	if _, err := convert.Convert(val, ty); err != nil {
		d.errorf(expr.Range(), "Incorrect attribute value type", "Inappropriate value for %s: %s.", what, describeConversionError(err))
	}
}

// Reference is a traversal written as a list element, such as
// middleware.name, with its range.
type Reference struct {
	Traversal hcl.Traversal
	Range     hcl.Range
}

// decodeMiddlewareRefs reads middleware = [middleware.a, middleware.b].
// Its diagnostics are marked with KindMiddlewareReference: the rule
// middleware_reference reports them.
func (d *decoder) decodeMiddlewareRefs(attr *hcl.Attribute) []Reference {
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		d.reportKind(KindMiddlewareReference, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid middleware list",
			Detail:   "The middleware argument must be a list of references to middleware blocks, written out in brackets, such as [middleware.name].",
			Subject:  attr.Expr.Range().Ptr(),
		})
		return nil
	}
	var out []Reference
	for _, e := range exprs {
		tr, tdiags := hcl.AbsTraversalForExpr(e)
		if tdiags.HasErrors() {
			d.reportKind(KindMiddlewareReference, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid middleware reference",
				Detail:   "Each element of middleware must be a reference to a middleware block, such as middleware.name.",
				Subject:  e.Range().Ptr(),
			})
			continue
		}
		out = append(out, Reference{Traversal: tr, Range: e.Range()})
	}
	return out
}
