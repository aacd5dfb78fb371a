package inputs

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/source"
)

// EnvPrefix is the prefix of the environment variables that set root module
// input variables.
const EnvPrefix = "TF_VAR_"

// The files that tofu plan reads from the module directory by itself.
const (
	defaultVarsFile     = "terraform.tfvars"
	defaultVarsFileJSON = "terraform.tfvars.json"
	varsExt             = ".tfvars"
)

// Sources are the places that root module variable values come from.
type Sources struct {
	Vars      []string // --var "name=value", in command-line order
	VarFiles  []string // --var-file paths (.tfvars HCL, .tfvars.json JSON), in order
	Environ   []string // os.Environ() form; TF_VAR_name=value are used
	AutoFiles bool     // also read terraform.tfvars, terraform.tfvars.json and *.auto.tfvars(.json) in the module dir, as tofu plan does
	// Synthesize gives variables that have no value a synthesized one.
	Synthesize bool

	// Args, when not nil, are the --var and --var-file options in the order
	// they were given on the command line, interleaved; Collect then reads
	// them instead of Vars and VarFiles. Without it the relative order of a
	// --var and a --var-file is unknown, and Collect applies every VarFiles
	// entry before every Vars entry. [Sources.VarFlag] and
	// [Sources.VarFileFlag] fill Args, Vars and VarFiles together.
	Args []Arg

	// Files, when not nil, receives the source text of every variables file
	// Collect reads and of every --var and TF_VAR_ value it parses as an
	// expression, keyed by the file name that diagnostics give, so that the
	// caller can print source snippets.
	Files map[string][]byte
}

// Arg is one --var (File false, Value "name=value") or --var-file (File
// true, Value a path) option.
type Arg struct {
	File  bool
	Value string
}

// FlagValue collects a repeatable --var or --var-file option into a
// [Sources]. It has the methods of pflag.Value (and flag.Value), so that a
// command line keeps the order of the two options.
type FlagValue struct {
	src  *Sources
	file bool
}

// VarFlag returns the value of a repeatable --var option that appends to s.
func (s *Sources) VarFlag() *FlagValue { return &FlagValue{src: s} }

// VarFileFlag returns the value of a repeatable --var-file option that
// appends to s.
func (s *Sources) VarFileFlag() *FlagValue { return &FlagValue{src: s, file: true} }

// Set records one occurrence of the option.
func (f *FlagValue) Set(value string) error {
	if f.src.Args == nil {
		// Keep what was set before this flag was attached.
		for _, p := range f.src.VarFiles {
			f.src.Args = append(f.src.Args, Arg{File: true, Value: p})
		}
		for _, v := range f.src.Vars {
			f.src.Args = append(f.src.Args, Arg{Value: v})
		}
	}
	f.src.Args = append(f.src.Args, Arg{File: f.file, Value: value})
	if f.file {
		f.src.VarFiles = append(f.src.VarFiles, value)
	} else {
		f.src.Vars = append(f.src.Vars, value)
	}
	return nil
}

// String returns the values given so far, comma-separated.
func (f *FlagValue) String() string {
	if f == nil || f.src == nil {
		return ""
	}
	if f.file {
		return strings.Join(f.src.VarFiles, ",")
	}
	return strings.Join(f.src.Vars, ",")
}

// Type names the value's type for help output.
func (f *FlagValue) Type() string {
	if f.file {
		return "file"
	}
	return "name=value"
}

// Input is the value of one input variable.
type Input struct {
	Name string
	// Value is final: converted to the type constraint, optional defaults
	// applied. Sensitive variables are NOT marked (the caller marks). It is
	// an unknown value of the variable's type when the value could not be
	// read or converted (the diagnostics say why).
	Value cty.Value
	// Source is "default", "--var", "TF_VAR_name", the path of the file
	// the value was read from, or "synthesized"; "" for a required variable
	// that has no value.
	Source      string
	Synthesized bool
}

type sourceKind int

const (
	fromEnv sourceKind = iota
	fromAutoFile
	fromNamedFile
	fromCLI
)

// rawValue is a value as given, before it is parsed for its variable.
type rawValue struct {
	kind   sourceKind
	source string
	// str is the text of a --var or TF_VAR_ value; expr the expression of
	// a file definition.
	str      string
	expr     hcl.Expression
	nameRng  hcl.Range
	filename string
}

