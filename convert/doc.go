// Package convert translates an OpenTofu module into CUE annotated with
// attributes, the form of the article "CUE as an OpenTofu language": every
// declaration is a field whose attribute says what it is, so that an
// engine can find inputs, resources and outputs anywhere in the program.
//
// # Names
//
// OpenTofu keeps variables, locals, resources, data sources, module calls
// and outputs in separate namespaces; CUE has one. The converted module
// keeps them apart with one top-level field per namespace, named so that a
// reference reads as it does in HCL:
//
//	var.NAME                  _var_NAME: <schema> @input(NAME)   (a "-" in NAME written "$"; _var: NAME: in a template)
//	local.NAME                _local_NAME: <expr>   (a "-" in NAME written "$")
//	TYPE.NAME                 TYPE: NAME: {...} @resource(TYPE.NAME)
//	resource.TYPE.NAME        resource: TYPE: NAME  (a type that is a reserved name or an opt-in feature's symbol)
//	data.TYPE.NAME            data: TYPE: NAME: {...} @data(TYPE.NAME)
//	ephemeral.TYPE.NAME       ephemeral: TYPE: NAME: {...} @ephemeral(TYPE.NAME)
//	module.NAME.OUT           module: NAME: {let args = {inputs...}, args, _mod: ..., _out: _mod.output} @module(NAME, source=...)
//	output "NAME"             output: NAME: <expr> @output(NAME)
//	provider "P" (alias A)    provider: "P.A": {...} @provider(P.A)
//	path.module               _path.module   (@path, "." by default)
//	terraform.workspace       _workspace     (@workspace, "default" by default)
//	plantimestamp()           _plantimestamp (@plantimestamp, set by the engine)
//	provisioner "T" {...}     _provisioner: [{type: "T", when, on_failure, config, connection}] in the instance
//	file(P), P known at plan  _files[P], _yamlfiles[P] (the module's files, embedded: tofu_files.cue)
//	templatefile(P, V), idem  (_templates[P] & {#vars: V}).out (the templates P can name, converted: tofu_files.cue)
//	pathexpand("~/x")         path.Join([_home, "/x"], path.Unix) (_home: @home, set by the engine)
//
// Inputs and locals are hidden fields, private to the program as in the
// article (_base_cidr_block there), each a field of its own, so that an
// error in one stops only what reads it; a variable and a local of the
// same name never meet. A module
// call's inputs are its fields; the called module, converted with the
// root into a template (see modules.go), is instantiated in the call's
// hidden _mod with them, and its outputs are the call's hidden _out, so
// that an input and an output of the same name do not unify. Inside a
// template, the variables are the fields of _var, which each call
// instance unifies with its arguments, and var.NAME is _var.NAME, or
// _arg.NAME, the argument as the call gives it, where the variable's
// value is that argument (see readsArgument). A module
// that is not available (a registry or remote source neither installed
// nor mapped) is never fetched: its _out is open, so its outputs are not
// known, as the HCL planner takes them. A field label that equals a name the converted
// expressions refer to (a namespace, a resource type, an import such as
// list or strings, a CUE type such as number, a for variable in scope) is
// written quoted: a quoted label names the same field but cannot be
// referred to, so it never shadows. For example
//
//	resource "kubernetes_config_map" "cm" {
//	  data = { number = 1, account = data.aws_caller_identity.me.account_id }
//	}
//
// becomes
//
//	kubernetes_config_map: cm: {
//		"data": {
//			"number": 1
//			account:  data.aws_caller_identity.me.account_id
//		}
//	} @resource(kubernetes_config_map.cm)
//
// # Instances
//
// count and for_each give a multi-instance declaration, marked [*]: a list
// for count and a struct keyed by instance key for for_each. count.index,
// each.key and each.value are the comprehension's own variables (a let
// each = {key: k, value: v} is written only where each is read
// otherwise):
//
//	[for i in list.Range(0, N, 1) {name: "web-\(i)"}]
//	{{}, for k, v in X {(k): {cidr_block: v.cidr, name: k}}}
//
// The {} beside a for comprehension that builds a struct (for_each, a for
// expression in braces, a map converted to its type) is there for
// cuelang.org/go v0.17.1: without it, such a struct built from an empty
// collection reads as _ rather than {} when it reaches a library call.
//
// count = COND ? 1 : 0, nearly every count in practice, is [if COND {...}],
// where count.index is 0.
// lifecycle { enabled = COND } wraps the declaration in if COND {...}.
// Meta-arguments that are not structure (provider, depends_on, lifecycle
// settings, sensitive, ephemeral, nullable, a module's source, version and
// providers) are attribute arguments: @resource(aws_x.y, provider=aws.west,
// depends_on="module.net"). Nested blocks are lists of objects, static and
// dynamic ones of a type together in source order; a dynamic block is a
// list comprehension. A postcondition's self is a let bound to the
// instance's own field (aws_x.y[each.key]), so that it sees the attributes
// the engine fills in. An import block with for_each is a struct keyed by
// instance key, each instance holding its id and its to address with the
// keys worked out.
//
// # Types and validations
//
// Type constraints become CUE schema (see schema): string, number, bool,
// [...T] for list and set, {[string]: T} for map, [A, B] for tuple, _ for
// any, close({a!: T}) for objects, *null | T for an optional attribute and
// *d | T for one with a default. A variable's default is the CUE default;
// a map or object default is closed (*close({...}) | T), so that a value
// given for the variable replaces it instead of adding keys to it.
// A validation condition that CUE states exactly (an enumeration, a
// regular expression, a range, a length) narrows the input's schema; any
// other is kept under _validation with its message for the engine, and
// reported as a warning.
//
// # Expressions and implicit conversions
//
// Expressions keep OpenTofu's meaning. A conditional is
// [if c {a}, if !c {b}][0], which evaluates only the branch taken. So is
// a || b whose right operand could fail, [if a {true}, if !a {b}][0], and
// a && b, [if a {b}, if !a {false}][0]: OpenTofu drops the right
// operand's error where the left decides (var.x == null ||
// length(var.x) == 0), where CUE's operators evaluate both; a || b and
// a && b stay where neither can fail. A comparison with null is
// decided from the operand's kind where the value is not known yet, as
// OpenTofu decides it: a list or map is not null, and so is a template,
// an operator's result or a call of upper, format, length and the like
// (a type or a CUE error while what it reads is not known), while a
// computed attribute compared with null is not known; a string, number or
// bool that can be none of these is compared as it is. A null that an argument of a
// resource may take (a literal, a conditional's branch, try's fallback)
// is a null by default, *null | _, as the engine wants a computed
// attribute that the configuration leaves null: the provider decides it
// on the HCL side, and the engine unifies its value in. A for
// expression is a comprehension; where the order shows and the source may
// be a map, keys are iterated sorted, as OpenTofu does. Templates are CUE
// interpolations; CUE prints strings, integers and booleans as OpenTofu
// does, and a number that may be fractional goes through tofu.#tostring so
// that 10 / 4 prints 2.5 and 4 / 2 prints 2, not 2.0. Other implicit
// conversions (a string "1" used as a number, a number given to a string
// argument) are left to the engine at the resource boundary, where
// OpenTofu does them too; the engine also injects whole numbers as CUE
// ints. Division is CUE's /, whose result is a float: equal in value.
//
// Where the types of an expression's parts are known in full (typeOf:
// constants, input variables' type constraints, the results of
// functions, as OpenTofu's type checking works them out), the converter
// does what OpenTofu's type checking does. The two results of a
// conditional are converted to their unified type ([1, "x"] or ["y"] is a
// list of strings: ["1", "x"]). A tuple or object constructor compared
// with a list, set or map is never equal (var.names == [] is false for a
// list(string)): the constant is written, with a warning. What the type
// check refuses is a CUE error with OpenTofu's message, which fails
// where it is evaluated, as OpenTofu does, with a warning: a set indexed,
// an attribute or constant key an object type lacks, a conditional whose
// results have no common shape, an argument that does not convert to its
// parameter's type or that the function's own type check refuses, and a
// root output computed from a sensitive variable without sensitive =
// true. Inside try and can, such an error is the answer they take.
//
// A value not known while planning is its CUE type (string), and a
// template or a string function that reads one, which CUE's
// interpolation or builtin makes an incomplete error, is written with a
// guard beside it that is string while x is a type,
//
//	"\(x)-logs" | (tofu.#unknown & {#args: [x]}).out
//
// so that it is string too: try and can take an incomplete error for an
// error, as they must for an attribute an object lacks (see unknown.go).
// Only expressions that may read a value not known yet have it: those of
// resources, data sources, modules' outputs that read one, a called
// module's variables that some call passes such a value (one that every
// call leaves out or passes a value known while planning is known: see
// knownvars.go), and locals and iterators built from them.
//
// # Functions
//
// Each OpenTofu function is converted to CUE's standard library where the
// meaning is the same, to a CUE expression, to a definition of the tofu
// package that hcl2cue writes beside the module (pure CUE: convert/lib),
// or, for constant arguments, at conversion time; a function CUE cannot
// express is reported. What is known at conversion time is what OpenTofu
// computes whatever the inputs: constants, path.module and local values
// built from them (evaluated with every input unknown, and with two
// spellings of the module directory that must agree), so that
// file("${local.dir}/x.json") is read then, and so is a for expression
// over fileset that reads every file it lists. A file whose path is known
// only when the module is planned (an input, a for_each key) is read then
// from the files of the root module's directory, which the converted
// module embeds (see files.go):
//
//	_files: {"conf/a.yaml": _ @embed(file="conf/a.yaml", type=text)}
//	file(var.p)                    _files[path.Clean(_var_p, path.Unix)] & string
//	yamldecode(file(var.p))        _yamlfiles[path.Clean(_var_p, path.Unix)]
//	fileset(var.dir, "**/*.yaml")  (tofu.#fileset & {#args: [_files, _var_dir, RE]}).out
//
// templatefile with such a path selects from the templates the path can
// name, each converted once (see template_table.go). A constant path that
// names no file is an error where the call is evaluated, as in OpenTofu.
//
// A template whose variables
// are not constants (templatefile, templatestring) is converted like the
// module's own templates, its names resolved against the variables. The function table below is generated from the
// registry (go test ./convert -run TestFunctionTable -update-doc) and a
// test keeps it true.
//
// # What is not converted
//
// Override files, JSON configuration files and provider-defined functions
// are reported as not converted:
// each is a diagnostic with its source range, and the placeholder
// written in its place is error("hcl2cue: not converted: ..."), which
// stops evaluation there rather than inventing a value.
//
// # Function table
//
// Every OpenTofu function and how it is converted:
//
//   - abs (CUE standard library): `math.Abs(x)`
//   - abspath (not converted): the result depends on the directory OpenTofu runs in
//   - alltrue (tofu library): `tofu.#alltrue`: every element true (or "true"); an empty list is true
//   - anytrue (tofu library): `tofu.#anytrue`: some element true (or "true")
//   - base64decode (tofu library): `tofu.#base64decode`: standard Base64 that must decode to UTF-8; decoded text not in Unicode NFC (OpenTofu normalizes it) stays as decoded
//   - base64encode (CUE standard library): `base64.Encode(null, s)`
//   - base64gunzip (at conversion): worked out at conversion when its argument is a constant; otherwise not converted: CUE has no gzip
//   - base64gzip (at conversion): worked out at conversion when its argument is a constant; otherwise not converted: CUE has no gzip
//   - base64sha256 (CUE standard library): `base64.Encode(null, sha256.Sum256(s))`
//   - base64sha512 (CUE standard library): `base64.Encode(null, sha512.Sum512(s))`
//   - basename (CUE standard library): `path.Base(p, path.Unix)`
//   - bcrypt (unknown at plan): `string`: a random salt makes every hash different
//   - can (CUE expression): `(*x | 'error') != 'error'`: true when x evaluates, false when it is an error, unknown while x is; where x computes with a reference that is a string, number, bool or list not known yet, `[if R {bool}, C][0]`, not known either, as in OpenTofu (try's test of the references); a value computed from one not known yet of another kind by an operator or a function that is not a string one is false, where OpenTofu's result is unknown (a template or a string function of it is string, see the converter's unknownGuard); `can(regex(p, s))` is `regexp.Match(p, s)`, false for a null s or a pattern that is not valid, and not known while s is not
//   - ceil (CUE standard library): `math.Ceil(x)`
//   - chomp (tofu library): `tofu.#chomp`: the newlines (\n, \r\n, \r) at the end removed
//   - chunklist (tofu library): `tofu.#chunklist`: lists of at most size elements; size 0 is the whole list as one chunk
//   - cidrcontains (tofu library): `tofu.#cidrcontains`: whether an address or network lies in a network of the same family
//   - cidrhost (tofu library): `tofu.#cidrhost`: host number n of the network; a negative n counts back from the last address
//   - cidrnetmask (tofu library): `tofu.#cidrnetmask`: the dotted mask of an IPv4 network
//   - cidrsubnet (tofu library): `tofu.#cidrsubnet`: the prefix extended by newbits bits set to netnum, IPv4 and IPv6; out of range is an error
//   - cidrsubnets (tofu library): `tofu.#cidrsubnets`: consecutive aligned subnets, as OpenTofu allocates them
//   - coalesce (CUE expression): `tofu.#coalesce & {#args: [a, b]}` where every argument is a string, number or bool known while planning; otherwise `[for x in [a] if x != null && x != "" {x}, [for x in [b] if ... {x}][0]][0]`: the first argument neither null nor "" decides, whatever follows
//   - coalescelist (tofu library): `tofu.#coalescelist`: the first argument that is neither null nor empty
//   - compact (tofu library): `tofu.#compact`: the elements that are neither null nor "", as strings; of a list known to hold strings, `[for x in l if x != null if x != "" {x}]`
//   - concat (CUE standard library): `list.Concat([a, b])`
//   - contains (tofu library): `tofu.#contains`: compares numbers by value (1 equals 1.0); an element not known yet leaves the answer not known unless another equals the value, where `list.Contains` says false
//   - csvdecode (tofu library): `tofu.#csvdecode`: `csv.Decode` with the header line's names as keys; decoded text not in Unicode NFC (OpenTofu normalizes it) stays as decoded
//   - dirname (CUE standard library): `path.Dir(p, path.Unix)`
//   - distinct (tofu library): `tofu.#distinct`: each element where it first occurs; not known while an element is not known, as in OpenTofu (`tofu.#distinctstrings` for a list known to hold strings)
//   - element (tofu library): `tofu.#element`: `l[mod(i, len(l))]`, so the index wraps around and a negative one counts from the end
//   - endswith (CUE standard library): `strings.HasSuffix(s, suffix)`
//   - ephemeralasnull (CUE expression): the value itself: neither side has ephemeral values yet (see package functions)
//   - file (at conversion): worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)
//   - filebase64 (at conversion): worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)
//   - filebase64sha256 (at conversion): worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)
//   - filebase64sha512 (at conversion): worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)
//   - fileexists (at conversion): worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)
//   - filemd5 (at conversion): worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)
//   - fileset (at conversion): worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)
//   - filesha1 (at conversion): worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)
//   - filesha256 (at conversion): worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)
//   - filesha512 (at conversion): worked out at conversion (the file read then, only inside the module directory) when the path is known then: a constant, or built from path.module and local values that are (naming no file, an error where the call is evaluated, as in OpenTofu); otherwise read, when the module is evaluated, from the files of the root module's directory that the converted module embeds (`_files[path.Clean(p, path.Unix)]`, declared in tofu_files.cue; a path outside that directory or to one of OpenTofu's own files is an error there); fileset's pattern must then be a constant, made a regular expression (`tofu.#fileset`)
//   - flatten (tofu library): `tofu.#flatten`: `list.FlattenN(l, -1)`, not known while an element is a list not known yet (a computed list before apply), as in OpenTofu, where FlattenN keeps it as one element
//   - floor (CUE standard library): `math.Floor(x)`
//   - format (at conversion): a literal format string (or one built from constants and local values) becomes a CUE interpolation, each verb formatted as OpenTofu does (`tofu.#fmtint`, `#fmtfloat`, `#fmtstr`, `#fmtv` where flags, width or precision need them); %f %e %g take the digits of the nearest float64; %v of a list or map is not converted there; a format string known only when evaluating, or arguments expanded with ..., go to `tofu.#format`, which reads the format string then with the same verbs (and %v of a list or map as JSON)
//   - formatdate (at conversion): `time.FormatString` with the format, a constant, translated to Go's layout at conversion (the verbs Go's layouts lack, h and ZZZ, by `time.Split` and a comparison); a format that is not a constant is not converted
//   - formatlist (at conversion): a list comprehension over the list arguments, each element formatted as format does: with an interpolation for a literal format string, with `tofu.#format` for one known only when evaluating; expanded arguments are not converted
//   - indent (tofu library): `tofu.#indent`: spaces after every newline
//   - index (tofu library): `tofu.#index`: the index of the first equal element; none is an error
//   - issensitive (not converted): CUE has no sensitive values, so whether one is sensitive cannot be answered
//   - join (CUE standard library): `strings.Join(l, sep)` for lists of strings; `tofu.#join` writes numbers and bools as strings and joins several lists
//   - jsondecode (CUE standard library): `json.Unmarshal(s)`; a JSON object with a repeated key, which OpenTofu reads as its last value, is an error in CUE; decoded text not in Unicode NFC (OpenTofu normalizes it) stays as decoded
//   - jsonencode (tofu library): `tofu.#jsonencode`: keys sorted, < > & escaped, whole numbers without a fraction, as OpenTofu writes them; values may nest lists and objects 8 levels deep (a deeper one is an error); the encoding of a value not known yet is not known
//   - keys (CUE standard library): `list.SortStrings([for k, _ in m {k}])`: keys in lexical order
//   - length (CUE expression): `len(x)` for lists and maps, `len(strings.Runes(s))` for a string; `tofu.#length` counts a string's characters where the kind is not known
//   - log (tofu library): `tofu.#log`: ln(x)/ln(base) computed on float64 values, as OpenTofu does, so that log(1000, 10) is 2.9999999999999996 in both
//   - lookup (CUE expression): `m[k]`, and with a default `tofu.#lookup` (`m[k]` or the default itself where an object type fixes whether the key is there), which decides from the map's keys whether to take the default, so that an element not known yet leaves the result unknown; a map not known yet (a computed map attribute) has no keys yet and gives the default, where OpenTofu's result is unknown
//   - lower (CUE standard library): `strings.ToLower(s)`
//   - matchkeys (tofu library): `tofu.#matchkeys`: the values whose key at the same index is in the search list
//   - max (CUE standard library): `list.Max([a, b])`
//   - md5 (CUE standard library): `hex.Encode(md5.Sum(s))`
//   - merge (tofu library): `tofu.#merge`: later maps win, key by key, not CUE unification; where the keys are known when converting and no two arguments share one, the struct of them all, `{_local_tags, Name: x}`
//   - min (CUE standard library): `list.Min([a, b])`
//   - nonsensitive (CUE expression): the value itself: CUE has no sensitive values
//   - one (tofu library): `tofu.#one`: the only element, null for an empty list, an error for more
//   - parseint (CUE standard library): `strconv.ParseInt(s, base, 0)`: Go's big integer parsing, as OpenTofu's; `tofu.#parseint` checks a base that is not a literal (2 to 62)
//   - pathexpand (tofu library): `tofu.#pathexpand`: a path not starting with ~ is itself; ~ and ~/... are joined to the home directory, `_home` in tofu_context.cue, which the engine sets to the machine's as OpenTofu uses it (`cue export -t home=DIR`); ~user is an error
//   - plantimestamp (CUE expression): `_plantimestamp` (@plantimestamp): the time the plan is made, which the engine sets, the same as on the HCL side
//   - pow (tofu library): `tofu.#pow`: `math.Pow(x, y)` rounded to float64, as OpenTofu computes it, and 1 for `pow(0, 0)`, which CUE's `math.Pow` refuses; a result that is not a whole number may differ from Go's in the last binary digit
//   - range (tofu library): `tofu.#range`: `list.Range` with OpenTofu's default step (-1 when counting down) and its limit of 1024 elements
//   - regex (at conversion): a literal pattern is examined: `regexp.Find` without groups, the groups of `regexp.FindSubmatch` as a list, `regexp.FindNamedSubmatch` for named groups; a group that may take no part in the match is null where it took none (its "" in CUE, where it cannot match ""); a pattern that is not a literal, or whose group that may take no part can match "", is not converted
//   - regexall (at conversion): as regex, every match (`tofu.#regexall`), an empty list where none; a pattern with a group that may take no part in a match is not converted
//   - replace (CUE standard library): `strings.Replace(s, old, new, -1)`, or `regexp.ReplaceAll` for a literal /pattern/; `tofu.#replace` decides when the substring is not a literal
//   - reverse (CUE standard library): `list.Reverse(l)`
//   - rsadecrypt (at conversion): worked out at conversion when its arguments are constants; otherwise not converted: CUE has no RSA
//   - sensitive (CUE expression): the value itself: CUE has no sensitive values
//   - setintersection (tofu library): `tofu.#setintersection`: a set in OpenTofu's order (see toset)
//   - setproduct (CUE expression): a list comprehension over lists; where an argument may be a set, the comprehension made a set of tuples in OpenTofu's order, where the analysis knows every argument's element type (not converted otherwise)
//   - setsubtract (tofu library): `tofu.#setsubtract`: a set in OpenTofu's order (see toset)
//   - setunion (tofu library): `tofu.#setunion`: a set in OpenTofu's order (see toset)
//   - sha1 (CUE standard library): `hex.Encode(sha1.Sum(s))`
//   - sha256 (CUE standard library): `hex.Encode(sha256.Sum256(s))`
//   - sha512 (CUE standard library): `hex.Encode(sha512.Sum512(s))`
//   - signum (tofu library): `tofu.#signum`: -1, 0 or 1
//   - slice (CUE standard library): `list.Slice(l, start, end)`
//   - sort (CUE standard library): `list.SortStrings(l)` for strings; `tofu.#sort` turns numbers into strings first, as OpenTofu does
//   - split (CUE standard library): `strings.Split(s, sep)`
//   - startswith (CUE standard library): `strings.HasPrefix(s, prefix)`
//   - strcontains (CUE standard library): `strings.Contains(s, substr)`
//   - strrev (tofu library): `tofu.#strrev`: the characters (code points) in reverse order
//   - substr (tofu library): `tofu.#substr`: `strings.SliceRunes` with OpenTofu's negative offset and length, counting code points
//   - sum (tofu library): `tofu.#sum`: `list.Sum`, an error for an empty list
//   - templatefile (at conversion): worked out at conversion when the path and the variables are constants; with other variables, the template, read at conversion (only inside the module directory) when its path is known then, becomes a CUE expression over the variables (`tofu.#template` checks them); with a path known only when planning, each file the path can name (its constant parts, a map of paths indexed by an input, else every file of the root module's directory ending as the path does; a constant part may name a template beside a called module, outside the root module's directory but inside the one that holds the tree's modules) is converted once into `_templates` in tofu_files.cue, keyed by its path from the root module's directory, and the call selects one, `(_templates[path.Clean(p, path.Unix)] & {#vars: VARS}).out`; a template that calls itself is not converted
//   - templatestring (at conversion): a template known at conversion (a constant, or local values built from constants) becomes a CUE expression over the variables, as templatefile's does; a template known only when the module is evaluated goes to `tofu.#templatestring`, which evaluates templates whose interpolations are references to the variables (${a.b["k"]}) and fails on function calls, operators and directives, with a warning
//   - textdecodebase64 (tofu library): `tofu.#textdecodebase64UTF8` when the encoding is a constant naming UTF-8; other encodings only for constant arguments: CUE has no character sets; decoded text not in Unicode NFC (OpenTofu normalizes it) stays as decoded
//   - textencodebase64 (CUE standard library): `base64.Encode(null, s)` when the encoding is a constant naming UTF-8; other encodings only for constant arguments: CUE has no character sets
//   - timeadd (tofu library): `tofu.#timeadd`: the duration added, the result in the timestamp's own offset, to the second
//   - timecmp (tofu library): `tofu.#timecmp`: instants compared whatever their offsets, in every year Go accepts
//   - timestamp (unknown at plan): `string`: the time the plan is applied
//   - title (tofu library): `tofu.#title`: Go's strings.Title, which OpenTofu uses (CUE's strings.ToTitle starts words only after spaces)
//   - tobool (tofu library): `tofu.#tobool`: a bool, "true"/"1" and "false"/"0", null
//   - tolist (tofu library): the list itself; `tofu.#unify` turns mixed strings, numbers and bools into strings as OpenTofu does (nested values of different types are not converted); `null` of null
//   - tomap (tofu library): the map itself; `tofu.#tomap` turns mixed strings, numbers and bools into strings as OpenTofu does
//   - tonumber (tofu library): `tofu.#tonumber`: a number, a string in decimal notation, null
//   - toset (tofu library): `tofu.#toset`: without repeats, in OpenTofu's set order: strings lexical, numbers ascending, false before true; lists, maps or objects by the bytes of go-cty's serialization of each (`tofu.#setorder`) where the converter knows their type, else in the order of first occurrence
//   - tostring (tofu library): `tofu.#tostring`: a string, a number in plain decimal, a bool, null
//   - transpose (tofu library): `tofu.#transpose`: each string a key whose list holds, sorted, the keys it appeared under
//   - trim (CUE standard library): `strings.Trim(s, cutset)`
//   - trimprefix (CUE standard library): `strings.TrimPrefix(s, prefix)`
//   - trimspace (CUE standard library): `strings.TrimSpace(s)`
//   - trimsuffix (CUE standard library): `strings.TrimSuffix(s, suffix)`
//   - try (CUE expression): `*a | b` of two arguments where a is known while planning and b is a literal; `tofu.#tryattr & {#args: [[a, b], ["x"], c]}` where each argument but the last reads one attribute, or the same path of two or three (`["x", "y"]`), from a variable, local value, each.value, a dynamic block's iterator value or for variable, a string index a step as an attribute is (the wrappers' try(each.value.x, var.defaults.x, c)), known while planning, the values given whole; `[if len(R) > i {R[i].x}, b][0]` in a root module where the argument reads one attribute of one instance of a resource or data source whose count is known while planning; `tofu.#try & {#args: [*a | 'error', b]}` of up to six in a root module where those tested are known while planning (each but the last given as `*a | 'error'`, which holds a's error in), which takes the first that is not the bytes 'error'; otherwise the arguments are checked one by one in place, `[if [(*a | 'error') & tofu.#value] != _|_ {a}, b][0]`, which takes an argument that is a value, known or not: one not known yet leaves the try not known, as in OpenTofu; a list or object that holds a value not known yet is made a value of which nothing is known (`a | {#unknown: true}`, neither by default: OpenTofu's try of it is wholly unknown, and so is an attribute read from it); an argument computed from a value not known yet (coalesce of one, a for over a list not known yet) is an incomplete error in CUE, which the test drops as an error, so the test also asks whether a reference it reads is a string, number, bool or list not known yet, and the try is then not known either; a value computed from one not known yet by another operator or function whose references are not of those kinds counts as an error, where OpenTofu's result is unknown
//   - type (CUE expression): refused, as OpenTofu refuses it: it offers type only in tofu console, and a module's call of it is a call of an unknown function (a CUE error with OpenTofu's message)
//   - upper (CUE standard library): `strings.ToUpper(s)`
//   - urldecode (CUE standard library): `net.QueryUnescape(s)`; decoded text not in Unicode NFC (OpenTofu normalizes it) stays as decoded
//   - urlencode (CUE standard library): `net.QueryEscape(s)`
//   - uuid (unknown at plan): `string`: a random UUID
//   - uuidv5 (tofu library): `tofu.#uuidv5`: `uuid.SHA1` with the named namespaces dns, url, oid and x500
//   - values (tofu library): `tofu.#values`: the values in the lexical order of their keys
//   - yamldecode (at conversion): worked out at conversion when its argument is a constant (such as a file of the module); of a file whose path is known only when planning, the file as the converted module embeds it decoded (`_yamlfiles[p]`: by CUE where it decodes as OpenTofu does, checked when converting), also through local values, conditionals (each branch decoded) and pathexpand; otherwise not converted: CUE's YAML decoder differs from OpenTofu's in tags, timestamps and number forms
//   - yamlencode (at conversion): worked out at conversion when its argument is a constant; otherwise not converted: CUE's YAML encoder quotes and orders differently from OpenTofu's
//   - zipmap (tofu library): `tofu.#zipmap`: keys to the values at the same index; a later repeat of a key wins
package convert
