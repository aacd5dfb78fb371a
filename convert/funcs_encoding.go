package convert

import (
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"

	"github.com/tofucue/tofucue/cueform"
)

// nfcNote is the one deviation of the functions that decode text: OpenTofu
// normalizes every string to Unicode NFC, CUE keeps the bytes decoded.
const nfcNote = "; decoded text not in Unicode NFC (OpenTofu normalizes it) stays as decoded"

// encodingFuncs are OpenTofu's encoding functions.
var encodingFuncs = map[string]function{
	"base64encode": {how: byStdlib, note: "`base64.Encode(null, s)`", conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail(arityDetail(cl.name, 1, 1))
		}
		return cl.std("base64", "Encode", ast.NewNull(), cl.args[0])
	}},
	"base64decode": {how: byLibrary, note: "`tofu.#base64decode`: standard Base64 that must decode to UTF-8" + nfcNote,
		conv: fixedLibCall("base64decode", 1, 1)},
	"base64gzip": {how: byConversion, note: "worked out at conversion when its argument is a constant; otherwise not converted: CUE has no gzip",
		conv: func(cl *call) ast.Expr {
			return cl.foldOr("CUE has no gzip: base64gzip is converted only when its argument is a constant.")
		}},
	"base64gunzip": {how: byConversion, note: "worked out at conversion when its argument is a constant; otherwise not converted: CUE has no gzip",
		conv: func(cl *call) ast.Expr {
			return cl.foldOr("CUE has no gzip: base64gunzip is converted only when its argument is a constant.")
		}},
	"csvdecode": {how: byLibrary, note: "`tofu.#csvdecode`: `csv.Decode` with the header line's names as keys" + nfcNote,
		conv: fixedLibCall("csvdecode", 1, 1)},
	"jsondecode": {how: byStdlib, note: "`json.Unmarshal(s)`; a JSON object with a repeated key, which OpenTofu reads as its last value, is an error in CUE" + nfcNote,
		conv: func(cl *call) ast.Expr {
			if !cl.arity(1, 1) {
				return cl.fail(arityDetail(cl.name, 1, 1))
			}
			return cl.std("json", "Unmarshal", cl.args[0])
		}},
	"jsonencode": {how: byLibrary, note: "`tofu.#jsonencode`: keys sorted, < > & escaped, whole numbers without a fraction, as OpenTofu writes them; values may nest lists and objects 8 levels deep (a deeper one is an error); the encoding of a value not known yet is not known",
		conv: fixedLibCall("jsonencode", 1, 1)},
	"textencodebase64": {how: byStdlib, note: "`base64.Encode(null, s)` when the encoding is a constant naming UTF-8; other encodings only for constant arguments: CUE has no character sets",
		conv: func(cl *call) ast.Expr {
			if cl.arity(2, 2) && constantUTF8(cl) {
				return cl.std("base64", "Encode", ast.NewNull(), cl.args[0])
			}
			return cl.foldOr("textencodebase64 is converted only for a constant encoding naming UTF-8 or constant arguments: CUE has no other character sets.")
		}},
	"textdecodebase64": {how: byLibrary, note: "`tofu.#textdecodebase64UTF8` when the encoding is a constant naming UTF-8; other encodings only for constant arguments: CUE has no character sets" + nfcNote,
		conv: func(cl *call) ast.Expr {
			if cl.arity(2, 2) && constantUTF8(cl) {
				return cl.lib("textdecodebase64UTF8", cl.args[0])
			}
			return cl.foldOr("textdecodebase64 is converted only for a constant encoding naming UTF-8 or constant arguments: CUE has no other character sets.")
		}},
	"urlencode": {how: byStdlib, note: "`net.QueryEscape(s)`", conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail(arityDetail(cl.name, 1, 1))
		}
		return cl.std("net", "QueryEscape", cl.args[0])
	}},
	"urldecode": {how: byStdlib, note: "`net.QueryUnescape(s)`" + nfcNote, conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail(arityDetail(cl.name, 1, 1))
		}
		return cl.std("net", "QueryUnescape", cl.args[0])
	}},
	"yamldecode": {how: byConversion, note: "worked out at conversion when its argument is a constant (such as a file of the module); of a file whose path is known only when planning, the file as the converted module embeds it decoded (`_yamlfiles[p]`: by CUE where it decodes as OpenTofu does, checked when converting), also through local values, conditionals (each branch decoded) and pathexpand; otherwise not converted: CUE's YAML decoder differs from OpenTofu's in tags, timestamps and number forms", conv: func(cl *call) ast.Expr {
		if cl.arity(1, 1) {
			if x, ok := yamlOfFiles(cl); ok {
				return x
			}
		}
		return cl.foldOr("yamldecode is converted only when its argument is a constant, such as file(\"${path.module}/x.yaml\"): CUE's YAML decoder differs from OpenTofu's in tags, timestamps and number forms.")
	}},
	"yamlencode": {how: byConversion, note: "worked out at conversion when its argument is a constant; otherwise not converted: CUE's YAML encoder quotes and orders differently from OpenTofu's", conv: func(cl *call) ast.Expr {
		return cl.foldOr("yamlencode is converted only when its argument is a constant: CUE's YAML encoder quotes, orders and formats numbers differently from OpenTofu's.")
	}},
}

