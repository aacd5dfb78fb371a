package convert

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
)

// stringFuncs are OpenTofu's string functions. OpenTofu counts characters
// as grapheme clusters, CUE's strings package as code points: the two
// differ only for characters written with several code points (emoji
// sequences, flags, combining marks that NFC does not compose, "\r\n").
var stringFuncs = map[string]function{
	"chomp":       {how: byLibrary, note: "`tofu.#chomp`: the newlines (\\n, \\r\\n, \\r) at the end removed", conv: libCall("chomp", 1, 1)},
	"endswith":    {how: byStdlib, note: "`strings.HasSuffix(s, suffix)`", conv: strStd("HasSuffix", 2)},
	"startswith":  {how: byStdlib, note: "`strings.HasPrefix(s, prefix)`", conv: strStd("HasPrefix", 2)},
	"strcontains": {how: byStdlib, note: "`strings.Contains(s, substr)`", conv: strStd("Contains", 2)},
	"lower":       {how: byStdlib, note: "`strings.ToLower(s)`", conv: strStd("ToLower", 1)},
	"upper":       {how: byStdlib, note: "`strings.ToUpper(s)`", conv: strStd("ToUpper", 1)},
	"trimspace":   {how: byStdlib, note: "`strings.TrimSpace(s)`", conv: strStd("TrimSpace", 1)},
	"trimprefix":  {how: byStdlib, note: "`strings.TrimPrefix(s, prefix)`", conv: strStd("TrimPrefix", 2)},
	"trimsuffix":  {how: byStdlib, note: "`strings.TrimSuffix(s, suffix)`", conv: strStd("TrimSuffix", 2)},
	"trim":        {how: byStdlib, note: "`strings.Trim(s, cutset)`", conv: strStd("Trim", 2)},
	"format":      {how: byConversion, note: "a literal format string (or one built from constants and local values) becomes a CUE interpolation, each verb formatted as OpenTofu does (`tofu.#fmtint`, `#fmtfloat`, `#fmtstr`, `#fmtv` where flags, width or precision need them); %f %e %g take the digits of the nearest float64; %v of a list or map is not converted there; a format string known only when evaluating, or arguments expanded with ..., go to `tofu.#format`, which reads the format string then with the same verbs (and %v of a list or map as JSON)", conv: convFormat},
	"formatlist":  {how: byConversion, note: "a list comprehension over the list arguments, each element formatted as format does: with an interpolation for a literal format string, with `tofu.#format` for one known only when evaluating; expanded arguments are not converted", conv: convFormatList},
	"indent":      {how: byLibrary, note: "`tofu.#indent`: spaces after every newline", conv: libCall("indent", 2, 2)},
	"join":        {how: byStdlib, note: "`strings.Join(l, sep)` for lists of strings; `tofu.#join` writes numbers and bools as strings and joins several lists", conv: convJoin},
	"regex": {how: byConversion, note: "a literal pattern is examined: `regexp.Find` without groups, the groups of `regexp.FindSubmatch` as a list, `regexp.FindNamedSubmatch` for named groups; a group that may take no part in the match is null where it took none (its \"\" in CUE, where it cannot match \"\"); a pattern that is not a literal, or whose group that may take no part can match \"\", is not converted",
		conv: convRegex(false)},
	"regexall": {how: byConversion, note: "as regex, every match (`tofu.#regexall`), an empty list where none; a pattern with a group that may take no part in a match is not converted", conv: convRegex(true)},
	"replace":  {how: byStdlib, note: "`strings.Replace(s, old, new, -1)`, or `regexp.ReplaceAll` for a literal /pattern/; `tofu.#replace` decides when the substring is not a literal", conv: convReplace},
	"split": {how: byStdlib, note: "`strings.Split(s, sep)`", conv: func(cl *call) ast.Expr {
		if !cl.arity(2, 2) {
			return cl.fail("split takes two arguments.")
		}
		return cl.std("strings", "Split", cl.strArg(1), cl.strArg(0))
	}},
	"strrev":         {how: byLibrary, note: "`tofu.#strrev`: the characters (code points) in reverse order", conv: libCall("strrev", 1, 1)},
	"substr":         {how: byLibrary, note: "`tofu.#substr`: `strings.SliceRunes` with OpenTofu's negative offset and length, counting code points", conv: libCall("substr", 3, 3)},
	"templatestring": {how: byConversion, note: "a template known at conversion (a constant, or local values built from constants) becomes a CUE expression over the variables, as templatefile's does; a template known only when the module is evaluated goes to `tofu.#templatestring`, which evaluates templates whose interpolations are references to the variables (${a.b[\"k\"]}) and fails on function calls, operators and directives, with a warning", conv: convTemplateString},
	"title":          {how: byLibrary, note: "`tofu.#title`: Go's strings.Title, which OpenTofu uses (CUE's strings.ToTitle starts words only after spaces)", conv: libCall("title", 1, 1)},
}

