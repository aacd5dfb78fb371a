package functions

import (
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

	"github.com/tofucue/tofucue/internal/source"
)

// Options says where a module lives and which phase its expressions are
// evaluated in.
type Options struct {
	// BaseDir is the directory that relative paths given to the file
	// functions (and abspath) are resolved against, the directory OpenTofu
	// runs in. The file functions read nothing outside it. Empty means the
	// current directory.
	BaseDir string
	// Root is the directory tree that the file functions may read, when it
	// is wider than BaseDir: a module tree whose child modules sit beside
	// or above the root module. Empty means BaseDir. BaseDir must lie in
	// it.
	Root string
	// PlanTime makes the functions whose result is only known when a plan is
	// applied (bcrypt, timestamp, uuid) return an unknown value of their
	// result type, as OpenTofu does while it plans.
	PlanTime bool
}

// SensitiveMark is the cty mark that sensitive() adds, nonsensitive()
// removes and issensitive() looks for. Callers mark sensitive input
// variables with it.
const SensitiveMark = "sensitive"

// unpredictable are the functions whose result is not known at plan time.
var unpredictable = []string{"bcrypt", "timestamp", "uuid"}

// Table returns every OpenTofu built-in function, by name, for a module in
// opts.BaseDir. Functions that read files (file, fileexists, fileset,
// filebase64, the file hashes, templatefile) read only inside the base
// directory: a path that escapes it is an error that says so. With
// opts.PlanTime, bcrypt, timestamp and uuid return unknown values;
// plantimestamp is known and fixed for the whole table: the time Table was
// called.
func Table(opts Options) map[string]function.Function {
	baseDir := opts.BaseDir
	if baseDir == "" {
		baseDir = "."
	}
	root := opts.Root
	if root == "" {
		root = baseDir
	}
	fs := &files{baseDir: baseDir, root: root}

	t := map[string]function.Function{
		"abs":              stdlib.AbsoluteFunc,
		"abspath":          fs.absPathFunc(),
		"alltrue":          allTrueFunc,
		"anytrue":          anyTrueFunc,
		"base64decode":     base64DecodeFunc,
		"base64encode":     notNull(encoding.Base64EncodeFunc),
		"base64gunzip":     base64GunzipFunc,
		"base64gzip":       base64GzipFunc,
		"base64sha256":     base64SHA256Func,
		"base64sha512":     base64SHA512Func,
		"basename":         basenameFunc,
		"bcrypt":           notNull(crypto.BcryptFunc),
		"can":              tryfunc.CanFunc,
		"ceil":             stdlib.CeilFunc,
		"chomp":            stdlib.ChompFunc,
		"chunklist":        stdlib.ChunklistFunc,
		"cidrcontains":     cidrContainsFunc,
		"cidrhost":         cidrHostFunc,
		"cidrnetmask":      cidrNetmaskFunc,
		"cidrsubnet":       cidrSubnetFunc,
		"cidrsubnets":      cidrSubnetsFunc,
		"coalesce":         notNull(collection.CoalesceFunc),
		"coalescelist":     stdlib.CoalesceListFunc,
		"compact":          stdlib.CompactFunc,
		"concat":           stdlib.ConcatFunc,
		"contains":         stdlib.ContainsFunc,
		"csvdecode":        stdlib.CSVDecodeFunc,
		"dirname":          dirnameFunc,
		"distinct":         stdlib.DistinctFunc,
		"element":          stdlib.ElementFunc,
		"endswith":         endsWithFunc,
		"file":             fs.fileFunc(false),
		"filebase64":       fs.fileFunc(true),
		"filebase64sha256": fs.hashFunc(sha256Base64),
		"filebase64sha512": fs.hashFunc(sha512Base64),
		"fileexists":       fs.fileExistsFunc(),
		"filemd5":          fs.hashFunc(md5Hex),
		"fileset":          fs.fileSetFunc(),
		"filesha1":         fs.hashFunc(sha1Hex),
		"filesha256":       fs.hashFunc(sha256Hex),
		"filesha512":       fs.hashFunc(sha512Hex),
		"flatten":          stdlib.FlattenFunc,
		"floor":            stdlib.FloorFunc,
		"format":           stdlib.FormatFunc,
		"formatdate":       stdlib.FormatDateFunc,
		"formatlist":       stdlib.FormatListFunc,
		"indent":           stdlib.IndentFunc,
		"index":            indexFunc,
		"issensitive":      isSensitiveFunc,
		"join":             stdlib.JoinFunc,
		"jsondecode":       shallow(stdlib.JSONDecodeFunc, false),
		"jsonencode":       stdlib.JSONEncodeFunc,
		"keys":             stdlib.KeysFunc,
		"length":           lengthFunc,
		"log":              stdlib.LogFunc,
		"lookup":           lookupFunc,
		"lower":            stdlib.LowerFunc,
		"matchkeys":        matchkeysFunc,
		"max":              stdlib.MaxFunc,
		"md5":              notNull(crypto.Md5Func),
		"merge":            stdlib.MergeFunc,
		"min":              stdlib.MinFunc,
		"nonsensitive":     nonsensitiveFunc,
		"one":              oneFunc,
		"parseint":         stdlib.ParseIntFunc,
		"pathexpand":       pathExpandFunc,
		"plantimestamp":    staticTimestampFunc(time.Now()),
		"pow":              stdlib.PowFunc,
		"range":            stdlib.RangeFunc,
		"regex":            stdlib.RegexFunc,
		"regexall":         stdlib.RegexAllFunc,
		"replace":          replaceFunc,
		"reverse":          stdlib.ReverseListFunc,
		"rsadecrypt":       rsaDecryptFunc,
		"sensitive":        sensitiveFunc,
		"setintersection":  stdlib.SetIntersectionFunc,
		"setproduct":       stdlib.SetProductFunc,
		"setsubtract":      stdlib.SetSubtractFunc,
		"setunion":         stdlib.SetUnionFunc,
		"sha1":             notNull(crypto.Sha1Func),
		"sha256":           notNull(crypto.Sha256Func),
		"sha512":           notNull(crypto.Sha512Func),
		"signum":           stdlib.SignumFunc,
		"slice":            stdlib.SliceFunc,
		"sort":             stdlib.SortFunc,
		"split":            stdlib.SplitFunc,
		"startswith":       startsWithFunc,
		"strcontains":      strContainsFunc,
		"strrev":           stdlib.ReverseFunc,
		"substr":           stdlib.SubstrFunc,
		"sum":              sumFunc,
		"textdecodebase64": textDecodeBase64Func,
		"textencodebase64": textEncodeBase64Func,
		"timeadd":          stdlib.TimeAddFunc,
		"timecmp":          timeCmpFunc,
		"timestamp":        timestampFunc,
		"title":            stdlib.TitleFunc,
		"tobool":           makeToFunc(cty.Bool),
		"tolist":           makeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":            makeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":         makeToFunc(cty.Number),
		"toset":            makeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":         makeToFunc(cty.String),
		"transpose":        transposeFunc,
		"trim":             stdlib.TrimFunc,
		"trimprefix":       stdlib.TrimPrefixFunc,
		"trimspace":        stdlib.TrimSpaceFunc,
		"trimsuffix":       stdlib.TrimSuffixFunc,
		"try":              tryfunc.TryFunc,
		"type":             typeFunc,
		"upper":            stdlib.UpperFunc,
		"urldecode":        urlDecodeFunc,
		"urlencode":        notNull(encoding.URLEncodeFunc),
		"uuid":             notNull(uuid.V4Func),
		"uuidv5":           notNull(uuid.V5Func),
		"values":           stdlib.ValuesFunc,
		"yamldecode":       shallow(ctyyaml.YAMLDecodeFunc, true),
		"yamlencode":       ctyyaml.YAMLEncodeFunc,
		"zipmap":           stdlib.ZipmapFunc,
	}
	if opts.PlanTime {
		for _, name := range unpredictable {
			t[name] = function.Unpredictable(t[name])
		}
	}
	// The template functions evaluate templates with this same table, which
	// they read when they are called, so they see the entries above.
	t["templatefile"] = fs.templateFileFunc(t, 0)
	t["templatestring"] = templateStringFunc(t)
	return t
}