// constantUTF8 reports whether the second argument is a constant naming
// the UTF-8 encoding, by one of its IANA names or aliases.
func constantUTF8(cl *call) bool {
	v, diags := cl.src[1].Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return false
	}
	enc, err := ianaindex.IANA.Encoding(v.AsString())
	return err == nil && enc == unicode.UTF8
}

// maxYAMLDepth is how many local values and conditionals yamlOfFiles
// follows.
const maxYAMLDepth = 8

// yamlOfFiles converts yamldecode(x) where x is, through local values and
// the branches of conditionals, a file of the module read at plan time
// (file(p), also under pathexpand) or a constant: the file's entry in
// cueform.YAMLFiles, or the constant decoded when converting. A
// conditional becomes one of yamldecode calls,
//
//	yamldecode(c ? file(p) : "{}")  =>  c ? yamldecode(file(p)) : yamldecode("{}")
//
// which OpenTofu evaluates alike, since only the branch taken is decoded.
func yamlOfFiles(cl *call) (ast.Expr, bool) {
	c := cl.c
	if p, ok := fileTableRef(cl.args[0]); ok {
		if fc, ok := cl.src[0].(*hclsyntax.FunctionCallExpr); ok && fc.Name == "file" {
			// The embedded files decoded.
			return &ast.IndexExpr{X: c.fileTable(cueform.YAMLFiles, cl.rng), Index: p}, true
		}
	}
	if c.yamlDepth >= maxYAMLDepth {
		return nil, false
	}
	decode := func(e hclsyntax.Expression) hclsyntax.Expression {
		return &hclsyntax.FunctionCallExpr{Name: "yamldecode", Args: []hclsyntax.Expression{e}, NameRange: cl.rng, OpenParenRange: cl.rng, CloseParenRange: cl.rng}
	}
	var rewritten hclsyntax.Expression
	switch e := cl.src[0].(type) {
	case *hclsyntax.ParenthesesExpr:
		rewritten = decode(e.Expression)
	case *hclsyntax.ConditionalExpr:
		rewritten = &hclsyntax.ConditionalExpr{Condition: e.Condition, TrueResult: decode(e.TrueResult), FalseResult: decode(e.FalseResult), SrcRange: e.SrcRange}
	case *hclsyntax.ScopeTraversalExpr:
		name, ok := localName(e.Traversal)
		l := c.m.Locals[name]
		if !ok || l == nil {
			return nil, false
		}
		def, ok := l.Expr.(hclsyntax.Expression)
		if !ok {
			return nil, false
		}
		for _, t := range def.Variables() {
			if _, bound := c.lookup(t.RootName()); bound {
				return nil, false // a name here that is not the local's
			}
		}
		rewritten = decode(def)
	case *hclsyntax.FunctionCallExpr:
		// pathexpand leaves a text that does not start with ~ as it is.
		inner, ok := e.Args[0].(*hclsyntax.FunctionCallExpr)
		if e.Name != "pathexpand" || len(e.Args) != 1 || e.ExpandFinal || !ok || inner.Name != "file" {
			return nil, false
		}
		x, _ := convertExpr(c, inner)
		p, ok := fileTableRef(x)
		if !ok {
			return nil, false
		}
		text := &ast.IndexExpr{X: c.fileTable(cueform.Files, cl.rng), Index: p}
		decoded := &ast.IndexExpr{X: c.fileTable(cueform.YAMLFiles, cl.rng), Index: p}
		return index(list(&ast.Comprehension{
			Clauses: []ast.Clause{&ast.IfClause{Condition: &ast.UnaryExpr{Op: token.NOT, X: cl.std("strings", "HasPrefix", text, stringLit("~"))}}},
			Value:   embed(decoded),
		}), intLit(0)), true
	default:
		return nil, false
	}
	nd, nr := len(c.diags), len(c.reasons)
	c.yamlDepth++
	x, _ := convertExpr(c, rewritten)
	c.yamlDepth--
	for _, d := range c.diags[nd:] {
		if d.Severity == hcl.DiagError {
			c.diags, c.reasons = c.diags[:nd], c.reasons[:nr]
			return nil, false
		}
	}
	return x, true
}
