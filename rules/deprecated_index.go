package rules

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// DeprecatedIndex is the rule deprecated_index.
var DeprecatedIndex = &Rule{
	Name:   "deprecated_index",
	TFLint: "terraform_deprecated_index",
	Doc: `Reports the index and splat forms that the language keeps from
OpenTofu 0.11: a number written as an attribute (aws_instance.web.0.id for
aws_instance.web[0].id) and the attribute-only splat .* (for [*]), in every
expression, templates included. The fix writes [0] and [*]. The two splats
differ when an index follows the splat's attributes: a.*.b[0] is the first
b of the list, where a[*].b[0] is the first element of every b; there the
fix also puts the splat in parentheses, (a[*].b)[0], which keeps the
meaning, except inside another splat, where no fix is offered. A legacy
index inside a .* splat (a.*.b.0) is fixed with its splat, in one fix, since
[0] alone would end the splat. JSON files are not checked.

Bad:

    output "first_id" { value = aws_instance.web.0.id }
    output "ids" { value = aws_instance.web.*.id }

Good:

    output "first_id" { value = aws_instance.web[0].id }
    output "ids" { value = aws_instance.web[*].id }`,
	Severity: Warning,
	Enabled:  true,
	Fixes:    true,
	Check: func(p *Pass) {
		inSplat := map[rangeKey]bool{} // legacy indexes that a splat's finding covers
		walkSyntax(p.Module, func(src []byte, n hclsyntax.Node, parents []hclsyntax.Node) {
			switch e := n.(type) {
			case *hclsyntax.SplatExpr:
				if isAttrSplat(src, e) {
					reportAttrSplat(p, src, e, parents, inSplat)
				}
			case *hclsyntax.ScopeTraversalExpr:
				reportLegacyIndexes(p, src, e.Traversal, inSplat)
			case *hclsyntax.RelativeTraversalExpr:
				reportLegacyIndexes(p, src, e.Traversal, inSplat)
			}
		})
	},
}

// legacyIndex returns the index step's key as written, when the step is
// written .N rather than [N].
func legacyIndex(src []byte, step hcl.Traverser) (string, hcl.Range, bool) {
	idx, ok := step.(hcl.TraverseIndex)
	if !ok || !idx.Key.IsKnown() || idx.Key.IsNull() {
		return "", hcl.Range{}, false
	}
	s := srcText(src, idx.SrcRange)
	num, ok := strings.CutPrefix(s, ".")
	num = strings.TrimSpace(num)
	if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
		return "", hcl.Range{}, false
	}
	return num, idx.SrcRange, true
}

func reportLegacyIndexes(p *Pass, src []byte, t hcl.Traversal, inSplat map[rangeKey]bool) {
	for _, step := range t {
		num, rng, ok := legacyIndex(src, step)
		if !ok || inSplat[keyOf(rng)] {
			continue
		}
		p.Report(Finding{
			Message: fmt.Sprintf("Legacy index syntax .%s", num),
			Detail:  fmt.Sprintf("A number written as an attribute is an index kept from OpenTofu 0.11's language. Write [%s]; it means the same.", num),
			Range:   rng,
			Fix: &Fix{
				Description: fmt.Sprintf("Replace .%s with [%s]", num, num),
				Edits:       []Edit{{Range: rng, NewText: "[" + num + "]"}},
			},
		})
	}
}

func isAttrSplat(src []byte, e *hclsyntax.SplatExpr) bool {
	return strings.HasPrefix(srcText(src, e.MarkerRange), ".")
}

func reportAttrSplat(p *Pass, src []byte, e *hclsyntax.SplatExpr, parents []hclsyntax.Node, inSplat map[rangeKey]bool) {
	file := e.MarkerRange.Filename
	edits := []Edit{{Range: e.MarkerRange, NewText: "[*]"}}
	desc := "Replace .* with [*]"
	// The steps of the splat, after .*: legacy indexes among them go with it.
	if each, ok := e.Each.(*hclsyntax.RelativeTraversalExpr); ok {
		for _, step := range each.Traversal {
			if num, rng, ok := legacyIndex(src, step); ok {
				inSplat[keyOf(rng)] = true
				edits = append(edits, Edit{Range: rng, NewText: "[" + num + "]"})
				desc += fmt.Sprintf(" and .%s with [%s]", num, num)
			}
		}
	}
	detail := "The attribute-only splat .* is kept from OpenTofu 0.11's language; [*] is the splat of the current language."
	fix := &Fix{Description: desc, Edits: edits}
	if followedByStep(e, parents) {
		if insideSplat(e) {
			detail += " Here steps follow the splat's attributes: .* applies them to the whole list it makes, where [*] would apply them to each element. This splat is inside another one, so it cannot be put in parentheses; rewrite it by hand."
			fix = nil
		} else {
			detail += " Here steps follow the splat's attributes: .* applies them to the whole list it makes, where [*] would apply them to each element, so the fix also puts the splat in parentheses, which keeps the meaning."
			fix.Description += " and parenthesize the splat"
			fix.Edits = append(fix.Edits,
				Edit{Range: insertionAt(file, e.SrcRange.Start), NewText: "("},
				Edit{Range: insertionAt(file, e.SrcRange.End), NewText: ")"})
		}
	}
	p.Report(Finding{
		Message: "Legacy attribute-only splat .*",
		Detail:  detail,
		Range:   e.MarkerRange,
		Fix:     fix,
	})
}

// followedByStep reports whether a traversal step, an index or another
// splat applies to the result of a splat: the steps that [*] would take
// into each element instead.
func followedByStep(e *hclsyntax.SplatExpr, parents []hclsyntax.Node) bool {
	if len(parents) == 0 {
		return false
	}
	switch parent := parents[len(parents)-1].(type) {
	case *hclsyntax.RelativeTraversalExpr:
		return parent.Source == e
	case *hclsyntax.IndexExpr:
		return parent.Collection == e
	case *hclsyntax.SplatExpr:
		return parent.Source == e
	}
	return false
}

// insideSplat reports whether a splat's source starts from the element of
// an enclosing splat (a[*].b.*.c): its text does not start an expression,
// so it cannot be put in parentheses.
func insideSplat(e *hclsyntax.SplatExpr) bool {
	x := e.Source
	for {
		switch s := x.(type) {
		case *hclsyntax.RelativeTraversalExpr:
			x = s.Source
		case *hclsyntax.IndexExpr:
			x = s.Collection
		case *hclsyntax.SplatExpr:
			x = s.Source
		case *hclsyntax.AnonSymbolExpr:
			return true
		default:
			return false
		}
	}
}
