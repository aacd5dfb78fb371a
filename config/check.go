package config

import (
	"github.com/hashicorp/hcl/v2"
)

// Check is a check block: assertions that report warnings, with at most one
// scoped data source.
type Check struct {
	declBase
	Name       string
	DataSource *Resource
	Asserts    []*CheckRule
}

var checkSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "assert"},
	},
}

func (d *decoder) decodeCheck(block *hcl.Block) *Check {
	c := &Check{declBase: baseOf(block), Name: block.Labels[0]}
	if d.override {
		d.errorf(block.DefRange, "Can't override check blocks", "Override files cannot override check blocks.")
		return c
	}
	d.checkName(c.Name, block.LabelRanges[0], "Invalid check block name")
	content := d.content(block.Body, checkSchema)
	for _, b := range content.Blocks {
		switch b.Type {
		case "data":
			if c.DataSource != nil {
				d.errorf(b.DefRange, "Multiple data resource blocks", "This check block already has a data resource defined at %s.", c.DataSource.DeclRange())
				continue
			}
			c.DataSource = d.decodeResource(b, DataMode)
		case "assert":
			if r := d.decodeCheckRule(b, "assert"); r != nil {
				c.Asserts = append(c.Asserts, r)
			}
		}
	}
	if len(c.Asserts) == 0 {
		d.errorf(block.DefRange, "Zero assert blocks", "Check blocks must have at least one assert block.")
	}
	return c
}
