package convert

import "cuelang.org/go/cue/ast"

// dateFuncs are OpenTofu's time functions.
var dateFuncs = map[string]function{
	"timestamp": {how: unknownAtPlan, note: "`string`: the time the plan is applied", result: kindString,
		conv: unknownString(0, 0)},
	"plantimestamp": {how: unknownAtPlan, note: "`string`: the time the plan is made", result: kindString,
		conv: unknownString(0, 0)},
	"formatdate": {how: byConversion, note: "worked out at conversion when its arguments are constants; otherwise not converted: CUE's time package has no unpadded 24-hour hour and no formatting in the timestamp's own offset by OpenTofu's format letters", result: kindString,
		conv: func(cl *call) ast.Expr {
			return cl.foldOr("formatdate is converted only when its arguments are constants: CUE's time package cannot format by OpenTofu's format letters.")
		}},
	"timeadd": {how: byConversion, note: "worked out at conversion when its arguments are constants; otherwise not converted: CUE's time package cannot add a duration and keep the timestamp's offset", result: kindString,
		conv: func(cl *call) ast.Expr {
			return cl.foldOr("timeadd is converted only when its arguments are constants: CUE's time package cannot add a duration to a timestamp.")
		}},
	"timecmp": {how: byConversion, note: "worked out at conversion when its arguments are constants; otherwise not converted: CUE's time package compares only within 1678-2262 (nanoseconds in 64 bits)", result: kindInt,
		conv: func(cl *call) ast.Expr {
			return cl.foldOr("timecmp is converted only when its arguments are constants.")
		}},
}
