package convert

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"github.com/tofucue/tofucue/cueform"
)

// This file holds the small builders of CUE syntax that the converter uses,
// so that the conversion code reads as the CUE it writes.

// ident is a reference to a name the converter has bound.
func ident(name string) *ast.Ident { return ast.NewIdent(name) }

// isPlainLabel reports whether name can be written as a bare CUE field label
// and selected with a dot: a valid identifier that is neither hidden (_x)
// nor a definition (#x), and not a CUE keyword: those of the language's
// token table (if, for, let, try, otherwise, null...) and the clause words
// import and package.
func isPlainLabel(name string) bool {
	if name == "" || strings.HasPrefix(name, "_") || strings.HasPrefix(name, "#") || strings.HasPrefix(name, "$") {
		return false
	}
	switch name {
	case "import", "package", "__":
		return false
	}
	return !token.Lookup(name).IsKeyword() && ast.IsValidIdent(name)
}

// keepKeywordLabels writes each quoted label of file that names a CUE
// keyword which cannot stand as a bare label (try, in v0.17.1) as a raw
// string, #"try"#. format.Simplify unquotes a label by a table of its own
// that does not know every keyword of the parser, and the file it wrote
// would not parse; it leaves a raw string as it is.
func keepKeywordLabels(file *ast.File) {
	ast.Walk(file, func(n ast.Node) bool {
		f, ok := n.(*ast.Field)
		if !ok {
			return true
		}
		if bl, ok := f.Label.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			if name, err := literal.Unquote(bl.Value); err == nil && !bareLabelParses(name) {
				bl.Value = `#"` + name + `"#`
			}
		}
		return true
	}, nil)
}

// bareLabelParses tells whether a keyword-named label parses unquoted;
// other names are left to the formatter.
func bareLabelParses(name string) bool {
	if !token.Lookup(name).IsKeyword() {
		return true
	}
	_, err := parser.ParseFile("label.cue", "x: {\n\t"+name+": 1\n}\n")
	return err == nil
}

// label is a field label for an OpenTofu name: bare when the name is a
// plain label that nothing in scope is called, quoted otherwise. A quoted
// label names the same field but cannot be referred to by name, so it
// never shadows a name the converted expressions use.
func label(name string, bound func(string) bool) ast.Label {
	if isPlainLabel(name) && !bound(name) {
		return ast.NewIdent(name)
	}
	return ast.NewString(name)
}

// selector selects field name of x: x.name, or x["name"] where the name is
// not a plain label.
func selector(x ast.Expr, name string) ast.Expr {
	if isPlainLabel(name) {
		return &ast.SelectorExpr{X: x, Sel: ast.NewIdent(name)}
	}
	return &ast.IndexExpr{X: x, Index: ast.NewString(name)}
}

// index is x[i].
func index(x, i ast.Expr) *ast.IndexExpr { return &ast.IndexExpr{X: x, Index: i} }

// paren wraps x in parentheses unless it binds tighter than any operator.
func paren(x ast.Expr) ast.Expr {
	switch x.(type) {
	case *ast.Ident, *ast.BasicLit, *ast.SelectorExpr, *ast.IndexExpr, *ast.CallExpr,
		*ast.ParenExpr, *ast.ListLit, *ast.StructLit, *ast.Interpolation, *ast.BottomLit, *ast.UnaryExpr:
		return x
	}
	return &ast.ParenExpr{X: x}
}

// binary is x op y with the operands parenthesized where CUE's operator
// precedence needs it.
func binary(op token.Token, x, y ast.Expr) ast.Expr {
	return &ast.BinaryExpr{X: operand(x, op, false), Op: op, Y: operand(y, op, true)}
}

// operand parenthesizes x as an operand of op: when it is a binary
// expression that binds less tightly (or as tightly, on the right).
func operand(x ast.Expr, op token.Token, right bool) ast.Expr {
	switch b := x.(type) {
	case *ast.BinaryExpr:
		p, q := b.Op.Precedence(), op.Precedence()
		if p > q || p == q && !right {
			return x
		}
		return &ast.ParenExpr{X: x}
	case *ast.UnaryExpr:
		if b.Op == token.MUL {
			return &ast.ParenExpr{X: x}
		}
		return x
	}
	return paren(x)
}

