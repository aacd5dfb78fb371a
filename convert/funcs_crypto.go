package convert

import "cuelang.org/go/cue/ast"

// cryptoFuncs are OpenTofu's hash and random functions.
var cryptoFuncs = map[string]function{
	"md5":          hashFunc("md5", "Sum", "hex"),
	"sha1":         hashFunc("sha1", "Sum", "hex"),
	"sha256":       hashFunc("sha256", "Sum256", "hex"),
	"sha512":       hashFunc("sha512", "Sum512", "hex"),
	"base64sha256": hashFunc("sha256", "Sum256", "base64"),
	"base64sha512": hashFunc("sha512", "Sum512", "base64"),
	"bcrypt": {how: unknownAtPlan, note: "`string`: a random salt makes every hash different",
		conv: unknownString(1, 2)},
	"uuid": {how: unknownAtPlan, note: "`string`: a random UUID",
		conv: unknownString(0, 0)},
	"uuidv5": {how: byLibrary, note: "`tofu.#uuidv5`: `uuid.SHA1` with the named namespaces dns, url, oid and x500",
		conv: fixedLibCall("uuidv5", 2, 2)},
	"rsadecrypt": {how: byConversion, note: "worked out at conversion when its arguments are constants; otherwise not converted: CUE has no RSA",
		conv: func(cl *call) ast.Expr {
			return cl.foldOr("CUE has no RSA: rsadecrypt is converted only when its arguments are constants.")
		}},
}

// hashFunc is a hash function of a string: the digest of its UTF-8 bytes
// in hex or Base64.
func hashFunc(pkg, sum, enc string) function {
	note := "`hex.Encode(" + pkg + "." + sum + "(s))`"
	if enc == "base64" {
		note = "`base64.Encode(null, " + pkg + "." + sum + "(s))`"
	}
	return function{how: byStdlib, note: note, conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail(arityDetail(cl.name, 1, 1))
		}
		digest := cl.std(pkg, sum, cl.args[0])
		if enc == "base64" {
			return cl.std("base64", "Encode", ast.NewNull(), digest)
		}
		return cl.std("hex", "Encode", digest)
	}}
}

// unknownString converts a call whose result is a string not known until
// apply: CUE's type string, the form of an unknown string.
func unknownString(lo, hi int) func(*call) ast.Expr {
	return func(cl *call) ast.Expr {
		if !cl.arity(lo, hi) {
			return cl.fail(arityDetail(cl.name, lo, hi))
		}
		return ident("string")
	}
}
