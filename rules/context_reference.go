package rules

import "github.com/tofucue/tofucue/refs"

// ContextReference is the rule context_reference.
var ContextReference = &Rule{
	Name: "context_reference",
	Doc: `Reports each, count.index and self where their place does not give
them, which tofu validate rejects: each outside a block that sets
for_each (a resource, a data source, a module call, a provider, an
import), count.index outside one that sets count, and self outside a
resource's postconditions, provisioners and connection blocks. A dynamic
block's iterator is named after the block (or its iterator argument), not
each: each.value inside one refers to the resource's for_each.

Bad:

    resource "aws_instance" "web" {
      ami  = var.ami
      tags = { Name = each.key }
    }

Good:

    resource "aws_instance" "web" {
      for_each = var.names
      ami      = var.ami
      tags     = { Name = each.key }
    }`,
	Severity: Error,
	Enabled:  true,
	Check: func(p *Pass) {
		for _, u := range p.References {
			if d := refs.CheckContext(u); d != nil {
				p.ReportDiagnostic(d, nil)
			}
		}
	},
}
