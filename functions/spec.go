package functions

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-cty-funcs/collection"
	"github.com/hashicorp/go-cty-funcs/crypto"
	"github.com/hashicorp/go-cty-funcs/encoding"
	"github.com/hashicorp/go-cty-funcs/uuid"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Spec is what one built-in function means, the one description every
// consumer reads: the planners call its implementation ([Table]); the
// converter takes its result's kind, its phase and whether it reads files;
// the mock providers take what it needs of its arguments as hints for the
// types of attributes passed to it; input synthesis takes the forms of its
// string arguments; the rules take which arguments it looks inside.
//
// How a function is written in CUE is the converter's, in package convert,
// whose table has exactly the functions [Specs] lists (a test there says
// so).
type Spec struct {
	// Name is the function's name, without OpenTofu's "core::" namespace.
	Name string
	// Source is where the implementation comes from: "go-cty stdlib",
	// "go-cty-funcs crypto" (encoding, collection, uuid), "go-cty-yaml",
	// "hcl ext/tryfunc" or "written here".
	Source string
	// Phase is when the result is known.
	Phase Phase
	// ReadsFiles is set for the functions that read the module's files.
	ReadsFiles bool
	// ConsoleOnly is set for type, which OpenTofu offers only in its
	// console.
	ConsoleOnly bool
	// Result is the kind of the result, where the function fixes it
	// whatever its arguments; Any where it depends on them.
	Result Kind
	// Args is what the function needs of its arguments, argument by
	// argument; an argument no Arg covers is taken as any value as it is.
	Args []Arg
	// Converts is set for the conversion functions (tostring, tolist,
	// ...): they take any value and convert it to the kind of their Args,
	// rather than needing it to be of that kind already.
	Converts bool
	// Passes is what of its arguments the result is.
	Passes Passes
	// TypeFromValues is set where the result's type, or whether the
	// function takes its arguments at all, depends on their values and
	// not on their types alone: a lookup in an object, regex's groups,
	// format's verbs, a decoder's document. A check from the arguments'
	// types alone cannot refuse such a call.
	TypeFromValues bool

	impl func(*env) function.Function
}

// Phase is when a function's result is known.
type Phase uint8

const (
	// Now is known whenever the arguments are.
	Now Phase = iota
	// Plan is known once a plan has started (plantimestamp).
	Plan
	// Apply is not known until the plan is applied (bcrypt, timestamp,
	// uuid); with [Options].PlanTime the function returns an unknown
	// value of its result's type.
	Apply
)

func (p Phase) String() string {
	return [...]string{"known now", "known at plan", "known after apply"}[p]
}

// Kind is the kind of value a function takes or gives.
type Kind uint8

const (
	// Any value.
	Any Kind = iota
	// String is a string.
	String
	// Number is a number.
	Number
	// Integer is a number the function makes whole (floor, length).
	Integer
	// Bool is a bool.
	Bool
	// List is a list, tuple or set.
	List
	// Set is a set: a result that is always one.
	Set
	// Map is a map or object.
	Map
	// Sized is a string or a collection: what length takes.
	Sized
)

func (k Kind) String() string {
	return [...]string{"any", "string", "number", "integer", "bool", "list", "set", "map", "string or collection"}[k]
}

// KindOf is the kind of the values of type ty: Any for a type not known
// (cty.DynamicPseudoType) or a capsule.
func KindOf(ty cty.Type) Kind {
	switch {
	case ty == cty.String:
		return String
	case ty == cty.Number:
		return Number
	case ty == cty.Bool:
		return Bool
	case ty.IsSetType():
		return Set
	case ty.IsListType(), ty.IsTupleType():
		return List
	case ty.IsMapType(), ty.IsObjectType():
		return Map
	}
	return Any
}

// Form is a shape a string argument must have for the call to succeed.
type Form uint8

const (
	// NoForm is any string.
	NoForm Form = iota
	// CIDR is an IP address or a CIDR prefix.
	CIDR
	// Timestamp is an RFC 3339 timestamp.
	Timestamp
	// Document is JSON or YAML.
	Document
	// Base64 is base64-encoded bytes.
	Base64
	// NumberText is a number written as a string.
	NumberText
	// BoolText is "true" or "false".
	BoolText
)