type collector struct {
	src    *Sources
	values map[string]rawValue
	diags  hcl.Diagnostics
}

// Collect gathers the root module's variable values with OpenTofu's
// precedence: defaults < TF_VAR_ < terraform.tfvars < terraform.tfvars.json
// < *.auto.tfvars(.json) in lexical order < --var and --var-file in
// command-line order. See the package documentation for the rules. Every
// declared variable is in the result; validation is not done here.
func Collect(m *config.Module, src Sources) (map[string]*Input, hcl.Diagnostics) {
	if m == nil {
		return map[string]*Input{}, nil
	}
	c := &collector{src: &src, values: map[string]rawValue{}}
	c.readEnv()
	if src.AutoFiles {
		c.readDir(m.Dir)
	}
	c.readArgs()
	out := c.resolve(m)
	return out, c.diags
}

// resolve parses and converts the winning value of every declared
// variable, fills in defaults and synthesized values, and reports the
// values of undeclared variables.
func (c *collector) resolve(m *config.Module) map[string]*Input {
	src := c.src
	out := make(map[string]*Input, len(m.Variables))
	names := slices.Sorted(maps.Keys(m.Variables))
	var missing []*config.Variable
	for _, name := range names {
		v := m.Variables[name]
		raw, given := c.values[name]
		if !given {
			if !v.Required() {
				val, diags := prepare(v, cty.NilVal, origin{rng: v.DeclRange()})
				c.diags = append(c.diags, diags...)
				out[name] = &Input{Name: name, Value: val, Source: "default"}
				continue
			}
			out[name] = &Input{Name: name, Value: cty.UnknownVal(finalType(v))}
			if src.Synthesize {
				missing = append(missing, v)
				continue
			}
			c.diags = append(c.diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "No value for required variable",
				Detail:   fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a --var or --var-file command line argument to provide a value for this variable.", name),
				Subject:  v.DeclRange().Ptr(),
			})
			continue
		}
		val, diags := c.parse(v, name, raw)
		c.diags = append(c.diags, diags...)
		in := &Input{Name: name, Value: cty.UnknownVal(finalType(v)), Source: raw.source}
		out[name] = in
		if diags.HasErrors() {
			continue
		}
		o := origin{rng: v.DeclRange(), nonFile: nonFileSource(name, raw.kind)}
		if raw.expr != nil {
			o.rng = raw.expr.Range()
		}
		in.Value, diags = prepare(v, val, o)
		c.diags = append(c.diags, diags...)
	}

	if len(missing) > 0 {
		ctx := synthesisContext(m, out)
		for _, v := range missing {
			val := Synthesize(v, ctx)
			out[v.Name] = &Input{Name: v.Name, Value: val, Source: "synthesized", Synthesized: true}
			setVar(ctx, v.Name, val)
		}
	}

	c.undeclared(m)
	return out
}

// synthesisContext is the evaluation context for synthesizing missing
// values: the functions, and var holding every value collected so far (an
// unknown value for the missing ones, so that a validation that refers to
// another variable without a value yet is skipped).
func synthesisContext(m *config.Module, values map[string]*Input) *hcl.EvalContext {
	ctx := functionContext(m.Dir)
	vars := make(map[string]cty.Value, len(values))
	for name, in := range values {
		vars[name] = in.Value
	}
	ctx.Variables = map[string]cty.Value{"var": cty.ObjectVal(vars)}
	return ctx
}

// setVar replaces var.name in ctx, whose "var" is an object.
func setVar(ctx *hcl.EvalContext, name string, val cty.Value) {
	vars := map[string]cty.Value{}
	if cur, ok := ctx.Variables["var"]; ok && cur.Type().IsObjectType() && cur.IsKnown() && !cur.IsNull() {
		vars = cur.AsValueMap()
		if vars == nil {
			vars = map[string]cty.Value{}
		}
	}
	vars[name] = val
	ctx.Variables["var"] = cty.ObjectVal(vars)
}

func nonFileSource(name string, kind sourceKind) string {
	switch kind {
	case fromCLI:
		return fmt.Sprintf("set using --var=\"%s=...\"", name)
	case fromEnv:
		return fmt.Sprintf("set using the %s%s environment variable", EnvPrefix, name)
	}
	return ""
}