// Names returns, sorted, the name of every built-in function OpenTofu 1.10
// documents (provider-defined functions aside): the names Table has.
func Names() []string {
	return []string{
		"abs", "abspath", "alltrue", "anytrue", "base64decode", "base64encode", "base64gunzip",
		"base64gzip", "base64sha256", "base64sha512", "basename", "bcrypt", "can", "ceil",
		"chomp", "chunklist", "cidrcontains", "cidrhost", "cidrnetmask", "cidrsubnet",
		"cidrsubnets", "coalesce", "coalescelist", "compact", "concat", "contains",
		"csvdecode", "dirname", "distinct", "element", "endswith", "file", "filebase64",
		"filebase64sha256", "filebase64sha512", "fileexists", "filemd5", "fileset", "filesha1",
		"filesha256", "filesha512", "flatten", "floor", "format", "formatdate", "formatlist",
		"indent", "index", "issensitive", "join", "jsondecode", "jsonencode", "keys", "length",
		"log", "lookup", "lower", "matchkeys", "max", "md5", "merge", "min", "nonsensitive",
		"one", "parseint", "pathexpand", "plantimestamp", "pow", "range", "regex", "regexall",
		"replace", "reverse", "rsadecrypt", "sensitive", "setintersection", "setproduct",
		"setsubtract", "setunion", "sha1", "sha256", "sha512", "signum", "slice", "sort",
		"split", "startswith", "strcontains", "strrev", "substr", "sum", "templatefile",
		"templatestring", "textdecodebase64", "textencodebase64", "timeadd", "timecmp",
		"timestamp", "title", "tobool", "tolist", "tomap", "tonumber", "toset", "tostring",
		"transpose", "trim", "trimprefix", "trimspace", "trimsuffix", "try", "type", "upper",
		"urldecode", "urlencode", "uuid", "uuidv5", "values", "yamldecode", "yamlencode",
		"zipmap",
	}
}

// notNull returns f with its result refined as never null, the refinement
// OpenTofu puts on most of its functions' results: it lets an unknown result
// still compare known against null.
func notNull(f function.Function) function.Function {
	spec := &function.Spec{
		Description:  f.Description(),
		Params:       f.Params(),
		VarParam:     f.VarParam(),
		Type:         f.ReturnTypeForValues,
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return f.Call(args)
		},
	}
	return function.New(spec)
}

// shallow is f, a decoder of its first argument (jsondecode, or
// yamldecode with yaml set), refusing a document nested deeper than
// source.MaxNesting before it decodes it (see source.DataTooDeep).
func shallow(f function.Function, yaml bool) function.Function {
	check := func(args []cty.Value) error {
		if len(args) > 0 && args[0].IsKnown() && !args[0].IsNull() && args[0].Type() == cty.String &&
			source.DataTooDeep(args[0].AsString(), yaml) {
			return function.NewArgErrorf(0, "the document nests collections more than %d levels deep, which this tool does not decode", source.MaxNesting)
		}
		return nil
	}
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			if err := check(args); err != nil {
				return cty.NilType, err
			}
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return f.Call(args)
		},
	})
}

func refineNotNull(b *cty.RefinementBuilder) *cty.RefinementBuilder {
	return b.NotNull()
}