// cannotBeNull is (x & null) == _|_: true where x is neither null nor
// null by default, also while x is a type not known yet.
func cannotBeNull(x ast.Expr) ast.Expr {
	return &ast.BinaryExpr{X: &ast.ParenExpr{X: binary(token.AND, x, ident("null"))}, Op: token.EQL, Y: &ast.BottomLit{}}
}

// not is !x.
func not(x ast.Expr) ast.Expr {
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		return u.X
	}
	if b, ok := x.(*ast.BinaryExpr); ok && !isBottom(b.X) && !isBottom(b.Y) {
		// !(a > b) is a <= b: CUE's numbers and strings are totally
		// ordered, and an operand that is an error or not known yet
		// leaves both the same. A test against _|_ keeps its !.
		if op, ok := negatedComparison[b.Op]; ok {
			return &ast.BinaryExpr{X: b.X, Op: op, Y: b.Y}
		}
	}
	return &ast.UnaryExpr{Op: token.NOT, X: paren(x)}
}

// negatedComparison is each comparison's negation.
var negatedComparison = map[token.Token]token.Token{
	token.EQL: token.NEQ, token.NEQ: token.EQL,
	token.LSS: token.GEQ, token.GEQ: token.LSS,
	token.GTR: token.LEQ, token.LEQ: token.GTR,
}

// isBottom reports whether x is _|_.
func isBottom(x ast.Expr) bool {
	_, ok := x.(*ast.BottomLit)
	return ok
}

// embed is the struct {x}, the body of a comprehension that yields x.
func embed(x ast.Expr) *ast.StructLit {
	return &ast.StructLit{Elts: []ast.Decl{&ast.EmbedDecl{Expr: x}}}
}

// structFor is the struct {for CLAUSES {(key): val}}, with an empty struct
// embedded beside the comprehension. The empty struct works around
// cuelang.org/go v0.17.1, where a struct that holds nothing but a for
// comprehension over an empty collection is {} on its own, but _ (top) once a
// reference to it is unified into a definition, as in every library call: so
// one(r[*]) of a resource with no instances was not known.
func structFor(clauses []ast.Clause, key, val ast.Expr) *ast.StructLit {
	return structForBody(clauses, []ast.Decl{field(&ast.ParenExpr{X: key}, val)})
}

// withoutEmptyEmbed is x without the empty struct that structFor embeds
// beside its comprehensions, {for k, s in r {(k): s.id}}, where x is the
// value of a root module's output: nothing in the module reads one, so
// no reference to it is unified into a library definition, where the
// empty struct is needed.
func withoutEmptyEmbed(x ast.Expr) ast.Expr {
	s, ok := x.(*ast.StructLit)
	if !ok || len(s.Elts) < 2 {
		return x
	}
	if e, ok := s.Elts[0].(*ast.EmbedDecl); !ok || !isEmptyCollection(e.Expr) {
		return x
	}
	for _, d := range s.Elts[1:] {
		if _, ok := d.(*ast.Comprehension); !ok {
			return x
		}
	}
	return &ast.StructLit{Elts: s.Elts[1:]}
}

// fieldOnOneLine is {f}, written on one line where f's value is an atom or a
// short call (inline), as a person writes a comprehension's one field:
// if k == "port" {(k): (tofu.#tonumber & {#args: [v]}).out}.
func fieldOnOneLine(f *ast.Field) *ast.StructLit {
	s := &ast.StructLit{Elts: []ast.Decl{f}}
	if inline(f.Value) {
		ast.SetRelPos(f, token.NoSpace)
		s.Rbrace = token.NoSpace.Pos()
	}
	return s
}

// structForBody is {{}, for ... {body}}: structFor with the comprehension's
// body given.
func structForBody(clauses []ast.Clause, body []ast.Decl) *ast.StructLit {
	return &ast.StructLit{Elts: []ast.Decl{
		&ast.EmbedDecl{Expr: &ast.StructLit{}},
		&ast.Comprehension{Clauses: clauses, Value: &ast.StructLit{Elts: body}},
	}}
}

// isNullLit reports whether x is null: the literal the parser makes, or
// the identifier the converter writes.
func isNullLit(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name == "null"
	case *ast.BasicLit:
		return x.Kind == token.NULL
	}
	return false
}