// parse turns a raw value into a cty value, the way the variable's parsing
// mode says.
func (c *collector) parse(v *config.Variable, name string, raw rawValue) (cty.Value, hcl.Diagnostics) {
	if raw.expr != nil {
		return safeValue(raw.expr)
	}
	if !parsesAsExpression(v) {
		return cty.StringVal(raw.str), nil
	}
	return c.parseString(name, raw.str)
}

// parseString parses a --var or TF_VAR_ value as an HCL expression, in a
// pseudo-file named after the variable, as OpenTofu does.
func (c *collector) parseString(name, str string) (cty.Value, hcl.Diagnostics) {
	filename := fmt.Sprintf("<value for var.%s>", name)
	if c.src.Files != nil {
		c.src.Files[filename] = []byte(str)
	}
	if d := source.CheckNesting([]byte(str), filename, source.HCL); d != nil {
		return cty.DynamicVal, hcl.Diagnostics{d}
	}
	expr, diags := hclsyntax.ParseExpression([]byte(str), filename, hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	val, more := safeValue(expr)
	return val, append(diags, more...)
}

// safeValue evaluates a constant expression, turning a panic in an
// evaluator into a diagnostic.
func safeValue(expr hcl.Expression) (val cty.Value, diags hcl.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			val = cty.DynamicVal
			diags = hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid expression",
				Detail:   fmt.Sprintf("The value cannot be evaluated: %v.", r),
				Subject:  expr.Range().Ptr(),
			}}
		}
	}()
	return expr.Value(nil)
}

// parsesAsExpression reports whether a --var or TF_VAR_ value for v is
// read as an HCL expression (OpenTofu's VariableParseHCL mode) rather than
// taken as a literal string. Variables without a type, those of a primitive
// type and those with the legacy quoted type "string" take the literal
// string; every other type constraint (any, collections, structures, the
// bare list and map keywords, the other quoted forms, and type expressions
// that do not parse) reads an expression.
func parsesAsExpression(v *config.Variable) bool {
	if v.TypeExpr == nil {
		return false
	}
	if t, ok := v.TypeExpr.(*hclsyntax.TemplateExpr); ok && t.IsStringLiteral() {
		s, diags := t.Value(nil)
		return diags.HasErrors() || !s.IsKnown() || s.IsNull() || s.Type() != cty.String || s.AsString() != "string"
	}
	return !v.Type.IsPrimitiveType()
}

func (c *collector) readEnv() {
	for _, raw := range c.src.Environ {
		rest, ok := strings.CutPrefix(raw, EnvPrefix)
		if !ok {
			continue
		}
		name, val, found := strings.Cut(rest, "=")
		if !found {
			continue // not a valid assignment: ignored, as OpenTofu does
		}
		c.values[name] = rawValue{kind: fromEnv, source: EnvPrefix + name, str: val}
	}
}

func (c *collector) readArgs() {
	args := c.src.Args
	if args == nil {
		for _, p := range c.src.VarFiles {
			args = append(args, Arg{File: true, Value: p})
		}
		for _, v := range c.src.Vars {
			args = append(args, Arg{Value: v})
		}
	}
	for _, a := range args {
		if a.File {
			c.readFile(a.Value, fromNamedFile)
			continue
		}
		name, val, found := strings.Cut(a.Value, "=")
		if !found {
			c.diags = append(c.diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid --var option",
				Detail:   fmt.Sprintf("The given --var option %q is not correctly specified. Must be a variable name and value separated by an equals sign, like --var=\"key=value\".", a.Value),
			})
			continue
		}
		if strings.HasSuffix(name, " ") {
			c.diags = append(c.diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid --var option",
				Detail:   fmt.Sprintf("Variable name %q is invalid due to trailing space. Did you mean --var=\"%s=%s\"?", name, strings.TrimSuffix(name, " "), strings.TrimPrefix(val, " ")),
			})
			continue
		}
		c.values[name] = rawValue{kind: fromCLI, source: "--var", str: val}
	}
}

// readDir reads the files that tofu plan loads by itself from dir:
// terraform.tfvars, terraform.tfvars.json, then every *.auto.tfvars and
// *.auto.tfvars.json file in lexical order.
func (c *collector) readDir(dir string) {
	for _, name := range []string{defaultVarsFile, defaultVarsFileJSON} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			c.readFile(p, fromAutoFile)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, name := range names {
		if strings.HasSuffix(name, ".auto.tfvars") || strings.HasSuffix(name, ".auto.tfvars.json") {
			c.readFile(filepath.Join(dir, name), fromAutoFile)
		}
	}
}