func (f Form) String() string {
	return [...]string{"none", "CIDR", "timestamp", "JSON or YAML", "base64", "number text", "bool text"}[f]
}

// Examples are strings of the form, as input synthesis tries them.
func (f Form) Examples() []string {
	switch f {
	case CIDR:
		return []string{"10.0.0.0/16", "10.0.0.1"}
	case Document:
		return []string{"{}"}
	case Base64:
		return []string{"ZXhhbXBsZQ=="}
	case Timestamp:
		return []string{"2024-01-01T00:00:00Z"}
	case NumberText:
		return []string{"1"}
	case BoolText:
		return []string{"true"}
	}
	return nil
}

// Arg is what a function needs of some of its arguments.
type Arg struct {
	// First and Last are the arguments' indexes; Last is -1 for every
	// argument from First on.
	First, Last int
	// Kind is the kind of value the function needs there, and looks at
	// as such: a string's characters, a collection's elements or keys, a
	// number's value.
	Kind Kind
	// Form is the shape a string there must have.
	Form Form
	// Elements is set where the function also needs the elements of the
	// collection (or of an expanded argument) to be of one kind, or looks
	// inside them: flatten, sort, sum, join, max.
	Elements bool
}

// Passes is what of its arguments a function's result is.
type Passes uint8

const (
	// PassesNone is a value of its own.
	PassesNone Passes = iota
	// PassesArg is the first argument as it is, marks aside
	// (sensitive), or its elements in another collection or order
	// (distinct, tolist, sort): what an element of the result has, an
	// element of the argument has.
	PassesArg
	// PassesElement is an element of the first argument (one, element).
	PassesElement
	// PassesAnyArg is one of the arguments as it is: the first that
	// does not fail (try), or is not null or empty (coalesce).
	PassesAnyArg
	// PassesElements is a collection of the arguments' elements (merge,
	// concat).
	PassesElements
)

// Arg returns what the function needs of its argument i: its Arg, or
// one of Kind Any.
func (s Spec) Arg(i int) Arg {
	for _, a := range s.Args {
		if i >= a.First && (a.Last < 0 || i <= a.Last) {
			return a
		}
	}
	return Arg{First: i, Last: i}
}

// Inspects is whether the function looks inside its argument i, or needs
// it to be of one kind: a value of type any given there is inspected.
// The conversion functions look at nothing: they convert.
func (s Spec) Inspects(i int) bool {
	return !s.Converts && s.Arg(i).Kind != Any
}

// Static is whether static expressions (a module's source and version)
// may call the function: its result is known from its arguments alone.
func (s Spec) Static() bool {
	return s.Phase == Now && !s.ReadsFiles && !s.ConsoleOnly
}

// NotNull is whether OpenTofu knows the result is not null while an
// argument is not known yet: the implementation's unknown result is
// refined so.
func (s Spec) NotNull() bool {
	return notNullResults()[s.Name]
}

// Forms are the forms of the function's string arguments.
func (s Spec) Forms() []Form {
	var fs []Form
	for _, a := range s.Args {
		if a.Form != NoForm && !slices.Contains(fs, a.Form) {
			fs = append(fs, a.Form)
		}
	}
	return fs
}

// Lookup returns the spec of the built-in function name ("core::" aside).
func Lookup(name string) (Spec, bool) {
	i, ok := slices.BinarySearchFunc(specs, name, func(s Spec, n string) int { return strings.Compare(s.Name, n) })
	if !ok {
		return Spec{}, false
	}
	return specs[i], true
}

// Specs returns the spec of every built-in function, sorted by name.
func Specs() []Spec { return slices.Clone(specs) }

// notNullResults works out NotNull once, from the implementations: each
// called with unknown arguments of its parameters' types, where a
// parameter of any type takes, in turn, a string, a list and a map of
// strings, until the call gives a result of a known type.
var notNullResults = sync.OnceValue(func() map[string]bool {
	t := Table(Options{PlanTime: true})
	out := map[string]bool{}
	for _, s := range specs {
		f := t[s.Name]
		for _, any := range []cty.Type{cty.String, cty.List(cty.String), cty.Map(cty.String)} {
			param := func(ty cty.Type) cty.Value {
				if ty == cty.DynamicPseudoType {
					ty = any
				}
				return cty.UnknownVal(ty)
			}
			var args []cty.Value
			for _, p := range f.Params() {
				args = append(args, param(p.Type))
			}
			if vp := f.VarParam(); vp != nil && len(args) == 0 {
				args = append(args, param(vp.Type))
			}
			v, err := f.Call(args)
			if err != nil || v.Type() == cty.DynamicPseudoType {
				continue
			}
			v, _ = v.Unmark()
			out[s.Name] = !v.IsKnown() && !v.Range().CouldBeNull()
			break
		}
	}
	return out
})

