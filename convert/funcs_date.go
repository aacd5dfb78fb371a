package convert

import (
	"fmt"
	"strings"
	"time"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/zclconf/go-cty/cty"
)

// dateFuncs are OpenTofu's time functions.
var dateFuncs = map[string]function{
	"timestamp": {how: unknownAtPlan, note: "`string`: the time the plan is applied",
		conv: unknownString(0, 0)},
	"plantimestamp": {how: byExpr, note: "`_plantimestamp` (@plantimestamp): the time the plan is made, which the engine sets, the same as on the HCL side",
		conv: func(cl *call) ast.Expr {
			if !cl.arity(0, 0) {
				return cl.fail(arityDetail(cl.name, 0, 0))
			}
			cl.c.usesPlanTime = true
			return ident(planTimeRoot)
		}},
	"formatdate": {how: byConversion, note: "`time.FormatString` with the format, a constant, translated to Go's layout at conversion (the verbs Go's layouts lack, h and ZZZ, by `time.Split` and a comparison); a format that is not a constant is not converted",
		conv: convFormatdate},
	"timeadd": {how: byLibrary, note: "`tofu.#timeadd`: the duration added, the result in the timestamp's own offset, to the second",
		conv: fixedLibCall("timeadd", 2, 2)},
	"timecmp": {how: byLibrary, note: "`tofu.#timecmp`: instants compared whatever their offsets, in every year Go accepts",
		conv: fixedLibCall("timecmp", 2, 2)},
}

// convFormatdate writes formatdate(FORMAT, ts): folded when both are
// constants, and otherwise, for a constant FORMAT, CUE's time.FormatString
// with FORMAT translated to Go's layout (dateLayout).
func convFormatdate(cl *call) ast.Expr {
	if x, done := cl.arityFold(2, 2); done {
		return x
	}
	f, diags, ok := cl.c.constValue(cl.src[0])
	if !ok || diags.HasErrors() || !f.IsKnown() || f.IsNull() || f.Type() != cty.String {
		return cl.fail("formatdate is converted only when its format is a constant: the format is translated to a layout of CUE's time package when converting.")
	}
	parts, err := dateLayout(f.AsString())
	if err != nil {
		return cl.fail("OpenTofu reports an error for this call: " + err.Error())
	}
	ts := cl.args[1]
	var out ast.Expr
	for _, p := range parts {
		var x ast.Expr
		switch {
		case p.layout != "":
			x = cl.std("time", "FormatString", stringLit(p.layout), ts)
		case p.verb == "h":
			// Go's layouts have no unpadded 24-hour hour.
			x = &ast.Interpolation{Elts: []ast.Expr{
				&ast.BasicLit{Kind: token.STRING, Value: `"\(`},
				selector(cl.std("time", "Split", ts), "hour"),
				&ast.BasicLit{Kind: token.STRING, Value: `)"`},
			}}
		case p.verb == "ZZZ":
			// The offset as -0700, except "UTC" for a zero one.
			off := cl.std("time", "FormatString", stringLit("-0700"), ts)
			x = indexFirst(list(
				&ast.Comprehension{
					Clauses: []ast.Clause{&ast.IfClause{Condition: binary(token.EQL, off, stringLit("+0000"))}},
					Value:   &ast.StructLit{Elts: []ast.Decl{&ast.EmbedDecl{Expr: stringLit("UTC")}}},
				},
				cl.std("time", "FormatString", stringLit("-0700"), ts),
			))
		default:
			x = stringLit(p.literal)
		}
		if out == nil {
			out = x
		} else {
			out = binary(token.ADD, out, x)
		}
	}
	if out == nil {
		return stringLit("")
	}
	return out
}

// indexFirst is x[0].
func indexFirst(x ast.Expr) ast.Expr {
	return &ast.IndexExpr{X: x, Index: ast.NewLit(token.INT, "0")}
}

// datePart is a piece of a formatdate format: a Go layout that formats
// the same as the verbs and literal text it stands for, a verb that no Go
// layout writes (h, ZZZ), or literal text.
type datePart struct {
	layout, verb, literal string
}

// goLayouts are the Go layouts that write what each formatdate verb
// writes; h (unpadded 24-hour) and ZZZ ("UTC" or -0700) have none.
var goLayouts = map[string]string{
	"YYYY": "2006", "YY": "06",
	"MMMM": "January", "MMM": "Jan", "MM": "01", "M": "1",
	"DD": "02", "D": "2",
	"EEEE": "Monday", "EEE": "Mon",
	"hh": "15",
	"HH": "03", "H": "3",
	"AA": "PM", "aa": "pm",
	"mm": "04", "m": "4",
	"ss": "05", "s": "5",
	"Z": "Z07:00", "ZZZZ": "-0700", "ZZZZZ": "-07:00",
}

