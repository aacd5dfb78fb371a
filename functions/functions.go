package functions

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

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

// Table returns every OpenTofu built-in function, by name, for a module in
// opts.BaseDir: the implementations of [Specs]. Functions that read files
// (file, fileexists, fileset, filebase64, the file hashes, templatefile)
// read only inside the base directory: a path that escapes it is an error
// that says so. With opts.PlanTime, the functions of [Apply] phase (bcrypt,
// timestamp, uuid) return unknown values; plantimestamp is known and fixed
// for the whole table: the time Table was called.
func Table(opts Options) map[string]function.Function {
	baseDir := opts.BaseDir
	if baseDir == "" {
		baseDir = "."
	}
	root := opts.Root
	if root == "" {
		root = baseDir
	}
	e := &env{files: &files{baseDir: baseDir, root: root}, table: make(map[string]function.Function, len(specs))}
	for _, s := range specs {
		f := s.impl(e)
		if opts.PlanTime && s.Phase == Apply {
			f = function.Unpredictable(f)
		}
		e.table[s.Name] = f
	}
	return e.table
}

// Names returns, sorted, the name of every built-in function OpenTofu
// documents (provider-defined functions aside): the names of [Specs].
func Names() []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return names
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
