// Package functions is OpenTofu's built-in functions: what each one means,
// in one [Spec] per function that every part of this project reads, and
// its implementation as a cty function, for evaluating module expressions
// as OpenTofu 1.12 does and for checking converted expressions against
// OpenTofu's results.
//
// [Specs] lists every function OpenTofu 1.12 has (provider-defined
// functions aside) with its phase (known now, at plan, or only after
// apply), whether it reads files, its result's kind, what it needs of each
// argument (a kind, a string's form, its elements), whether it converts and
// what of its arguments it passes on; [Spec.NotNull] is worked out from the
// implementation. A test compares the specs and the implementations'
// parameters with the signatures `tofu metadata functions -json` gives
// (testdata/opentofu-signatures.json, rerecorded with -update-opentofu),
// so a function OpenTofu has and the specs lack fails it.
//
// [Table] returns the implementations by name; [Names] lists them. Where a
// library implements a function with OpenTofu's semantics, the table takes
// it from there: the go-cty function library (the functions OpenTofu
// itself takes from it), hashicorp/go-cty-funcs (with OpenTofu's not-null
// result refinement added), zclconf/go-cty-yaml (the YAML library OpenTofu
// uses) and HCL's tryfunc. The rest are written here, after OpenTofu's
// behavior: its own functions, and those where it differs from the
// libraries (length counts grapheme clusters and knows a tuple's length
// from its type; lookup, index, sum, one, matchkeys and transpose have
// OpenTofu's type rules and messages; the conversion functions keep nested
// marks; the cidr functions parse addresses as OpenTofu does, leading
// zeros included).
//
// Differences from OpenTofu, all deliberate:
//
//   - The file functions (file, filebase64, fileexists, fileset, the file
//     hashes, templatefile) read only inside [Options].BaseDir: a path that
//     leads out of it, directly, through "..", "~" or a symbolic link, is an
//     error saying so. abspath resolves relative paths against BaseDir,
//     where OpenTofu would run, not against the process's directory.
//   - type, which OpenTofu offers only in its console, and plantimestamp,
//     which it offers everywhere but there, are both in the table.
//   - Functions are not also registered under OpenTofu's core:: namespace;
//     a caller that wants core::abs adds those names itself.
//   - With [Options].PlanTime, bcrypt, timestamp and uuid return unknown
//     values, as OpenTofu does while planning; plantimestamp is known,
//     fixed for the table.
//   - base64gunzip refuses to inflate more than 256 MiB.
//   - jsondecode and yamldecode refuse a document that nests collections
//     more than 256 levels deep (go-yaml takes minutes over a few thousand).
//   - ephemeralasnull makes values marked [EphemeralMark] null, but nothing
//     marks values ephemeral here yet: it gives its argument back.
//
// As in OpenTofu, templatefile may call itself down to a depth of 1024 (or
// TF_TEMPLATE_RECURSION_DEPTH), and element wraps negative indexes around
// (go-cty has since 1.15; OpenTofu's page still says they must not be
// negative).
//
// Values are marked sensitive with [SensitiveMark].
//
// The functions, where each comes from and what it gives at plan time
// ("known": known whenever its arguments are):
//
//	function          source                    at plan time
//	abs               go-cty stdlib             known
//	abspath           written here              known; relative to BaseDir
//	alltrue           written here              known
//	anytrue           written here              known
//	base64decode      written here              known
//	base64encode      go-cty-funcs encoding     known
//	base64gunzip      written here              known
//	base64gzip        written here              known
//	base64sha256      written here              known
//	base64sha512      written here              known
//	basename          written here              known
//	bcrypt            go-cty-funcs crypto       unknown at plan time
//	can               hcl ext/tryfunc           known
//	ceil              go-cty stdlib             known
//	chomp             go-cty stdlib             known
//	chunklist         go-cty stdlib             known
//	cidrcontains      written here              known
//	cidrhost          written here              known
//	cidrnetmask       written here              known
//	cidrsubnet        written here              known
//	cidrsubnets       written here              known
//	coalesce          go-cty-funcs collection   known
//	coalescelist      go-cty stdlib             known
//	compact           go-cty stdlib             known
//	concat            go-cty stdlib             known
//	contains          go-cty stdlib             known
//	csvdecode         go-cty stdlib             known
//	dirname           written here              known
//	distinct          go-cty stdlib             known
//	element           go-cty stdlib             known
//	endswith          written here              known
//	ephemeralasnull   written here              known
//	file              written here              known; reads files in BaseDir
//	filebase64        written here              known; reads files in BaseDir
//	filebase64sha256  written here              known; reads files in BaseDir
//	filebase64sha512  written here              known; reads files in BaseDir
//	fileexists        written here              known; reads files in BaseDir
//	filemd5           written here              known; reads files in BaseDir
//	fileset           written here              known; reads files in BaseDir
//	filesha1          written here              known; reads files in BaseDir
//	filesha256        written here              known; reads files in BaseDir
//	filesha512        written here              known; reads files in BaseDir
//	flatten           go-cty stdlib             known
//	floor             go-cty stdlib             known
//	format            go-cty stdlib             known
//	formatdate        go-cty stdlib             known
//	formatlist        go-cty stdlib             known
//	indent            go-cty stdlib             known
//	index             written here              known
//	issensitive       written here              known
//	join              go-cty stdlib             known
//	jsondecode        go-cty stdlib             known
//	jsonencode        go-cty stdlib             known
//	keys              go-cty stdlib             known
//	length            written here              known
//	log               go-cty stdlib             known
//	lookup            written here              known
//	lower             go-cty stdlib             known
//	matchkeys         written here              known
//	max               go-cty stdlib             known
//	md5               go-cty-funcs crypto       known
//	merge             go-cty stdlib             known
//	min               go-cty stdlib             known
//	nonsensitive      written here              known
//	one               written here              known
//	parseint          go-cty stdlib             known
//	pathexpand        written here              known
//	plantimestamp     written here              known: when Table was called
//	pow               go-cty stdlib             known
//	range             go-cty stdlib             known
//	regex             go-cty stdlib             known
//	regexall          go-cty stdlib             known
//	replace           written here              known
//	reverse           go-cty stdlib             known
//	rsadecrypt        written here              known
//	sensitive         written here              known
//	setintersection   go-cty stdlib             known
//	setproduct        go-cty stdlib             known
//	setsubtract       go-cty stdlib             known
//	setunion          go-cty stdlib             known
//	sha1              go-cty-funcs crypto       known
//	sha256            go-cty-funcs crypto       known
//	sha512            go-cty-funcs crypto       known
//	signum            go-cty stdlib             known
//	slice             go-cty stdlib             known
//	sort              go-cty stdlib             known
//	split             go-cty stdlib             known
//	startswith        written here              known
//	strcontains       written here              known
//	strrev            go-cty stdlib             known
//	substr            go-cty stdlib             known
//	sum               written here              known
//	templatefile      written here              known; reads files in BaseDir
//	templatestring    written here              known
//	textdecodebase64  written here              known
//	textencodebase64  written here              known
//	timeadd           go-cty stdlib             known
//	timecmp           written here              known
//	timestamp         written here              unknown at plan time
//	title             go-cty stdlib             known
//	tobool            written here              known
//	tolist            written here              known
//	tomap             written here              known
//	tonumber          written here              known
//	toset             written here              known
//	tostring          written here              known
//	transpose         written here              known
//	trim              go-cty stdlib             known
//	trimprefix        go-cty stdlib             known
//	trimspace         go-cty stdlib             known
//	trimsuffix        go-cty stdlib             known
//	try               hcl ext/tryfunc           known
//	type              written here              known
//	upper             go-cty stdlib             known
//	urldecode         written here              known
//	urlencode         go-cty-funcs encoding     known
//	uuid              go-cty-funcs uuid         unknown at plan time
//	uuidv5            go-cty-funcs uuid         known
//	values            go-cty stdlib             known
//	yamldecode        go-cty-yaml               known
//	yamlencode        go-cty-yaml               known
//	zipmap            go-cty stdlib             known
package functions