// verbErrors say why a run of a verb letter is not a verb, in OpenTofu's
// words.
var verbErrors = map[byte]string{
	'Y': `year must either be "YY" or "YYYY"`,
	'M': `month must be "M", "MM", "MMM", or "MMMM"`,
	'D': `day of month must either be "D" or "DD"`,
	'E': `day of week must either be "EEE" or "EEEE"`,
	'h': `24-hour must either be "h" or "hh"`,
	'H': `12-hour must either be "H" or "HH"`,
	'A': `must be "AA"`,
	'a': `must be "aa"`,
	'm': `minute must either be "m" or "mm"`,
	's': `second must either be "s" or "ss"`,
	'Z': `timezone must be Z, ZZZZ, or ZZZZZ`,
}

// layoutProbes are times whose every field differs from the others and
// from Go's reference time, in several offsets, so that a layout that Go
// reads otherwise than its pieces (a literal "1", "15" made of "1" and
// "5") formats one of them otherwise.
var layoutProbes = []time.Time{
	time.Date(2024, 11, 9, 8, 7, 6, 0, time.FixedZone("", 5*3600+30*60)),
	time.Date(1999, 12, 31, 23, 59, 58, 0, time.UTC),
	time.Date(2003, 4, 25, 13, 41, 37, 0, time.FixedZone("", -10*3600)),
}

// dateLayout splits a formatdate format into parts, OpenTofu's verbs and
// literals translated to Go layouts, merged while Go formats the merged
// layout as the parts one by one (checked on layoutProbes). An invalid
// format is the error OpenTofu reports.
func dateLayout(format string) ([]datePart, error) {
	toks, err := dateTokens(format)
	if err != nil {
		return nil, err
	}
	var parts []datePart
	for _, t := range toks {
		p := datePart{literal: t.literal}
		if t.verb != "" {
			l, ok := goLayouts[t.verb]
			if !ok && t.verb != "h" && t.verb != "ZZZ" {
				if why, known := verbErrors[t.verb[0]]; known {
					return nil, fmt.Errorf("invalid date format verb %q: %s", t.verb, why)
				}
				return nil, fmt.Errorf("invalid date format verb %q", t.verb)
			}
			p = datePart{layout: l, verb: t.verb}
		} else if sameLayout(t.literal, t.literal) {
			// Text that Go writes as it is in a layout.
			p = datePart{layout: t.literal}
		}
		if n := len(parts); n > 0 && parts[n-1].layout != "" && p.layout != "" {
			merged := parts[n-1].layout + p.layout
			if formatsAs(merged, parts[n-1].layout, p.layout) {
				parts[n-1].layout = merged
				parts[n-1].verb = ""
				continue
			}
		}
		parts = append(parts, p)
	}
	// A part that is only literal text is written as a string.
	for i, p := range parts {
		if p.layout != "" && p.verb == "" && sameLayout(p.layout, p.layout) {
			parts[i] = datePart{literal: p.layout}
		}
	}
	return parts, nil
}

// sameLayout reports whether Go formats every probe with layout as want.
func sameLayout(layout, want string) bool {
	for _, t := range layoutProbes {
		if t.Format(layout) != want {
			return false
		}
	}
	return true
}

// formatsAs reports whether Go formats every probe with merged as with a,
// then b.
func formatsAs(merged, a, b string) bool {
	for _, t := range layoutProbes {
		if t.Format(merged) != t.Format(a)+t.Format(b) {
			return false
		}
	}
	return true
}

// dateToken is a verb (a run of one letter) or literal text of a format.
type dateToken struct{ verb, literal string }

// dateTokens reads a formatdate format as OpenTofu does: runs of one
// letter are verbs, text between single quotes is literal (” is a
// quote), anything else is literal.
func dateTokens(format string) ([]dateToken, error) {
	var toks []dateToken
	isLetter := func(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
	for i := 0; i < len(format); {
		b := format[i]
		switch {
		case b == '\'':
			if i+1 < len(format) && format[i+1] == '\'' {
				toks = append(toks, dateToken{literal: "'"})
				i += 2
				continue
			}
			// The literal ends at the first quote not doubled, or at the
			// end of the format; it must end with a quote.
			j := i + 1
			for ; j < len(format); j++ {
				if format[j] == '\'' {
					if j+1 < len(format) && format[j+1] == '\'' {
						j++
						continue
					}
					break
				}
			}
			if j >= len(format) {
				j = len(format) - 1
			}
			if j == i || format[j] != '\'' {
				return nil, fmt.Errorf("unterminated literal '")
			}
			// Its text is what is between the quotes, with the quote
			// after each quote dropped.
			var lit strings.Builder
			raw := format[i+1 : j]
			for k := 0; k < len(raw); k++ {
				lit.WriteByte(raw[k])
				if raw[k] == '\'' {
					k++
				}
			}
			toks = append(toks, dateToken{literal: lit.String()})
			i = j + 1
		case isLetter(b):
			j := i
			for j < len(format) && format[j] == b {
				j++
			}
			toks = append(toks, dateToken{verb: format[i:j]})
			i = j
		default:
			j := i
			for j < len(format) && format[j] != '\'' && !isLetter(format[j]) {
				j++
			}
			toks = append(toks, dateToken{literal: format[i:j]})
			i = j
		}
	}
	return toks, nil
}