// strStd converts a call of a strings function of n string arguments.
func strStd(fn string, n int) func(*call) ast.Expr {
	return func(cl *call) ast.Expr {
		if !cl.arity(n, n) {
			return cl.fail(arityDetail(cl.name, n, n))
		}
		args := make([]ast.Expr, n)
		for i := range args {
			args[i] = cl.strArg(i)
		}
		return cl.std("strings", fn, args...)
	}
}

// convJoin writes join(sep, lists...).
func convJoin(cl *call) ast.Expr {
	if len(cl.args) < 2 && !cl.expand {
		return cl.fail("join takes a separator and at least one list.")
	}
	if !cl.expand && len(cl.args) == 2 && cl.c.stringList(cl.src[1]) {
		return cl.std("strings", "Join", cl.args[1], cl.strArg(0))
	}
	return cl.c.libList("join", cl.argList())
}

// convReplace writes replace(s, substr, replacement).
func convReplace(cl *call) ast.Expr {
	if !cl.arity(3, 3) {
		return cl.fail("replace takes three arguments.")
	}
	sub, ok := cl.constString(1)
	if !ok {
		return cl.lib("replace", cl.args...)
	}
	if len(sub) > 1 && sub[0] == '/' && sub[len(sub)-1] == '/' {
		pat := sub[1 : len(sub)-1]
		if _, err := regexp.Compile(pat); err != nil {
			return cl.fail(fmt.Sprintf("The pattern is not a valid regular expression: %s.", err))
		}
		return cl.std("regexp", "ReplaceAll", stringLit(pat), cl.strArg(0), cl.strArg(2))
	}
	return cl.std("strings", "Replace", cl.strArg(0), stringLit(sub), cl.strArg(2), intLit(-1))
}

