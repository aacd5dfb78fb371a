package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Local is one local value.
type Local struct {
	Name      string
	Expr      hcl.Expression
	NameRange hcl.Range
	// Range covers the whole "name = expr" definition.
	Range hcl.Range
}

// DeclRange implements [Declaration].
func (l *Local) DeclRange() hcl.Range { return l.NameRange }

func (d *decoder) decodeLocals(block *hcl.Block) []*Local {
	attrs, diags := block.Body.JustAttributes()
	d.report(diags...)
	var out []*Local
	for _, attr := range attrs {
		d.checkName(attr.Name, attr.NameRange, "Invalid local value name")
		out = append(out, &Local{Name: attr.Name, Expr: attr.Expr, NameRange: attr.NameRange, Range: attr.Range})
	}
	return out
}

// Output is an output value declaration.
type Output struct {
	declBase
	Name          string
	Description   string
	Expr          hcl.Expression
	DependsOn     []hcl.Traversal
	Sensitive     bool
	Ephemeral     bool
	Deprecated    string
	Preconditions []*CheckRule

	sensitiveSet, ephemeralSet, descriptionSet bool
}

var outputSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "value", Required: true},
		{Name: "depends_on"},
		{Name: "sensitive"},
		{Name: "ephemeral"},
		{Name: "deprecated"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "precondition"},
		{Type: "postcondition"},
	},
}

func (d *decoder) decodeOutput(block *hcl.Block) *Output {
	o := &Output{declBase: baseOf(block), Name: block.Labels[0]}
	content := d.content(block.Body, outputSchema)

	d.checkName(o.Name, block.LabelRanges[0], "Invalid output name")
	if attr, ok := content.Attributes["description"]; ok {
		o.descriptionSet = d.decodeValue(attr, &o.Description)
	}
	if attr, ok := content.Attributes["value"]; ok {
		o.Expr = attr.Expr
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		o.sensitiveSet = d.decodeValue(attr, &o.Sensitive)
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		o.ephemeralSet = d.decodeValue(attr, &o.Ephemeral)
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		if d.decodeValue(attr, &o.Deprecated) && strings.TrimSpace(o.Deprecated) == "" {
			d.errorf(attr.Expr.Range(), "Invalid `deprecated` attribute",
				`The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value.`)
		}
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		o.DependsOn = d.decodeDependsOn(attr)
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "precondition":
			if r := d.decodeCheckRule(b, "precondition"); r != nil {
				o.Preconditions = append(o.Preconditions, r)
			}
		case "postcondition":
			d.errorf(b.TypeRange, "Postconditions are not allowed", "Output values can only have preconditions, not postconditions.")
		}
	}
	return o
}

// decodeDependsOn reads a depends_on list of references, each a whole
// object (a resource, data source, module call...) without instance keys or
// attributes beyond the object's address.
func (d *decoder) decodeDependsOn(attr *hcl.Attribute) []hcl.Traversal {
	exprs, diags := hcl.ExprList(attr.Expr)
	d.report(diags...)
	var out []hcl.Traversal
	for _, e := range exprs {
		e = d.unquoteReference(e)
		tr, tdiags := hcl.AbsTraversalForExpr(e)
		d.report(tdiags...)
		if !tdiags.HasErrors() {
			out = append(out, tr)
		}
	}
	return out
}
