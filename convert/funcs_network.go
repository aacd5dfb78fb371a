package convert

import (
	"strconv"

	"cuelang.org/go/cue/ast"
)

// networkFuncs are OpenTofu's CIDR functions, written in the tofu library
// (lib/net.cue) with exact integer arithmetic on IPv4 and IPv6 addresses.
var networkFuncs = map[string]function{
	"cidrsubnet": {how: byLibrary, note: "`tofu.#cidrsubnet`: the prefix extended by newbits bits set to netnum, IPv4 and IPv6; out of range is an error",
		conv: fixedLibCall("cidrsubnet", 3, 3)},
	"cidrsubnets": {how: byLibrary, note: "`tofu.#cidrsubnets`: consecutive aligned subnets, as OpenTofu allocates them",
		conv: func(cl *call) ast.Expr {
			if len(cl.args) == 0 {
				return cl.fail("cidrsubnets takes a prefix and any number of newbits.")
			}
			return cl.c.libList("cidrsubnets", cl.argList())
		}},
	"cidrhost": {how: byLibrary, note: "`tofu.#cidrhost`: host number n of the network; a negative n counts back from the last address",
		conv: fixedLibCall("cidrhost", 2, 2)},
	"cidrnetmask": {how: byLibrary, note: "`tofu.#cidrnetmask`: the dotted mask of an IPv4 network",
		conv: fixedLibCall("cidrnetmask", 1, 1)},
	"cidrcontains": {how: byLibrary, note: "`tofu.#cidrcontains`: whether an address or network lies in a network of the same family",
		conv: fixedLibCall("cidrcontains", 2, 2)},
}

// fixedLibCall converts a call of a function with lo to hi arguments, none
// expanded, to the tofu library's definition name.
func fixedLibCall(name string, lo, hi int) func(*call) ast.Expr {
	return func(cl *call) ast.Expr {
		if !cl.arity(lo, hi) {
			return cl.fail(arityDetail(cl.name, lo, hi))
		}
		return cl.lib(name, cl.args...)
	}
}

// arityDetail says how many arguments a function takes.
func arityDetail(name string, lo, hi int) string {
	switch {
	case lo == 0 && hi == 0:
		return name + " takes no arguments."
	case lo == 1 && hi == 1:
		return name + " takes one argument."
	case lo == hi:
		return name + " takes " + strconv.Itoa(lo) + " arguments."
	case hi < 0:
		return name + " takes at least " + strconv.Itoa(lo) + " arguments."
	}
	return name + " takes " + strconv.Itoa(lo) + " to " + strconv.Itoa(hi) + " arguments."
}