// convRegex writes regex(pattern, s) or regexall(pattern, s) for a
// literal pattern: the form of the result depends on its groups. A group
// that may take no part in a match is null in OpenTofu's result, and an
// empty string in CUE's; where it cannot match the empty string, an empty
// string is its taking no part, which the result makes null:
//
//	[for i, g in list.Drop(regexp.FindSubmatch(p, s), 1) {[if g == "" if list.Contains([1], i) {null}, g][0]}]
func convRegex(all bool) func(*call) ast.Expr {
	return func(cl *call) ast.Expr {
		if !cl.arity(2, 2) {
			return cl.fail(cl.name + " takes two arguments.")
		}
		pat, ok := cl.constString(0)
		if !ok {
			return cl.fail("The pattern is not a literal: the form of the result (string, list or object) depends on its groups.")
		}
		form, optional, why := regexForm(pat)
		if why == "" && all && len(optional) > 0 {
			why = "A group of the pattern may take no part in a match: OpenTofu gives null for it, CUE's regexp an empty string."
		}
		if why != "" {
			return cl.fail(why)
		}
		s := cl.strArg(1)
		if all {
			return cl.lib("regexall", stringLit(pat), s, stringLit(form))
		}
		switch form {
		case "string":
			return cl.std("regexp", "Find", stringLit(pat), s)
		case "list":
			groups := cl.std("list", "Drop", cl.std("regexp", "FindSubmatch", stringLit(pat), s), intLit(1))
			if len(optional) == 0 {
				return groups
			}
			var keys []ast.Expr
			for _, i := range optional {
				keys = append(keys, intLit(i-1))
			}
			return &ast.ListLit{Elts: []ast.Expr{&ast.Comprehension{
				Clauses: []ast.Clause{&ast.ForClause{Key: ident("i"), Value: ident("g"), Source: groups}},
				Value:   embed(nullWhereEmpty(cl, ident("g"), ident("i"), keys)),
			}}}
		}
		named := cl.std("regexp", "FindNamedSubmatch", stringLit(pat), s)
		if len(optional) == 0 {
			return named
		}
		re := regexp.MustCompile(pat)
		var keys []ast.Expr
		for _, i := range optional {
			keys = append(keys, stringLit(re.SubexpNames()[i]))
		}
		return &ast.StructLit{Elts: []ast.Decl{&ast.Comprehension{
			Clauses: []ast.Clause{&ast.ForClause{Key: ident("k"), Value: ident("g"), Source: named}},
			Value:   &ast.StructLit{Elts: []ast.Decl{field(&ast.ParenExpr{X: ident("k")}, nullWhereEmpty(cl, ident("g"), ident("k"), keys))}},
		}}}
	}
}

// nullWhereEmpty is [if g == "" if list.Contains(keys, k) {null}, g][0]:
// a group that took no part in the match, null.
func nullWhereEmpty(cl *call, g, k ast.Expr, keys []ast.Expr) ast.Expr {
	return index(list(
		&ast.Comprehension{Clauses: []ast.Clause{
			&ast.IfClause{Condition: binary(token.EQL, g, stringLit(""))},
			&ast.IfClause{Condition: cl.std("list", "Contains", list(keys...), k)},
		}, Value: embed(ast.NewNull())},
		g,
	), intLit(0))
}

// regexForm is the form of a pattern's result: "string" without groups,
// "list" for unnamed groups, "map" for named ones; optional are the
// groups (numbered from 1) that may take no part in a match, none of
// which can match the empty string; why says why a pattern cannot be
// converted.
func regexForm(pat string) (form string, optional []int, why string) {
	re, err := regexp.Compile(pat)
	if err != nil {
		return "", nil, fmt.Sprintf("The pattern is not a valid regular expression: %s.", err)
	}
	named, unnamed := 0, 0
	for _, n := range re.SubexpNames()[1:] {
		if n == "" {
			unnamed++
		} else {
			named++
		}
	}
	if named > 0 && unnamed > 0 {
		return "", nil, "The pattern mixes named and unnamed groups, which OpenTofu does not allow."
	}
	tree, err := syntax.Parse(pat, syntax.Perl)
	if err != nil {
		return "", nil, fmt.Sprintf("The pattern is not a valid regular expression: %s.", err)
	}
	var nullable bool
	optionalCaptures(tree, false, func(g *syntax.Regexp) {
		optional = append(optional, g.Cap)
		nullable = nullable || matchesEmpty(g.Sub[0])
	})
	if nullable {
		return "", nil, "A group of the pattern may take no part in a match, and may match the empty string: OpenTofu gives null where it takes no part, CUE's regexp an empty string either way."
	}
	slices.Sort(optional)
	switch {
	case named > 0:
		return "map", optional, ""
	case unnamed > 0:
		return "list", optional, ""
	}
	return "string", nil, ""
}

// optionalCaptures calls found with each capturing group of re that may
// take no part in a match: one under ?, *, {0,n} or in a branch of |.
func optionalCaptures(re *syntax.Regexp, optional bool, found func(*syntax.Regexp)) {
	switch re.Op {
	case syntax.OpCapture:
		if optional {
			found(re)
		}
	case syntax.OpStar, syntax.OpQuest:
		optional = true
	case syntax.OpRepeat:
		if re.Min == 0 {
			optional = true
		}
	case syntax.OpAlternate:
		optional = true
	}
	for _, sub := range re.Sub {
		optionalCaptures(sub, optional, found)
	}
}

