package convert

import (
	"strings"

	"cuelang.org/go/cue/ast"
)

// fileNote is the note of the functions that read files.
const fileNote = "worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are; also inside a for expression over such values (a fileset); otherwise not converted"

// filesystemFuncs are OpenTofu's path and file functions. Files are read
// when converting, with OpenTofu's own functions, and their contents (or
// digests) written as CUE literals.
var filesystemFuncs = map[string]function{
	"basename": {how: byStdlib, note: "`path.Base(p, path.Unix)`", result: kindString, conv: pathFunc("Base")},
	"dirname":  {how: byStdlib, note: "`path.Dir(p, path.Unix)`", result: kindString, conv: pathFunc("Dir")},
	"abspath":  {how: notConverted, note: "the result depends on the directory OpenTofu runs in"},
	"pathexpand": {how: byLibrary, note: "`tofu.#pathexpand`: a path not starting with ~ is itself; one starting with ~ is an error when evaluated (the home directory is the machine's), and a constant one is not converted", result: kindString,
		conv: func(cl *call) ast.Expr {
			if !cl.arity(1, 1) {
				return cl.fail(arityDetail(cl.name, 1, 1))
			}
			if p, _, ok := cl.c.constString(cl.src[0]); ok {
				if strings.HasPrefix(p, "~") {
					return cl.fail("pathexpand is not converted for a path that starts with ~: the home directory is the machine's.")
				}
				return stringLit(p)
			}
			return cl.lib("pathexpand", cl.strArg(0))
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
	"templatefile":     {how: byConversion, note: "worked out at conversion when the path and the variables are constants; with other variables, the template, read at conversion (only inside the module directory) when its path is known then, becomes a CUE expression over the variables (`tofu.#template` checks them); a template that calls itself is not converted", conv: convTemplateFile},
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
		why := cl.name + " is converted only when its path is known when converting (a constant, or built from path.module and local values that are): the file is read then."
		if len(cl.src) > 0 {
			why += cl.c.runtimeReason(cl.src[0])
		}
		return cl.foldOr(why)
	}}
}
