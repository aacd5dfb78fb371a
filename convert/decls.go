package convert

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
)

// block converts one top-level block to the declarations it becomes.
func (c *converter) block(b *hclsyntax.Block) []ast.Decl {
	lead := c.comments.before(b.TypeRange.Start.Byte)
	var decls []ast.Decl
	switch b.Type {
	case "variable":
		decls = c.variable(b)
	case "locals":
		decls = c.locals(b, lead)
		lead = nil
	case "output":
		decls = c.output(b)
	case "resource", "data", "ephemeral":
		decls = c.resource(b)
	case "module":
		decls = c.moduleCall(b)
	case "provider":
		decls = c.provider(b)
	case "terraform":
		decls = c.terraform(b)
	case "check":
		decls = c.check(b)
	case "moved", "import", "removed":
		decls = c.refactor(b)
	case "middleware":
		decls = c.middleware(b)
	default:
		c.unconverted(b.DefRange(), fmt.Sprintf("%s block not converted", b.Type),
			fmt.Sprintf("hcl2cue does not convert %s blocks.", b.Type))
	}
	if len(decls) > 0 {
		docComment(innermost(decls[0]), lead)
		if rest := c.comments.within(b.Range()); len(rest) > 0 {
			docComment(innermost(decls[len(decls)-1]), append([]string{"(comments from inside the block:)"}, rest...))
		}
	} else if len(lead) > 0 {
		decls = append(decls, commentDecl(lead))
	}
	return decls
}

func commentDecl(lines []string) ast.Decl {
	cg := &ast.CommentGroup{}
	for _, l := range lines {
		cg.List = append(cg.List, &ast.Comment{Text: "//" + prefixSpace(l)})
	}
	return cg
}

// inputTag is the @tag attribute by which the stock cue tool sets a root
// module's input of a primitive type (cue export -t NAME=VALUE), nil for
// another input: one of another type is set by a file of the package
// (_var_NAME: VALUE), and a called module's by its calls. A name that is
// not a CUE identifier (OpenTofu allows dashes) gets no tag.
func (c *converter) inputTag(v *config.Variable) *ast.Attribute {
	if c.child != "" || !ast.IsValidIdent(v.Name) || strings.HasPrefix(v.Name, "#") || strings.HasPrefix(v.Name, "_") {
		return nil
	}
	switch v.Type {
	case cty.String:
		return attr(cueform.AttrTag, v.Name)
	case cty.Number:
		return attr(cueform.AttrTag, v.Name, "type=number")
	case cty.Bool:
		return attr(cueform.AttrTag, v.Name, "type=bool")
	}
	return nil
}

// variable: _var_NAME: schema @input(NAME, ...) in a root module, _var:
// NAME: in a called module's template. The description is the field's doc
// comment; validation blocks become constraints.
func (c *converter) variable(b *hclsyntax.Block) []ast.Decl {
	if len(b.Labels) != 1 {
		return nil
	}
	v := c.m.Variables[b.Labels[0]]
	if v == nil {
		return nil
	}
	value, validations := c.validations(v, c.inputSchema(v))
	if c.child != "" && v.Nullable && v.Type != cty.DynamicPseudoType && (v.Required() || !v.Default.IsNull()) {
		// A called module's nullable variable takes a null argument as
		// its value (see modules.go).
		if v.Required() {
			// *T | null: T stays the default, so that the template,
			// which no call instantiates, reads a value not known yet
			// rather than a choice that may be null.
			value = &ast.UnaryExpr{Op: token.MUL, X: paren(value)}
		}
		value = &ast.BinaryExpr{X: value, Op: token.OR, Y: ident("null")}
	}
	args := []string{attrString(v.Name)}
	if v.Sensitive {
		args = append(args, cueform.ArgSensitive)
	}
	if v.Ephemeral {
		args = append(args, "ephemeral")
	}
	if v.NullableSet && !v.Nullable {
		args = append(args, "nullable=false")
	}
	if v.Const {
		args = append(args, "const")
	}
	if v.Deprecated != "" {
		args = append(args, "deprecated="+attrString(v.Deprecated))
	}
	path := []string{varRoot, v.Name}
	if c.child == "" {
		id, ok := varIdent(v.Name)
		if !ok {
			c.unconverted(b.LabelRanges[0], "Variable not converted",
				fmt.Sprintf("The name %q has a character that a CUE identifier cannot hold.", v.Name))
			return validations
		}
		path = []string{id}
	}
	outer, inner := c.nested(path, value)
	inner.Attrs = []*ast.Attribute{attr(cueform.AttrInput, args...)}
	if tag := c.inputTag(v); tag != nil {
		inner.Attrs = append(inner.Attrs, tag)
	}
	if v.Description != "" {
		docComment(inner, strings.Split(v.Description, "\n"))
	}
	return append([]ast.Decl{outer}, validations...)
}