// matchesEmpty reports whether re may match the empty string: it is
// nullable, or holds an assertion (^, $, \b), which this does not follow
// (so it errs on the side of yes).
func matchesEmpty(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune) == 0
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return false
	case syntax.OpNoMatch:
		return false
	case syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpPlus, syntax.OpCapture:
		return matchesEmpty(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || matchesEmpty(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !matchesEmpty(sub) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if matchesEmpty(sub) {
				return true
			}
		}
		return false
	}
	return true // empty match, assertions
}

// fmtVerb is one verb of a format string.
type fmtVerb struct {
	sharp, zero, minus, plus, space bool
	width, prec                     int // -1 where not given
	arg                             int // 1-based
	mode                            byte
}

// parseFormat splits a format string into literal text (string) and verbs
// (fmtVerb), as OpenTofu reads it, and says how many arguments it uses.
func parseFormat(f string) (parts []any, used int, err error) {
	var text strings.Builder
	next := 1
	for i := 0; i < len(f); {
		if f[i] != '%' {
			text.WriteByte(f[i])
			i++
			continue
		}
		start := i
		i++
		if i < len(f) && f[i] == '%' {
			text.WriteByte('%')
			i++
			continue
		}
		v := fmtVerb{width: -1, prec: -1, arg: next}
	flags:
		for ; i < len(f); i++ {
			switch f[i] {
			case '0':
				v.zero = true
			case '#':
				v.sharp = true
			case '-':
				v.minus = true
			case '+':
				v.plus = true
			case ' ':
				v.space = true
			default:
				break flags
			}
		}
		if i < len(f) && f[i] >= '1' && f[i] <= '9' {
			v.width, i = readNum(f, i)
		}
		if i < len(f) && f[i] == '.' {
			i++
			v.prec = 0
			if i < len(f) && f[i] >= '0' && f[i] <= '9' {
				v.prec, i = readNum(f, i)
			}
		}
		if i < len(f) && f[i] == '[' {
			i++
			if i >= len(f) || f[i] < '1' || f[i] > '9' {
				return nil, 0, fmt.Errorf("invalid format string starting at offset %d", start)
			}
			v.arg, i = readNum(f, i)
			if i >= len(f) || f[i] != ']' {
				return nil, 0, fmt.Errorf("invalid format string starting at offset %d", start)
			}
			i++
		}
		if i >= len(f) || !isLetter(f[i]) {
			return nil, 0, fmt.Errorf("invalid format string starting at offset %d", start)
		}
		v.mode = f[i]
		i++
		if !strings.ContainsRune("vtbdoxXeEfgGsq", rune(v.mode)) {
			return nil, 0, fmt.Errorf("unsupported format verb %q", v.mode)
		}
		if text.Len() > 0 {
			parts = append(parts, text.String())
			text.Reset()
		}
		parts = append(parts, v)
		used = max(used, v.arg)
		next = v.arg + 1
	}
	if text.Len() > 0 {
		parts = append(parts, text.String())
	}
	return parts, used, nil
}

// isLetter reports whether b is an ASCII letter.
func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// readNum reads the decimal number at f[i:].
func readNum(f string, i int) (n, end int) {
	for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
		n = n*10 + int(f[i]-'0')
		if n > 1<<20 {
			n = 1 << 20
		}
	}
	return n, i
}

