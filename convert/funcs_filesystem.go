package convert

import (
	"strings"

	"cuelang.org/go/cue/ast"
	"github.com/zclconf/go-cty/cty"
)

// fileNote is the note of the functions that read files.
const fileNote = "worked out at conversion (the file read then, only inside the module directory) when the path is a constant or under path.module; otherwise not converted"

// filesystemFuncs are OpenTofu's path and file functions. Files are read
// when converting, with OpenTofu's own functions, and their contents (or
// digests) written as CUE literals.
var filesystemFuncs = map[string]function{
	"basename": {how: byStdlib, note: "`path.Base(p, path.Unix)`", result: kindString, conv: pathFunc("Base")},
	"dirname":  {how: byStdlib, note: "`path.Dir(p, path.Unix)`", result: kindString, conv: pathFunc("Dir")},
	"abspath":  {how: notConverted, note: "the result depends on the directory OpenTofu runs in"},
	"pathexpand": {how: byConversion, note: "a constant path not starting with ~ is itself; otherwise not converted: the home directory is the machine's", result: kindString,
		conv: func(cl *call) ast.Expr {
			if cl.arity(1, 1) {
				v, diags := cl.src[0].Value(nil)
				if !diags.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type() == cty.String && !strings.HasPrefix(v.AsString(), "~") {
					return stringLit(v.AsString())
				}
			}
			return cl.fail("pathexpand is converted only for a constant path that does not start with ~: the home directory is the machine's.")
		}},
	"file":             fileFunc(kindString),
	"fileexists":       fileFunc(kindBool),
	"fileset":          fileFunc(kindList),
	"filebase64":       fileFunc(kindString),
	"filebase64sha256": fileFunc(kindString),
	"filebase64sha512": fileFunc(kindString),
	"filemd5":          fileFunc(kindString),
	"filesha1":         fileFunc(kindString),
	"filesha256":       fileFunc(kindString),
	"filesha512":       fileFunc(kindString),
	"templatefile": {how: byConversion, note: "worked out at conversion (the template read then, only inside the module directory) when the path and the variables are constants; otherwise not converted", conv: func(cl *call) ast.Expr {
		return cl.foldOr("templatefile is converted only when its path (a constant or under path.module) and its variables are constants.")
	}},
}

// pathFunc is basename or dirname: the path package's function for Unix
// paths, which splits as OpenTofu does on Unix.
func pathFunc(fn string) func(*call) ast.Expr {
	return func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail(arityDetail(cl.name, 1, 1))
		}
		return cl.std("path", fn, cl.args[0], selector(ident("path"), "Unix"))
	}
}

// fileFunc is a function that reads files, worked out at conversion.
func fileFunc(k kind) function {
	return function{how: byConversion, note: fileNote, result: k, conv: func(cl *call) ast.Expr {
		return cl.foldOr(cl.name + " is converted only when its path is a constant or under path.module: the file is read when converting.")
	}}
}
