package config

import (
	"github.com/hashicorp/hcl/v2"
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

func (d *decoder) decodeMiddleware(block *hcl.Block) *Middleware {
	m := &Middleware{declBase: baseOf(block), Name: block.Labels[0]}
	d.checkName(m.Name, block.LabelRanges[0], "Invalid middleware name")
	content := d.content(block.Body, middlewareSchema)
	if attr, ok := content.Attributes["command"]; ok {
		m.Command = attr.Expr
		d.checkConstantType(attr, cty.String)
	}
	if attr, ok := content.Attributes["args"]; ok {
		m.Args = attr.Expr
		d.checkConstantType(attr, cty.List(cty.String))
	}
	if attr, ok := content.Attributes["env"]; ok {
		m.Env = attr.Expr
		d.checkConstantType(attr, cty.Map(cty.String))
	}
	if attr, ok := content.Attributes["metadata_key"]; ok {
		d.decodeValue(attr, &m.MetadataKey)
	}
	if attr, ok := content.Attributes["send_sensitive"]; ok {
		d.decodeValue(attr, &m.SendSensitive)
	}
	return m
}

// checkConstantType reports an argument whose value, where it can be known
// without evaluation, cannot convert to ty.
func (d *decoder) checkConstantType(attr *hcl.Attribute, ty cty.Type) {
	if len(attr.Expr.Variables()) > 0 {
		return
	}
	val, diags := attr.Expr.Value(nil)
	if diags.HasErrors() || !val.IsWhollyKnown() {
		return
	}
	if _, err := convert.Convert(val, ty); err != nil {
		d.errorf(attr.Expr.Range(), "Incorrect attribute value type", "Inappropriate value for attribute %q: %s.", attr.Name, describeConversionError(err))
	}
}

// Reference is a traversal written as a list element, such as
// middleware.name, with its range.
type Reference struct {
	Traversal hcl.Traversal
	Range     hcl.Range
}

// decodeMiddlewareRefs reads middleware = [middleware.a, middleware.b].
func (d *decoder) decodeMiddlewareRefs(attr *hcl.Attribute) []Reference {
	exprs, diags := hcl.ExprList(attr.Expr)
	d.report(diags...)
	var out []Reference
	for _, e := range exprs {
		tr, tdiags := hcl.AbsTraversalForExpr(e)
		if tdiags.HasErrors() {
			d.errorf(e.Range(), "Invalid middleware reference", "Each element of middleware must be a reference to a middleware block, such as middleware.name.")
			continue
		}
		out = append(out, Reference{Traversal: tr, Range: e.Range()})
	}
	return out
}
