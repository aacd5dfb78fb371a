package convert

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"

	"github.com/tofucue/tofucue/cueform"
)

// fileNote is the note of the functions that read files.
const fileNote = "worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)"

// filesystemFuncs are OpenTofu's path and file functions. Files are read
// when converting, with OpenTofu's own functions, and their contents (or
// digests) written as CUE literals.
var filesystemFuncs = map[string]function{
	"basename": {how: byStdlib, note: "`path.Base(p, path.Unix)`", conv: pathFunc("Base")},
	"dirname":  {how: byStdlib, note: "`path.Dir(p, path.Unix)`", conv: pathFunc("Dir")},
	"abspath":  {how: notConverted, note: "the result depends on the directory OpenTofu runs in"},
	"pathexpand": {how: byLibrary, note: "`tofu.#pathexpand`: a path not starting with ~ is itself; ~ and ~/... are joined to the home directory, `_home` in tofu_context.cue, which the engine sets to the machine's as OpenTofu uses it (`cue export -t home=DIR`); ~user is an error",
		conv: func(cl *call) ast.Expr {
			if !cl.arity(1, 1) {
				return cl.fail(arityDetail(cl.name, 1, 1))
			}
			if p, _, ok := cl.c.constString(cl.src[0]); ok {
				switch {
				case !strings.HasPrefix(p, "~"):
					return stringLit(p)
				case len(p) > 1 && p[1] != '/' && p[1] != '\\':
					return cl.fail("OpenTofu reports an error for this call: cannot expand user-specific home dir.")
				}
				cl.c.usesHome = true
				return cl.std("path", "Join", list(ident(homeRoot), stringLit(p[1:])), selector(ident("path"), "Unix"))
			}
			cl.c.usesHome = true
			return cl.lib("pathexpand", cl.strArg(0), ident(homeRoot))
		}},
	"file":             fileFunc(fileContent),
	"fileexists":       fileFunc(fileExists),
	"fileset":          {how: byConversion, note: fileNote, conv: convFileset},
	"filebase64":       fileFunc(func(cl *call, content ast.Expr) ast.Expr { return cl.std("base64", "Encode", ast.NewNull(), content) }),
	"filebase64sha256": fileFunc(fileDigest("sha256", "Sum256", "base64")),
	"filebase64sha512": fileFunc(fileDigest("sha512", "Sum512", "base64")),
	"filemd5":          fileFunc(fileDigest("md5", "Sum", "hex")),
	"filesha1":         fileFunc(fileDigest("sha1", "Sum", "hex")),
	"filesha256":       fileFunc(fileDigest("sha256", "Sum256", "hex")),
	"filesha512":       fileFunc(fileDigest("sha512", "Sum512", "hex")),
	"templatefile":     {how: byConversion, note: "worked out at conversion when the path and the variables are constants; with other variables, the template, read at conversion (only inside the module directory) when its path is known then, becomes a CUE expression over the variables (`tofu.#template` checks them); with a path known only when planning, each file the path can name (its constant parts, a map of paths indexed by an input, else every file of the root module's directory ending as the path does; a constant part may name a template beside a called module, outside the root module's directory but inside the one that holds the tree's modules) is converted once into `_templates` in tofu_files.cue, keyed by its path from the root module's directory, and the call selects one, `(_templates[path.Clean(p, path.Unix)] & {#vars: VARS}).out`; a template that calls itself is not converted", conv: convTemplateFile},
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

// fileFunc is a function that reads files: worked out at conversion when
// its path is known then, and otherwise read from the module's files as
// the converted module embeds them (see fileRef); read makes the result
// of the file's content (text, or bytes when it is not UTF-8).
func fileFunc(read func(cl *call, content ast.Expr) ast.Expr) function {
	return function{how: byConversion, note: fileNote, conv: func(cl *call) ast.Expr {
		if x, done := cl.fileFold(1, 1); done {
			return x
		}
		if why := cl.c.outsideRoot(cl.src[0]); why != "" {
			return cl.fail(why)
		}
		return read(cl, cl.c.fileRef(cueform.Files, cl.strArg(0), cl.rng))
	}}
}

// fileContent is file(p): the file's text; a file that is not UTF-8 is
// embedded as bytes, which are not a string (OpenTofu's error).
func fileContent(_ *call, content ast.Expr) ast.Expr {
	return binary(token.AND, content, ident("string"))
}

// fileDigest is a file hash function: hex or base64 of pkg.sum of the
// file's bytes.
func fileDigest(pkg, sum, enc string) func(*call, ast.Expr) ast.Expr {
	return func(cl *call, content ast.Expr) ast.Expr {
		digest := cl.std(pkg, sum, content)
		if enc == "base64" {
			return cl.std("base64", "Encode", ast.NewNull(), digest)
		}
		return cl.std("hex", "Encode", digest)
	}
}

// fileExists is fileexists(p): whether the module's files have p.
func fileExists(cl *call, content ast.Expr) ast.Expr {
	ix := content.(*ast.IndexExpr)
	names := &ast.ListLit{Elts: []ast.Expr{&ast.Comprehension{
		Clauses: []ast.Clause{&ast.ForClause{Key: ident("k"), Value: ident("_"), Source: ix.X}},
		Value:   &ast.StructLit{Elts: []ast.Decl{&ast.EmbedDecl{Expr: ident("k")}}},
	}}}
	return cl.std("list", "Contains", names, ix.Index)
}

// convFileset is fileset(dir, pattern): worked out at conversion when both
// are known then; otherwise, for a constant pattern, tofu.#fileset over
// the module's files as the converted module embeds them, with the
// pattern made a regular expression (globRegexp).
func convFileset(cl *call) ast.Expr {
	if x, done := cl.arityFold(2, 2); done {
		return x
	}
	pattern, _, ok := cl.c.constString(cl.src[1])
	if !ok {
		return cl.fail("fileset is converted only when its path is known when converting (a constant, or built from path.module and local values that are), or its pattern is: the files are read then." + cl.c.runtimeReason(cl.src[1]))
	}
	if why := cl.c.outsideRoot(cl.src[0]); why != "" {
		return cl.fail(why)
	}
	re, why, ok := globRegexp(pattern)
	if !ok {
		return cl.fail(fmt.Sprintf("fileset's pattern %q is not converted: %s.", pattern, why))
	}
	return cl.lib("fileset", cl.c.fileTable(cueform.Files, cl.rng), cl.strArg(0), stringLit(re))
}
