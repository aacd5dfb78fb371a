package convert

import (
	"cuelang.org/go/cue/ast"
	"github.com/zclconf/go-cty/cty"
)

// numericFuncs are OpenTofu's functions on numbers. OpenTofu computes log
// and pow in float64; the library rounds their results the same way.
var numericFuncs = map[string]function{
	"abs":   {how: byStdlib, note: "`math.Abs(x)`", conv: stdCall("math", "Abs", 1)},
	"ceil":  {how: byStdlib, note: "`math.Ceil(x)`", conv: stdCall("math", "Ceil", 1)},
	"floor": {how: byStdlib, note: "`math.Floor(x)`", conv: stdCall("math", "Floor", 1)},
	"log": {how: byLibrary, note: "`tofu.#log`: ln(x)/ln(base) computed on float64 values, as OpenTofu does, so that log(1000, 10) is 2.9999999999999996 in both",
		conv: libCall("log", 2, 2)},
	"max": {how: byStdlib, note: "`list.Max([a, b])`", conv: func(cl *call) ast.Expr {
		if len(cl.args) == 0 {
			return cl.fail("max takes at least one argument.")
		}
		return cl.std("list", "Max", cl.argList())
	}},
	"min": {how: byStdlib, note: "`list.Min([a, b])`", conv: func(cl *call) ast.Expr {
		if len(cl.args) == 0 {
			return cl.fail("min takes at least one argument.")
		}
		return cl.std("list", "Min", cl.argList())
	}},
	"parseint": {how: byStdlib, note: "`strconv.ParseInt(s, base, 0)`: Go's big integer parsing, as OpenTofu's; `tofu.#parseint` checks a base that is not a literal (2 to 62)", conv: func(cl *call) ast.Expr {
		if !cl.arity(2, 2) {
			return cl.fail("parseint takes two arguments.")
		}
		if v, ok := constValue(cl.src[1]); ok && v.Type() == cty.Number {
			b, acc := v.AsBigFloat().Int64()
			if acc != 0 || b < 2 || b > 62 {
				return cl.fail("The base must be a whole number between 2 and 62.")
			}
			return cl.std("strconv", "ParseInt", cl.strArg(0), cl.args[1], intLit(0))
		}
		return cl.lib("parseint", cl.strArg(0), cl.intArg(1))
	}},
	"pow":    {how: byLibrary, note: "`tofu.#pow`: `math.Pow(x, y)` rounded to float64, as OpenTofu computes it, and 1 for `pow(0, 0)`, which CUE's `math.Pow` refuses; a result that is not a whole number may differ from Go's in the last binary digit", conv: libCall("pow", 2, 2)},
	"signum": {how: byLibrary, note: "`tofu.#signum`: -1, 0 or 1", conv: libCall("signum", 1, 1)},
}