// list is [elems...].
func list(elems ...ast.Expr) *ast.ListLit { return &ast.ListLit{Elts: elems} }

// conditional is [if c {a}, if !c {b}][0]: CUE's conditional expression.
func conditional(c, a, b ast.Expr) *ast.IndexExpr {
	return index(list(
		&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: c}}, Value: embed(a)},
		&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: not(c)}}, Value: embed(b)},
	), ast.NewLit(token.INT, "0"))
}

// field is label: value.
func field(l ast.Label, value ast.Expr) *ast.Field {
	if p, ok := value.(*ast.ParenExpr); ok {
		value = p.X
	}
	return &ast.Field{Label: l, Value: value}
}

// attr is the attribute @name(args), with args already in attribute syntax.
func attr(name string, args ...string) *ast.Attribute {
	return cueform.Attr(name, args...)
}

// attrString quotes s for an attribute argument when it is not a plain
// token (cueform.Quote).
func attrString(s string) string {
	return cueform.Quote(s)
}

// docComment attaches text, one comment line per line, as n's doc comment.
func docComment(n ast.Node, lines []string) {
	if len(lines) == 0 {
		return
	}
	cg := &ast.CommentGroup{Doc: true}
	for _, l := range lines {
		cg.List = append(cg.List, &ast.Comment{Text: "//" + prefixSpace(l)})
	}
	ast.AddComment(n, cg)
}

// lineComment attaches text as a comment at the end of n's line.
func lineComment(n ast.Node, text string) {
	ast.AddComment(n, &ast.CommentGroup{Line: true, Position: 10, List: []*ast.Comment{{Text: "//" + prefixSpace(text)}}})
}

// prefixSpace is the text of a comment line as CUE takes it: after a
// space, with the characters that CUE's scanner rejects (NUL, a byte
// order mark, bytes that are not UTF-8) replaced by U+FFFD.
func prefixSpace(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == 0 || r == '\uFEFF' {
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if s == "" || strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\t") {
		return s
	}
	return " " + s
}

// stringLit is the CUE string literal for s.
func stringLit(s string) *ast.BasicLit { return ast.NewString(s) }

// intLit is the CUE integer literal n.
func intLit(n int) *ast.BasicLit { return ast.NewLit(token.INT, strconv.Itoa(n)) }

// interpolation builds a CUE string interpolation from alternating literal
// text and expressions; parts[i] is either a string or an ast.Expr.
func interpolation(parts []any) ast.Expr {
	var exprs []ast.Expr
	var text strings.Builder
	hasExpr := false
	for _, p := range parts {
		if _, ok := p.(ast.Expr); ok {
			hasExpr = true
		}
	}
	if !hasExpr {
		for _, p := range parts {
			text.WriteString(p.(string))
		}
		return stringLit(text.String())
	}
	// A CUE interpolation is a list of fragments: the first opens the
	// string and ends with "\(", middle ones go from ")" to "\(", the last
	// closes it.
	frag := func(s string) string {
		q := literal.String.Quote(s)
		return q[1 : len(q)-1]
	}
	open := true
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			text.WriteString(frag(p))
		case ast.Expr:
			prefix := ")"
			if open {
				prefix = `"`
				open = false
			}
			exprs = append(exprs, &ast.BasicLit{Kind: token.STRING, Value: prefix + text.String() + `\(`}, p)
			text.Reset()
		}
	}
	exprs = append(exprs, &ast.BasicLit{Kind: token.STRING, Value: ")" + text.String() + `"`})
	return &ast.Interpolation{Elts: exprs}
}

// Operators the conversion code names often.
const (
	tokenEQL  = token.EQL
	tokenNEQ  = token.NEQ
	tokenLAND = token.LAND
)

// tokenAND is CUE's unification operator.
const tokenAND = token.AND

