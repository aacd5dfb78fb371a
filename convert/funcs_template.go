package convert

import (
	"fmt"
	"path/filepath"
	"unicode/utf8"

	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/internal/source"
)

// maxTemplateNesting is how deep templates that call templatefile are
// converted; OpenTofu allows a template to call itself, which CUE, without
// recursion, cannot express.
const maxTemplateNesting = 8

// convertExpr is (*converter).expr, called through a variable: the
// function registry refers to the template functions, which convert
// expressions, which call functions through the registry, a cycle Go does
// not allow in package initialization.
var convertExpr func(*converter, hcl.Expression) (ast.Expr, kind)

func init() { convertExpr = (*converter).expr }

// convTemplateFile converts templatefile(path, vars). With constant
// variables the call is worked out when converting. Otherwise, when the
// path is known then (a constant, or built from path.module and constant
// locals), the template is read, with the file functions' rules (only
// inside the module directory), and converted like an expression of the
// module with the variables as its only names (see renderTemplate).
func convTemplateFile(cl *call) ast.Expr {
	if x, done := cl.fileFold(2, 2); done {
		return x
	}
	rel, diags, ok := cl.c.constPath(cl.src[0])
	if diags.HasErrors() {
		return cl.fail("OpenTofu reports an error for this call: " + diags[0].Detail)
	}
	if !ok {
		return convTemplateAtPlan(cl)
	}
	envs, _ := cl.c.constEnvs()
	content, err := envs[0].funcs["file"].Call([]cty.Value{cty.StringVal(rel)})
	if err != nil {
		return cl.fail("OpenTofu reports an error for this call: " + err.Error())
	}
	name := filepath.Join(cl.c.m.Dir, rel)
	for _, open := range cl.c.templates {
		if open == name {
			return cl.fail(fmt.Sprintf("The template %s calls itself through templatefile; CUE has no recursion.", rel))
		}
	}
	return cl.renderTemplate([]byte(content.AsString()), name)
}

// convTemplateString converts templatestring(template, vars): worked out
// when converting for constant arguments, and otherwise converted as
// templatefile's template is when the template itself is known then. A
// template known only when evaluating goes to tofu.#templatestring, which
// evaluates the templates made of references, with a warning.
func convTemplateString(cl *call) ast.Expr {
	if !cl.arity(2, 2) {
		return cl.fail(arityDetail(cl.name, 2, 2))
	}
	if x, _, err, ok := cl.fold(); ok {
		return x
	} else if err != "" {
		return cl.fail("OpenTofu reports an error for this call: " + err)
	}
	s, diags, ok := cl.c.constString(cl.src[0])
	if diags.HasErrors() {
		return cl.fail("OpenTofu reports an error for this call: " + diags[0].Detail)
	}
	if ok {
		return cl.renderTemplate([]byte(s), "templatestring")
	}
	// The template is known only when evaluating: tofu.#templatestring
	// reads the templates made of references to the variables, and fails
	// on others.
	cl.c.diags = append(cl.c.diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "templatestring evaluated in part",
		Detail:   "The template is known only when the module is evaluated. The CUE form evaluates templates whose interpolations are references to the variables (${name}, ${name.attr}, ${name[\"key\"]}), with the escapes $${ and %%{; a template with a function call, an operator or a %{ } directive fails there, where OpenTofu would evaluate it.",
		Subject:  cl.rng.Ptr(),
	})
	return cl.lib("templatestring", cl.strArg(0), cl.args[1])
}

// renderTemplate converts the source of a template, given to call cl,
// into CUE: the template becomes an expression, as a string template of
// the module does, in a scope where every name is an attribute of the
// variables (the call's second argument, bound by a let):
//
//	{
//		let tv = VARS
//		(tofu.#template & {#args: [tv, "Hello, \(tv.name)!"]}).out
//	}
//
// tofu.#template checks the variables as OpenTofu does (an object whose
// names are identifiers). A name the variables lack is an undefined field
// in CUE where OpenTofu reports a missing key.
func (cl *call) renderTemplate(src []byte, name string) ast.Expr {
	c := cl.c
	if !utf8.Valid(src) {
		return cl.fail(fmt.Sprintf("OpenTofu reports an error for this call: the template %s is not valid UTF-8.", name))
	}
	if len(c.templates) >= maxTemplateNesting {
		return cl.fail(fmt.Sprintf("Templates nest more than %d deep through templatefile.", maxTemplateNesting))
	}
	if d := source.CheckNesting(src, name, source.Template); d != nil {
		return cl.fail(d.Error())
	}
	expr, diags := hclsyntax.ParseTemplate(src, name, hcl.InitialPos)
	if diags.HasErrors() {
		return cl.fail("OpenTofu reports an error for this template: " + diags[0].Error())
	}
	if c.templateSrc == nil {
		c.templateSrc = map[string][]byte{}
	}
	c.templateSrc[name] = src
	tv := c.fresh("tv")
	c.templates = append(c.templates, name)
	c.scopes = append(c.scopes, scope{names: map[string]binding{}, templateVars: tv})
	x, _ := convertExpr(c, expr)
	c.pop()
	c.templates = c.templates[:len(c.templates)-1]
	return &ast.StructLit{Elts: []ast.Decl{
		&ast.LetClause{Ident: ident(tv), Expr: cl.args[1]},
		&ast.EmbedDecl{Expr: c.lib("template", ident(tv), x)},
	}}
}