// locals: each local value is a hidden field of its own (see localIdent).
func (c *converter) locals(b *hclsyntax.Block, lead []string) []ast.Decl {
	var decls []ast.Decl
	for i, a := range sortedAttrs(b.Body) {
		doc := c.comments.before(a.SrcRange.Start.Byte)
		if i == 0 {
			doc = append(lead, doc...)
		}
		id, ok := localIdent(a.Name)
		if !ok {
			c.unconverted(a.NameRange, "Local value not converted",
				fmt.Sprintf("The name %q has a character that a CUE identifier cannot hold.", a.Name))
			continue
		}
		x, _ := c.expr(a.Expr)
		c.markIfPure(a.Expr, x)
		outer, inner := c.nested([]string{id}, x)
		docComment(inner, doc)
		if text, ok := c.comments.lineEnd(a.SrcRange.End.Line, a.SrcRange.End.Byte); ok {
			lineComment(inner, text)
		}
		decls = append(decls, outer)
	}
	return decls
}

// output: output: NAME: value @output(NAME, ...).
func (c *converter) output(b *hclsyntax.Block) []ast.Decl {
	if len(b.Labels) != 1 {
		return nil
	}
	o := c.m.Outputs[b.Labels[0]]
	if o == nil {
		return nil
	}
	var x ast.Expr
	if name, ok := c.a.sensitiveOutput(o); ok {
		x = c.refused(o.Expr.Range(), "Output refers to sensitive values",
			fmt.Sprintf("The value of this root module output is computed from var.%s, which is sensitive; OpenTofu requires the output to say sensitive = true.", name))
	} else {
		x, _ = c.expr(o.Expr)
		c.markIfPure(o.Expr, x)
		if call, ok := tryCall(o.Expr); ok && !c.a.called && len(call.Args) == 2 && !c.readsSoftNull(call.Args[0]) {
			x = outputTry(x)
		}
		if !c.a.called {
			x = withoutEmptyEmbed(x)
		}
	}
	args := []string{attrString(o.Name)}
	if o.Sensitive {
		args = append(args, cueform.ArgSensitive)
	}
	if o.Ephemeral {
		args = append(args, "ephemeral")
	}
	if len(o.DependsOn) > 0 {
		args = append(args, cueform.Arg(cueform.ArgDependsOn, traversalList(o.DependsOn)))
	}
	if o.Deprecated != "" {
		args = append(args, "deprecated="+attrString(o.Deprecated))
	}
	outer, inner := c.nested([]string{outputRoot, o.Name}, x)
	inner.Attrs = []*ast.Attribute{attr(cueform.AttrOutput, args...)}
	if o.Description != "" {
		docComment(inner, strings.Split(o.Description, "\n"))
	}
	decls := []ast.Decl{outer}
	for i, pc := range o.Preconditions {
		decls = append(decls, c.checkRule([]string{checkRoot, "output." + o.Name, fmt.Sprintf("precondition_%d", i)}, pc, true))
	}
	return decls
}

// checkRule converts a validation, precondition or assertion. An enforced
// rule must hold: its condition is unified with true, so a false condition
// is a CUE error, with the rule's message beside it. An assertion of a
// check block only warns in OpenTofu, so it is kept as a value.
//
// pre are declarations put first in the rule's struct, such as the let
// that binds self.
func (c *converter) checkRule(path []string, r *config.CheckRule, enforced bool, pre ...ast.Decl) ast.Decl {
	cond, _ := c.expr(r.Condition)
	if enforced {
		cond = binary(tokenAND, ast.NewBool(true), cond)
	}
	s := &ast.StructLit{Elts: append(pre, field(ident("condition"), cond))}
	if r.ErrorMessage != nil {
		msg, _ := c.expr(r.ErrorMessage)
		s.Elts = append(s.Elts, field(ident("error_message"), msg))
	}
	outer, _ := c.nested(path, s)
	return outer
}

// traversalList writes traversals as OpenTofu source, comma-separated.
func traversalList(ts []hcl.Traversal) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = traversalText(t)
	}
	return strings.Join(parts, ",")
}

// sourceText is the source of a range in its file.
func (c *converter) sourceText(rng hcl.Range) string {
	return strings.TrimSpace(string(rng.SliceBytes(c.src(rng.Filename))))
}

// src is the bytes of a module file or of a template being converted.
func (c *converter) src(filename string) []byte {
	if f := c.m.Files[filename]; f != nil {
		return f.Bytes
	}
	return c.templateSrc[filename]
}