// innermost is the field of a declaration that carries its attribute (or
// its last nested field): the one a doc comment belongs to.
func innermost(d ast.Decl) ast.Node {
	switch x := d.(type) {
	case *ast.Comprehension:
		if s, ok := x.Value.(*ast.StructLit); ok && len(s.Elts) == 1 {
			return innermost(s.Elts[0])
		}
	case *ast.Field:
		if len(x.Attrs) > 0 {
			return x
		}
		if s, ok := x.Value.(*ast.StructLit); ok && len(s.Elts) == 1 {
			if f, ok := s.Elts[0].(*ast.Field); ok {
				return innermost(f)
			}
		}
	}
	return d
}

// mergeDecls joins consecutive declarations in the same namespace, so that
// a template's variables are one _var struct and a file's resources of one type
// one struct, as a person would write them.
func mergeDecls(decls []ast.Decl) []ast.Decl {
	var out []ast.Decl
	for _, d := range decls {
		if len(out) > 0 {
			if prev, ok := out[len(out)-1].(*ast.Field); ok {
				if f, ok := d.(*ast.Field); ok && mergeField(prev, f) {
					continue
				}
			}
		}
		out = append(out, d)
	}
	return out
}

// mergeField merges b into a when both are the same namespace field: a
// label without attributes whose value is a struct literal.
func mergeField(a, b *ast.Field) bool {
	an, aok := labelName(a.Label)
	bn, bok := labelName(b.Label)
	as, asok := a.Value.(*ast.StructLit)
	bs, bsok := b.Value.(*ast.StructLit)
	if !aok || !bok || an != bn || !asok || !bsok || len(a.Attrs) > 0 || len(b.Attrs) > 0 ||
		len(ast.Comments(b)) > 0 {
		return false
	}
	for _, e := range bs.Elts {
		if len(as.Elts) > 0 {
			last, lok := as.Elts[len(as.Elts)-1].(*ast.Field)
			ef, eok := e.(*ast.Field)
			if lok && eok && mergeField(last, ef) {
				continue
			}
		}
		if len(as.Elts) > 0 {
			ast.SetRelPos(e, token.NewSection)
		}
		as.Elts = append(as.Elts, e)
	}
	return true
}

func labelName(l ast.Label) (string, bool) {
	switch l := l.(type) {
	case *ast.Ident:
		return "id:" + l.Name, true
	case *ast.BasicLit:
		return "str:" + l.Value, true
	}
	return "", false
}

// replaceNodes replaces, in root, each node that target takes with what
// replacement makes of it, wherever it occurs, and returns root, or what
// replaces it: as astutil.Apply does with a function that replaces those
// nodes and does not look into them. Apply allocates a cursor for every
// node it visits, and the trees here are whole resource bodies of which a
// few nodes change; ast.Walk finds the parents of those, and Apply visits
// the children of those parents only. A parent that the converter put in
// two places is walked twice, and its children counted the first time.
// Where Apply does not make each replacement Walk found, as for a target
// at the root, it goes over the whole tree, which then has nothing more to
// replace. (Apply also points the identifiers resolved to a field's value
// it replaces at the new value: the converter's are not resolved.)
func replaceNodes(root ast.Node, target func(ast.Node) bool, replacement func(ast.Node) ast.Node) ast.Node {
	// visit numbers the nodes walked into, so that a parent's first
	// visit is told from its later ones.
	type visit struct {
		n  ast.Node
		at int
	}
	var stack []visit
	var parents []ast.Node
	first := map[ast.Node]int{}
	found, at := 0, 0
	ast.Walk(root, func(n ast.Node) bool {
		if !target(n) {
			at++
			stack = append(stack, visit{n, at})
			return true
		}
		if len(stack) == 0 {
			found++ // the root: see below
			return false
		}
		p := stack[len(stack)-1]
		if v, ok := first[p.n]; !ok {
			first[p.n] = p.at
			parents = append(parents, p.n)
		} else if v != p.at {
			return false
		}
		found++
		return false
	}, func(ast.Node) { stack = stack[:len(stack)-1] })
	replace := func(c astutil.Cursor) bool {
		if target(c.Node()) {
			c.Replace(replacement(c.Node()))
			return false
		}
		return true
	}
	done := 0
	for _, p := range parents {
		astutil.Apply(p, func(c astutil.Cursor) bool {
			if c.Node() == p {
				return true
			}
			if !replace(c) {
				done++
			}
			return false
		}, nil)
	}
	if done != found {
		return astutil.Apply(root, replace, nil)
	}
	return root
}