// formatParts parses the literal format string of a call and checks its
// verbs against the number of arguments.
func (cl *call) formatParts() ([]any, string) {
	if len(cl.args) == 0 {
		return nil, cl.name + " takes a format string and its arguments."
	}
	if cl.expand {
		return nil, "The arguments are an expanded list: their number is not known when converting."
	}
	f, ok := cl.formatString()
	if !ok {
		return nil, "The format string is not a literal: its verbs must be known when converting."
	}
	parts, used, err := parseFormat(f)
	if err != nil {
		return nil, "The format string is not valid: " + err.Error() + "."
	}
	if n := len(cl.args) - 1; used > n {
		return nil, fmt.Sprintf("The format string needs %d arguments but has %d.", used, n)
	} else if used < n {
		return nil, fmt.Sprintf("The format string uses %d of its %d arguments; OpenTofu reports the others as an error.", used, n)
	}
	return parts, ""
}

// formatString is the format string of a call when it is known when
// converting: a literal, or built from constants and local values.
func (cl *call) formatString() (string, bool) {
	if len(cl.args) == 0 {
		return "", false
	}
	return cl.constString(0)
}

// restList is the arguments from i on as one CUE list, with an expanded
// last argument spliced in.
func (cl *call) restList(i int) ast.Expr {
	n := len(cl.args)
	switch {
	case !cl.expand:
		return list(cl.args[i:]...)
	case i == n-1:
		return cl.args[n-1]
	}
	return cl.std("list", "Concat", list(list(cl.args[i:n-1]...), cl.args[n-1]))
}

// convFormat writes format(f, args...) with a literal f as an
// interpolation. A format string known only when evaluating, or arguments
// given as an expanded list, are read by tofu.#format then.
func convFormat(cl *call) ast.Expr {
	// The format string itself in an expanded list is not converted.
	fromList := cl.expand && len(cl.args) == 1
	if _, known := cl.formatString(); len(cl.args) > 0 && !fromList && (!known || cl.expand) {
		return cl.lib("format", cl.strArg(0), cl.restList(1))
	}
	parts, why := cl.formatParts()
	if why != "" {
		return cl.fail(why)
	}
	args, kinds := cl.args[1:], cl.kinds[1:]
	out := make([]any, 0, len(parts))
	for _, p := range parts {
		v, ok := p.(fmtVerb)
		if !ok {
			out = append(out, p)
			continue
		}
		x, why := cl.formatVerb(&v, args[v.arg-1], kinds[v.arg-1])
		if why != "" {
			return cl.fail(why)
		}
		out = append(out, x)
	}
	return interpolation(out)
}

// formatVerb is one verb applied to an argument x of kind k.
func (cl *call) formatVerb(v *fmtVerb, x ast.Expr, k kind) (ast.Expr, string) {
	plain := v.width < 0 && !v.zero && !v.minus && !v.plus && !v.space && !v.sharp
	b := func(f bool) ast.Expr { return ast.NewBool(f) }
	switch v.mode {
	case 's', 'q':
		if v.mode == 's' && plain && v.prec <= 0 {
			switch k {
			case kindString, kindInt, kindBool:
				return x, ""
			}
			return cl.lib("tostring", x), ""
		}
		return cl.lib("fmtstr", x, b(v.mode == 'q'), intLit(v.prec), intLit(v.width), b(v.zero), b(v.minus)), ""
	case 'v':
		if k == kindList || k == kindMap {
			return nil, "%v of a list or map is its JSON encoding, which is not converted here."
		}
		if !v.sharp && v.width < 0 && k == kindString {
			return x, ""
		}
		return cl.lib("fmtv", x, b(v.sharp), intLit(v.width), b(v.zero), b(v.minus)), ""
	case 't':
		if k == kindBool {
			return x, ""
		}
		return cl.lib("fmtbool", x), ""
	case 'd', 'b', 'o', 'x', 'X':
		if v.mode == 'd' && plain && v.prec < 0 && k == kindInt {
			return x, ""
		}
		return cl.lib("fmtint", x, stringLit(string(v.mode)), b(v.plus), b(v.space), b(v.sharp), b(v.zero), b(v.minus),
			intLit(v.width), intLit(v.prec)), ""
	}
	return cl.lib("fmtfloat", x, stringLit(string(v.mode)), b(v.plus), b(v.space), b(v.zero), b(v.minus),
		intLit(v.width), intLit(v.prec)), ""
}

