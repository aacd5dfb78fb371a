package rules

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// DeprecatedInterpolation is the rule deprecated_interpolation.
var DeprecatedInterpolation = &Rule{
	Name:   "deprecated_interpolation",
	TFLint: "terraform_deprecated_interpolation",
	Doc: `Reports a quoted template that holds one interpolation and nothing
else, such as "${var.name}": the only way to write an expression in
OpenTofu 0.11, and noise since 0.12. Such a template does not convert its
value to a string: the language passes the interpolated value through
unchanged (hcl's template wrap), so a list stays a list, and the
expression written alone means the same. The fix removes the quotes and the
${ } and keeps the expression's text as it is; it adds parentheses where the
expression's operators would otherwise bind to its neighbors, and where the
template is an object key (a bare name there is a literal key). There is no
fix when the interpolation holds a template directive or a heredoc, or when
a comment sits between the quotes and the expression. JSON files are not
checked: there every expression is written this way.

Bad:

    resource "aws_instance" "web" {
      ami  = "${var.ami}"
      tags = "${merge(local.tags, var.tags)}"
    }

Good:

    resource "aws_instance" "web" {
      ami  = var.ami
      tags = merge(local.tags, var.tags)
    }`,
	Severity: Warning,
	Enabled:  true,
	Fixes:    true,
	Check: func(p *Pass) {
		walkSyntax(p.Module, func(src []byte, n hclsyntax.Node, parents []hclsyntax.Node) {
			if w, ok := n.(*hclsyntax.TemplateWrapExpr); ok {
				reportInterpolation(p, src, w, parents)
			}
		})
	},
}

func reportInterpolation(p *Pass, src []byte, w *hclsyntax.TemplateWrapExpr, parents []hclsyntax.Node) {
	whole := w.SrcRange
	if !strings.HasPrefix(srcText(src, whole), `"`) {
		return // not a quoted template: the syntax makes no other kind of wrap
	}
	inner := w.Wrapped
	for {
		next, ok := inner.(*hclsyntax.TemplateWrapExpr)
		if !ok {
			break
		}
		inner = next.Wrapped
	}
	exprRange := w.Wrapped.Range()
	f := Finding{
		Message: "Interpolation-only template is deprecated",
		Detail: fmt.Sprintf("This template holds only the interpolation of %s. Write the expression without the quotes and ${ }: a template made of one interpolation gives the interpolated value unchanged, so the two mean the same.",
			shortSource(srcText(src, exprRange))),
		Range: whole,
	}
	open := hcl.Range{Filename: whole.Filename, Start: whole.Start, End: exprRange.Start}
	closing := hcl.Range{Filename: whole.Filename, Start: exprRange.End, End: whole.End}
	switch {
	case !fixableDelimiters(srcText(src, open), srcText(src, closing)):
		f.Detail += " There is no automatic fix here: something other than spaces, such as a comment, sits between the delimiters and the expression."
	case holdsTemplate(src, w.Wrapped):
		f.Detail += " There is no automatic fix here: the interpolation holds a template directive or a heredoc."
	default:
		openText, closeText := "", ""
		if needsParens(src, inner, parents) {
			openText, closeText = "(", ")"
		}
		desc := "Remove the quotes and ${ }"
		if openText != "" {
			desc = "Replace the quotes and ${ } with parentheses"
		}
		f.Fix = &Fix{Description: desc, Edits: []Edit{
			{Range: open, NewText: openText},
			{Range: closing, NewText: closeText},
		}}
	}
	p.Report(f)
}

// fixableDelimiters reports whether the text before and after the wrapped
// expression is only the template's delimiters, strip markers and spaces:
// nothing that removing them would lose, such as a comment.
func fixableDelimiters(open, closing string) bool {
	rest, ok := strings.CutPrefix(open, `"${`)
	if !ok || strings.Trim(rest, "~ \t") != "" {
		return false
	}
	rest, ok = strings.CutSuffix(closing, `}"`)
	return ok && strings.Trim(rest, "~ \t") == ""
}

// holdsTemplate reports whether an expression contains a template with a
// directive (%{if}, %{for}) or a heredoc.
func holdsTemplate(src []byte, e hclsyntax.Expression) bool {
	found := false
	_ = hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics { // the visitor reports nothing
		switch t := n.(type) {
		case *hclsyntax.TemplateJoinExpr:
			found = true
		case *hclsyntax.TemplateExpr:
			s := srcText(src, t.SrcRange)
			if strings.HasPrefix(s, "<<") || strings.Contains(strings.ReplaceAll(s, "%%{", ""), "%{") {
				found = true
			}
		}
		return nil
	})
	return found
}

// needsParens reports whether the expression that replaces a template
// needs parentheses to keep its meaning where the template stands. Only the
// outermost of nested interpolation-only templates adds them.
func needsParens(src []byte, inner hclsyntax.Expression, parents []hclsyntax.Node) bool {
	if len(parents) == 0 {
		return false
	}
	switch parents[len(parents)-1].(type) {
	case *hclsyntax.TemplateWrapExpr:
		return false // the outermost template of the chain decides
	case *hclsyntax.ObjectConsKeyExpr:
		return true // a bare name there would be a literal key
	case *hclsyntax.Attribute, *hclsyntax.TupleConsExpr, *hclsyntax.FunctionCallExpr,
		*hclsyntax.ParenthesesExpr, *hclsyntax.TemplateExpr, *hclsyntax.ObjectConsExpr:
		return false // a place for a whole expression
	}
	return !selfDelimited(src, inner)
}

// selfDelimited reports whether an expression reads as one term wherever it
// is put: no operator of it can bind to what surrounds it.
func selfDelimited(src []byte, e hclsyntax.Expression) bool {
	switch e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return !strings.HasPrefix(srcText(src, e.Range()), "-")
	case *hclsyntax.ScopeTraversalExpr, *hclsyntax.RelativeTraversalExpr, *hclsyntax.FunctionCallExpr,
		*hclsyntax.TupleConsExpr, *hclsyntax.ObjectConsExpr, *hclsyntax.ForExpr, *hclsyntax.IndexExpr,
		*hclsyntax.SplatExpr, *hclsyntax.ParenthesesExpr, *hclsyntax.TemplateExpr, *hclsyntax.TemplateWrapExpr:
		return true
	}
	return false
}

// shortSource returns source text for a message: on one line, and elided when
// it is long.
func shortSource(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}