// env is what the implementations of a table share.
type env struct {
	files *files
	// table is the table being built, which the template functions read
	// when they are called.
	table map[string]function.Function
}

// Where the implementations come from.
const (
	goCty      = "go-cty stdlib"
	ctyFuncs   = "go-cty-funcs "
	ctyYAML    = "go-cty-yaml"
	hclTryfunc = "hcl ext/tryfunc"
	here       = "written here"
)

// fixed is an implementation that does not depend on the table.
func fixed(f function.Function) func(*env) function.Function {
	return func(*env) function.Function { return f }
}

// one is an Arg for argument i.
func one(i int, k Kind) Arg { return Arg{First: i, Last: i, Kind: k} }

// span is an Arg for arguments first to last (-1: to the end).
func span(first, last int, k Kind) Arg { return Arg{First: first, Last: last, Kind: k} }

// shaped is an Arg for string arguments first to last of form f.
func shaped(first, last int, f Form) Arg {
	return Arg{First: first, Last: last, Kind: String, Form: f}
}

// elems is a with Elements set.
func elems(a Arg) Arg { a.Elements = true; return a }

func args(a ...Arg) []Arg { return a }

// specs is every built-in function OpenTofu documents (provider-defined
// functions aside), sorted by name.
var specs = []Spec{
	{Name: "abs", Source: goCty, Result: Number, Args: args(one(0, Number)), impl: fixed(stdlib.AbsoluteFunc)},
	{Name: "abspath", Source: here, Result: String, Args: args(one(0, String)), impl: func(e *env) function.Function { return e.files.absPathFunc() }},
	{Name: "alltrue", Source: here, Result: Bool, Args: args(elems(one(0, List))), impl: fixed(allTrueFunc)},
	{Name: "anytrue", Source: here, Result: Bool, Args: args(elems(one(0, List))), impl: fixed(anyTrueFunc)},
	{Name: "base64decode", Source: here, Result: String, Args: args(shaped(0, 0, Base64)), impl: fixed(base64DecodeFunc)},
	{Name: "base64encode", Source: ctyFuncs + "encoding", Result: String, Args: args(one(0, String)), impl: fixed(notNull(encoding.Base64EncodeFunc))},
	{Name: "base64gunzip", Source: here, Result: String, Args: args(one(0, String)), impl: fixed(base64GunzipFunc)},
	{Name: "base64gzip", Source: here, Result: String, Args: args(one(0, String)), impl: fixed(base64GzipFunc)},
	{Name: "base64sha256", Source: here, Result: String, Args: args(one(0, String)), impl: fixed(base64SHA256Func)},
	{Name: "base64sha512", Source: here, Result: String, Args: args(one(0, String)), impl: fixed(base64SHA512Func)},
	{Name: "basename", Source: here, Result: String, Args: args(one(0, String)), impl: fixed(basenameFunc)},
	{Name: "bcrypt", Source: ctyFuncs + "crypto", Phase: Apply, Result: String, Args: args(one(0, String), one(1, Number)), impl: fixed(notNull(crypto.BcryptFunc))},
	{Name: "can", Source: hclTryfunc, Result: Bool, impl: fixed(tryfunc.CanFunc)},
	{Name: "ceil", Source: goCty, Result: Integer, Args: args(one(0, Number)), impl: fixed(stdlib.CeilFunc)},
	{Name: "chomp", Source: goCty, Result: String, Args: args(one(0, String)), impl: fixed(stdlib.ChompFunc)},
	{Name: "chunklist", Source: goCty, Result: List, Args: args(one(0, List), one(1, Number)), impl: fixed(stdlib.ChunklistFunc)},
	{Name: "cidrcontains", Source: here, Result: Bool, Args: args(shaped(0, 1, CIDR)), impl: fixed(cidrContainsFunc)},
	{Name: "cidrhost", Source: here, Result: String, Args: args(shaped(0, 0, CIDR), one(1, Number)), impl: fixed(cidrHostFunc)},
	{Name: "cidrnetmask", Source: here, Result: String, Args: args(shaped(0, 0, CIDR)), impl: fixed(cidrNetmaskFunc)},
	{Name: "cidrsubnet", Source: here, Result: String, Args: args(shaped(0, 0, CIDR), span(1, 2, Number)), impl: fixed(cidrSubnetFunc)},
	{Name: "cidrsubnets", Source: here, Result: List, Args: args(shaped(0, 0, CIDR), span(1, -1, Number)), impl: fixed(cidrSubnetsFunc)},
	{Name: "coalesce", Source: ctyFuncs + "collection", Passes: PassesAnyArg, impl: fixed(notNull(collection.CoalesceFunc))},
	{Name: "coalescelist", Source: goCty, Result: List, Args: args(span(0, -1, List)), impl: fixed(stdlib.CoalesceListFunc)},
	{Name: "compact", Source: goCty, Result: List, Args: args(elems(one(0, List))), impl: fixed(stdlib.CompactFunc)},
	{Name: "concat", Source: goCty, Result: List, Args: args(span(0, -1, List)), Passes: PassesElements, impl: fixed(stdlib.ConcatFunc)},
	{Name: "contains", Source: goCty, Result: Bool, Args: args(one(0, List)), impl: fixed(stdlib.ContainsFunc)},
	{Name: "csvdecode", TypeFromValues: true, Source: goCty, Result: List, Args: args(one(0, String)), impl: fixed(stdlib.CSVDecodeFunc)},
	{Name: "dirname", Source: here, Result: String, Args: args(one(0, String)), impl: fixed(dirnameFunc)},
	{Name: "distinct", Source: goCty, Result: List, Args: args(one(0, List)), Passes: PassesArg, impl: fixed(stdlib.DistinctFunc)},
	{Name: "element", TypeFromValues: true, Source: goCty, Args: args(one(0, List), one(1, Number)), Passes: PassesElement, impl: fixed(stdlib.ElementFunc)},
	{Name: "endswith", Source: here, Result: Bool, Args: args(span(0, 1, String)), impl: fixed(endsWithFunc)},
	{Name: "ephemeralasnull", Source: here, Passes: PassesArg, impl: fixed(ephemeralAsNullFunc)},
	{Name: "file", Source: here, ReadsFiles: true, Result: String, Args: args(one(0, String)), impl: func(e *env) function.Function { return e.files.fileFunc(false) }},
	{Name: "filebase64", Source: here, ReadsFiles: true, Result: String, Args: args(one(0, String)), impl: func(e *env) function.Function { return e.files.fileFunc(true) }},
	{Name: "filebase64sha256", Source: here, ReadsFiles: true, Result: String, Args: args(one(0, String)), impl: hashOf(sha256Base64)},
	{Name: "filebase64sha512", Source: here, ReadsFiles: true, Result: String, Args: args(one(0, String)), impl: hashOf(sha512Base64)},
	{Name: "fileexists", Source: here, ReadsFiles: true, Result: Bool, Args: args(one(0, String)), impl: func(e *env) function.Function { return e.files.fileExistsFunc() }},
	{Name: "filemd5", Source: here, ReadsFiles: true, Result: String, Args: args(one(0, String)), impl: hashOf(md5Hex)},
	{Name: "fileset", Source: here, ReadsFiles: true, Result: Set, Args: args(span(0, 1, String)), impl: func(e *env) function.Function { return e.files.fileSetFunc() }},
	{Name: "filesha1", Source: here, ReadsFiles: true, Result: String, Args: args(one(0, String)), impl: hashOf(sha1Hex)},
	{Name: "filesha256", Source: here, ReadsFiles: true, Result: String, Args: args(one(0, String)), impl: hashOf(sha256Hex)},
	{Name: "filesha512", Source: here, ReadsFiles: true, Result: String, Args: args(one(0, String)), impl: hashOf(sha512Hex)},
	{Name: "flatten", Source: goCty, Result: List, Args: args(elems(one(0, List))), impl: fixed(stdlib.FlattenFunc)},
	{Name: "floor", Source: goCty, Result: Integer, Args: args(one(0, Number)), impl: fixed(stdlib.FloorFunc)},
	{Name: "format", TypeFromValues: true, Source: goCty, Result: String, Args: args(one(0, String)), impl: fixed(stdlib.FormatFunc)},
	{Name: "formatdate", Source: goCty, Result: String, Args: args(one(0, String), shaped(1, 1, Timestamp)), impl: fixed(stdlib.FormatDateFunc)},
	{Name: "formatlist", TypeFromValues: true, Source: goCty, Result: List, Args: args(one(0, String)), impl: fixed(stdlib.FormatListFunc)},
	{Name: "indent", Source: goCty, Result: String, Args: args(one(0, Number), one(1, String)), impl: fixed(stdlib.IndentFunc)},
	{Name: "index", TypeFromValues: true, Source: here, Result: Integer, Args: args(one(0, List)), impl: fixed(indexFunc)},
	{Name: "issensitive", Source: here, Result: Bool, impl: fixed(isSensitiveFunc)},
	{Name: "join", Source: goCty, Result: String, Args: args(one(0, String), elems(span(1, -1, List))), impl: fixed(stdlib.JoinFunc)},
	{Name: "jsondecode", TypeFromValues: true, Source: goCty, Args: args(shaped(0, 0, Document)), impl: fixed(shallow(stdlib.JSONDecodeFunc, false))},
	{Name: "jsonencode", Source: goCty, Result: String, impl: fixed(stdlib.JSONEncodeFunc)},
	{Name: "keys", Source: goCty, Result: List, Args: args(one(0, Map)), impl: fixed(stdlib.KeysFunc)},
	{Name: "length", Source: here, Result: Integer, Args: args(one(0, Sized)), impl: fixed(lengthFunc)},
	{Name: "log", Source: goCty, Result: Number, Args: args(span(0, 1, Number)), impl: fixed(stdlib.LogFunc)},
	{Name: "lookup", TypeFromValues: true, Source: here, Args: args(one(0, Map), one(1, String)), impl: fixed(lookupFunc)},
	{Name: "lower", Source: goCty, Result: String, Args: args(one(0, String)), impl: fixed(stdlib.LowerFunc)},
	{Name: "matchkeys", Source: here, Result: List, Args: args(span(0, 2, List)), impl: fixed(matchkeysFunc)},
	{Name: "max", Source: goCty, Result: Number, Args: args(elems(span(0, -1, Number))), impl: fixed(stdlib.MaxFunc)},
	{Name: "md5", Source: ctyFuncs + "crypto", Result: String, Args: args(one(0, String)), impl: fixed(notNull(crypto.Md5Func))},
	{Name: "merge", Source: goCty, Result: Map, Args: args(span(0, -1, Map)), Passes: PassesElements, impl: fixed(stdlib.MergeFunc)},
	{Name: "min", Source: goCty, Result: Number, Args: args(elems(span(0, -1, Number))), impl: fixed(stdlib.MinFunc)},
	{Name: "nonsensitive", Source: here, Passes: PassesArg, impl: fixed(nonsensitiveFunc)},
	{Name: "one", Source: here, Args: args(one(0, List)), Passes: PassesElement, impl: fixed(oneFunc)},
	{Name: "parseint", Source: goCty, Result: Integer, Args: args(shaped(0, 0, NumberText), one(1, Number)), impl: fixed(stdlib.ParseIntFunc)},
	{Name: "pathexpand", Source: here, Result: String, Args: args(one(0, String)), impl: fixed(pathExpandFunc)},
	{Name: "plantimestamp", Source: here, Phase: Plan, Result: String, impl: func(*env) function.Function { return staticTimestampFunc(time.Now()) }},
	{Name: "pow", Source: goCty, Result: Number, Args: args(span(0, 1, Number)), impl: fixed(stdlib.PowFunc)},
	{Name: "range", Source: goCty, Result: List, Args: args(span(0, -1, Number)), impl: fixed(stdlib.RangeFunc)},
	{Name: "regex", TypeFromValues: true, Source: goCty, Args: args(span(0, 1, String)), impl: fixed(stdlib.RegexFunc)},
	{Name: "regexall", TypeFromValues: true, Source: goCty, Result: List, Args: args(span(0, 1, String)), impl: fixed(stdlib.RegexAllFunc)},
	{Name: "replace", Source: here, Result: String, Args: args(span(0, 2, String)), impl: fixed(replaceFunc)},
	{Name: "reverse", Source: goCty, Result: List, Args: args(one(0, List)), Passes: PassesArg, impl: fixed(stdlib.ReverseListFunc)},
	{Name: "rsadecrypt", Source: here, Result: String, Args: args(shaped(0, 0, Base64), one(1, String)), impl: fixed(rsaDecryptFunc)},
	{Name: "sensitive", Source: here, Passes: PassesArg, impl: fixed(sensitiveFunc)},
	{Name: "setintersection", Source: goCty, Result: Set, Args: args(span(0, -1, List)), impl: fixed(stdlib.SetIntersectionFunc)},
	{Name: "setproduct", Source: goCty, Result: List, Args: args(span(0, -1, List)), impl: fixed(stdlib.SetProductFunc)},
	{Name: "setsubtract", Source: goCty, Result: Set, Args: args(span(0, 1, List)), impl: fixed(stdlib.SetSubtractFunc)},
	{Name: "setunion", Source: goCty, Result: Set, Args: args(span(0, -1, List)), impl: fixed(stdlib.SetUnionFunc)},
	{Name: "sha1", Source: ctyFuncs + "crypto", Result: String, Args: args(one(0, String)), impl: fixed(notNull(crypto.Sha1Func))},
	{Name: "sha256", Source: ctyFuncs + "crypto", Result: String, Args: args(one(0, String)), impl: fixed(notNull(crypto.Sha256Func))},
	{Name: "sha512", Source: ctyFuncs + "crypto", Result: String, Args: args(one(0, String)), impl: fixed(notNull(crypto.Sha512Func))},
	{Name: "signum", Source: goCty, Result: Integer, Args: args(one(0, Number)), impl: fixed(stdlib.SignumFunc)},
	{Name: "slice", TypeFromValues: true, Source: goCty, Result: List, Args: args(one(0, List), span(1, 2, Number)), Passes: PassesArg, impl: fixed(stdlib.SliceFunc)},
	{Name: "sort", Source: goCty, Result: List, Args: args(elems(one(0, List))), Passes: PassesArg, impl: fixed(stdlib.SortFunc)},
	{Name: "split", Source: goCty, Result: List, Args: args(span(0, 1, String)), impl: fixed(stdlib.SplitFunc)},
	{Name: "startswith", Source: here, Result: Bool, Args: args(span(0, 1, String)), impl: fixed(startsWithFunc)},
	{Name: "strcontains", Source: here, Result: Bool, Args: args(span(0, 1, String)), impl: fixed(strContainsFunc)},
	{Name: "strrev", Source: goCty, Result: String, Args: args(one(0, String)), impl: fixed(stdlib.ReverseFunc)},
	{Name: "substr", Source: goCty, Result: String, Args: args(one(0, String), span(1, 2, Number)), impl: fixed(stdlib.SubstrFunc)},
	{Name: "sum", Source: here, Result: Number, Args: args(elems(one(0, List))), impl: fixed(sumFunc)},
	{Name: "templatefile", TypeFromValues: true, Source: here, ReadsFiles: true, Args: args(one(0, String), one(1, Map)), impl: func(e *env) function.Function { return e.files.templateFileFunc(e.table, 0) }},
	{Name: "templatestring", TypeFromValues: true, Source: here, Args: args(one(0, String), one(1, Map)), impl: func(e *env) function.Function { return templateStringFunc(e.table) }},
	{Name: "textdecodebase64", Source: here, Result: String, Args: args(shaped(0, 0, Base64), one(1, String)), impl: fixed(textDecodeBase64Func)},
	{Name: "textencodebase64", Source: here, Result: String, Args: args(span(0, 1, String)), impl: fixed(textEncodeBase64Func)},
	{Name: "timeadd", Source: goCty, Result: String, Args: args(shaped(0, 0, Timestamp), one(1, String)), impl: fixed(stdlib.TimeAddFunc)},
	{Name: "timecmp", Source: here, Result: Integer, Args: args(shaped(0, 1, Timestamp)), impl: fixed(timeCmpFunc)},
	{Name: "timestamp", Source: here, Phase: Apply, Result: String, impl: fixed(timestampFunc)},
	{Name: "title", Source: goCty, Result: String, Args: args(one(0, String)), impl: fixed(stdlib.TitleFunc)},
	{Name: "tobool", Source: here, Result: Bool, Converts: true, Args: args(Arg{Kind: Bool, Form: BoolText}), impl: fixed(makeToFunc(cty.Bool))},
	{Name: "tolist", Source: here, Result: List, Converts: true, Args: args(one(0, List)), Passes: PassesArg, impl: fixed(makeToFunc(cty.List(cty.DynamicPseudoType)))},
	{Name: "tomap", Source: here, Result: Map, Converts: true, Args: args(one(0, Map)), Passes: PassesArg, impl: fixed(makeToFunc(cty.Map(cty.DynamicPseudoType)))},
	{Name: "tonumber", Source: here, Result: Number, Converts: true, Args: args(Arg{Kind: Number, Form: NumberText}), impl: fixed(makeToFunc(cty.Number))},
	{Name: "toset", Source: here, Result: Set, Converts: true, Args: args(one(0, List)), Passes: PassesArg, impl: fixed(makeToFunc(cty.Set(cty.DynamicPseudoType)))},
	{Name: "tostring", Source: here, Result: String, Converts: true, Args: args(one(0, String)), impl: fixed(makeToFunc(cty.String))},
	{Name: "transpose", Source: here, Result: Map, Args: args(elems(one(0, Map))), impl: fixed(transposeFunc)},
	{Name: "trim", Source: goCty, Result: String, Args: args(span(0, 1, String)), impl: fixed(stdlib.TrimFunc)},
	{Name: "trimprefix", Source: goCty, Result: String, Args: args(span(0, 1, String)), impl: fixed(stdlib.TrimPrefixFunc)},
	{Name: "trimspace", Source: goCty, Result: String, Args: args(one(0, String)), impl: fixed(stdlib.TrimSpaceFunc)},
	{Name: "trimsuffix", Source: goCty, Result: String, Args: args(span(0, 1, String)), impl: fixed(stdlib.TrimSuffixFunc)},
	{Name: "try", Source: hclTryfunc, Passes: PassesAnyArg, impl: fixed(tryfunc.TryFunc)},
	{Name: "type", Source: here, ConsoleOnly: true, impl: fixed(typeFunc)},
	{Name: "upper", Source: goCty, Result: String, Args: args(one(0, String)), impl: fixed(stdlib.UpperFunc)},
	{Name: "urldecode", Source: here, Result: String, Args: args(one(0, String)), impl: fixed(urlDecodeFunc)},
	{Name: "urlencode", Source: ctyFuncs + "encoding", Result: String, Args: args(one(0, String)), impl: fixed(notNull(encoding.URLEncodeFunc))},
	{Name: "uuid", Source: ctyFuncs + "uuid", Phase: Apply, Result: String, impl: fixed(notNull(uuid.V4Func))},
	{Name: "uuidv5", Source: ctyFuncs + "uuid", Result: String, Args: args(span(0, 1, String)), impl: fixed(notNull(uuid.V5Func))},
	{Name: "values", Source: goCty, Result: List, Args: args(one(0, Map)), impl: fixed(stdlib.ValuesFunc)},
	{Name: "yamldecode", TypeFromValues: true, Source: ctyYAML, Args: args(shaped(0, 0, Document)), impl: fixed(shallow(ctyyaml.YAMLDecodeFunc, true))},
	{Name: "yamlencode", Source: ctyYAML, Result: String, impl: fixed(ctyyaml.YAMLEncodeFunc)},
	{Name: "zipmap", TypeFromValues: true, Source: goCty, Result: Map, Args: args(elems(span(0, 1, List))), impl: fixed(stdlib.ZipmapFunc)},
}

// hashOf is the implementation of a file hash function.
func hashOf(digest func([]byte) string) func(*env) function.Function {
	return func(e *env) function.Function { return e.files.hashFunc(digest) }
}