// convFormatList writes formatlist(f, args...) with a literal f: the
// format applied to the elements at each index of the list arguments,
// the other arguments repeated. An argument whose kind is not known is
// told apart at evaluation.
func convFormatList(cl *call) ast.Expr {
	_, constant := cl.formatString()
	var parts []any
	if constant || len(cl.args) == 0 || cl.expand {
		var why string
		if parts, why = cl.formatParts(); why != "" {
			return cl.fail(why)
		}
	}
	c := cl.c
	args, kinds := cl.args[1:], cl.kinds[1:]
	// Bind every argument once: {let a0 = ..., out: [...]}.out.
	names := make([]string, len(args))
	var decls []ast.Decl
	for i, a := range args {
		names[i] = c.fresh("a" + strconv.Itoa(i))
		decls = append(decls, &ast.LetClause{Ident: ident(names[i]), Expr: a})
	}
	idx := c.fresh("i")
	isList := func(x ast.Expr) ast.Expr {
		return binary(token.NEQ, paren(binary(token.AND, x, list(&ast.Ellipsis{}))), &ast.BottomLit{})
	}
	elem := make([]ast.Expr, len(args))
	var length ast.Expr
	var unknowns []ast.Expr
	var checks []ast.Expr
	for i, k := range kinds {
		a := ident(names[i])
		switch k {
		case kindList:
			elem[i] = index(a, ident(idx))
			if length == nil {
				length = ast.NewCall(ident("len"), a)
			} else {
				checks = append(checks, binary(token.EQL, ast.NewCall(ident("len"), a), length))
			}
		case kindUnknown:
			elem[i] = index(list(
				&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: isList(a)}}, Value: embed(index(a, ident(idx)))},
				a), intLit(0))
			unknowns = append(unknowns, a)
		default:
			elem[i] = a
		}
	}
	if length == nil && len(unknowns) > 0 {
		// The length of the first argument that is a list; one
		// iteration when none is.
		l := ident(c.fresh("l"))
		length = index(list(&ast.Comprehension{
			Clauses: []ast.Clause{&ast.ForClause{Value: l, Source: list(unknowns...)}, &ast.IfClause{Condition: isList(l)}},
			Value:   embed(ast.NewCall(ident("len"), l)),
		}, intLit(1)), intLit(0))
	}
	for _, u := range unknowns {
		checks = append(checks, binary(token.LOR, not(isList(u)), binary(token.EQL, ast.NewCall(ident("len"), u), length)))
	}
	var str ast.Expr
	if parts == nil {
		// A format string known only when evaluating.
		str = cl.lib("format", cl.strArg(0), list(elem...))
	} else {
		out := make([]any, 0, len(parts))
		for _, p := range parts {
			v, ok := p.(fmtVerb)
			if !ok {
				out = append(out, p)
				continue
			}
			k := kinds[v.arg-1]
			if k == kindList || k == kindUnknown {
				k = kindUnknown
			}
			x, why := cl.formatVerb(&v, elem[v.arg-1], k)
			if why != "" {
				return cl.fail(why)
			}
			out = append(out, x)
		}
		str = interpolation(out)
	}
	var result ast.Expr
	if length == nil {
		result = list(str)
	} else {
		result = list(&ast.Comprehension{
			Clauses: []ast.Clause{&ast.ForClause{Value: ident(idx), Source: cl.std("list", "Range", intLit(0), length, intLit(1))}},
			Value:   embed(str),
		})
	}
	if len(checks) > 0 {
		cond := checks[0]
		for _, ch := range checks[1:] {
			cond = binary(token.LAND, cond, ch)
		}
		result = index(list(&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: cond}}, Value: embed(result)}), intLit(0))
	}
	decls = append(decls, field(ident("out"), result))
	return &ast.SelectorExpr{X: &ast.StructLit{Elts: decls}, Sel: ident("out")}
}