// readFile reads one variables file: JSON when its name ends in .json, or
// when it ends in neither .json nor .tfvars and its text starts with "{";
// HCL otherwise.
func (c *collector) readFile(filename string, kind sourceKind) {
	// The module's own variables files must be regular files (a named
	// pipe there would block forever); one named on the command line may
	// be a pipe, as --var-file=<(...) gives.
	read := source.ReadFile
	if kind == fromNamedFile {
		read = os.ReadFile
	}
	src, err := read(filename)
	if err != nil {
		detail := fmt.Sprintf("Error while reading %s: %s.", filename, err)
		if errors.Is(err, fs.ErrNotExist) {
			detail = fmt.Sprintf("Given variables file %s does not exist.", filename)
		}
		c.diags = append(c.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to read variables file", Detail: detail})
		return
	}
	if c.src.Files != nil {
		c.src.Files[filename] = src
	}
	c.diags = append(c.diags, c.readSource(filename, src, kind)...)
}

// readSource parses the text of a variables file and records its
// definitions.
func (c *collector) readSource(filename string, src []byte, kind sourceKind) (diags hcl.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Failed to read variables file",
				Detail:   fmt.Sprintf("Error while reading %s: %v.", filename, r),
			})
		}
	}()
	isJSON := strings.HasSuffix(filename, ".json")
	if !isJSON && !strings.HasSuffix(filename, varsExt) {
		isJSON = strings.HasPrefix(strings.TrimSpace(string(src)), "{")
	}
	syntax := source.HCL
	if isJSON {
		syntax = source.JSON
	}
	if d := source.CheckNesting(src, filename, syntax); d != nil {
		return hcl.Diagnostics{d}
	}
	var f *hcl.File
	if isJSON {
		f, diags = hcljson.Parse(src, filename)
	} else {
		f, diags = hclsyntax.ParseConfig(src, filename, hcl.Pos{Line: 1, Column: 1, Byte: 0})
	}
	if f == nil || f.Body == nil {
		return diags
	}

	// A variable block in a .tfvars file is a common mistake; say so
	// rather than let JustAttributes give a less helpful message.
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{
		Blocks: []hcl.BlockHeaderSchema{{Type: "variable", LabelNames: []string{"name"}}},
	})
	for _, block := range content.Blocks {
		name := block.Labels[0]
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Variable declaration in .tfvars file",
			Detail: fmt.Sprintf("A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable %q, place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in %s, use the definition syntax instead:\n    %s = <value>",
				name, block.TypeRange.Filename, name),
			Subject: block.TypeRange.Ptr(),
		})
	}
	if diags.HasErrors() {
		return diags
	}

	attrs, more := f.Body.JustAttributes()
	diags = append(diags, more...)
	// Definitions are recorded in source order so that the result does not
	// depend on map order (a name can be defined only once per file).
	list := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		list = append(list, a)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Range.Start.Byte < list[j].Range.Start.Byte })
	for _, a := range list {
		c.values[a.Name] = rawValue{kind: kind, source: filename, expr: a.Expr, nameRng: a.NameRange, filename: filename}
	}
	return diags
}

// undeclared reports values given for variables the module does not
// declare: an error for --var, a warning for files (the first two, then a
// count), nothing for TF_VAR_.
func (c *collector) undeclared(m *config.Module) {
	var names []string
	for name := range c.values {
		if _, ok := m.Variables[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	seenInFile := 0
	for _, name := range names {
		raw := c.values[name]
		switch raw.kind {
		case fromEnv:
			// TF_VAR_ variables are often set for many configurations at
			// once; OpenTofu ignores the ones a module does not declare.
		case fromCLI:
			c.diags = append(c.diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name),
			})
		case fromAutoFile, fromNamedFile:
			if _, diags := safeValue(raw.expr); diags.HasErrors() {
				continue // OpenTofu drops an undeclared value it cannot read
			}
			if seenInFile < 2 {
				c.diags = append(c.diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Value for undeclared variable",
					Detail:   fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization.", name, raw.filename),
					Subject:  raw.nameRng.Ptr(),
				})
			}
			seenInFile++
		}
	}
	if seenInFile > 2 {
		c.diags = append(c.diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Values for undeclared variables",
			Detail:   fmt.Sprintf("In addition to the other similar warnings shown, %d other variable(s) defined without being declared.", seenInFile-2),
		})
	}
}
