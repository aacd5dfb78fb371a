// Package cueform holds the names of the CUE form of a module, which
// hcl2cue convert writes and engine/cue plans: the namespaces of its
// declarations, the hidden fields of module templates and call instances,
// the attributes that mark declarations, how those attributes' arguments
// are written and read, and the name of the tofu library. Both sides
// import it, so that a name changes in one place.
//
// The scheme itself, with examples, is in the package doc of convert.
package cueform

import (
	"regexp"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
)

// The namespaces of a converted module's declarations: the top-level
// fields that hold them, hidden where OpenTofu's reference has no
// counterpart in the form. A root module's var.x is the field _var_x and
// its local.x the field _local_x, each a field of its own (VarPrefix,
// LocalPrefix); a called module's template holds its variables in
// VarRoot, _var.x, which each call instance unifies with its arguments.
const (
	VarRoot       = "_var"
	VarPrefix     = "_var_"
	LocalPrefix   = "_local_"
	DataRoot      = "data"
	EphemeralRoot = "ephemeral"
	ModuleRoot    = "module"
	OutputRoot    = "output"
	ProviderRoot  = "provider"
	ResourceRoot  = "resource"
	PathRoot      = "_path"
	WorkspaceRoot = "_workspace"
	PlanTimeRoot  = "_plantimestamp"
	HomeRoot      = "_home"
	TerraformRoot = "_terraform"
	CheckRoot     = "_check"
	ValidateRoot  = "_validation"
	RefactorRoot  = "_refactor"
)

// The fields of called modules: the templates (TemplateRoot, by module
// key), and in each call instance its arguments (CallArgs, a let), the
// template unified with them (CallModule), whose arguments are ArgRoot,
// and its outputs (CallOutputs). Provisioners is the hidden list of a
// resource instance's provisioner blocks.
const (
	TemplateRoot = "_module"
	ArgRoot      = "_arg"
	CallArgs     = "args"
	CallModule   = "_mod"
	CallOutputs  = "_out"
	Provisioners = "_provisioner"
)

// The hidden lists of a resource instance's precondition and
// postcondition rules, each {condition, error_message}.
const (
	Preconditions  = "_precondition"
	Postconditions = "_postcondition"
)

// The files of the root module's directory, embedded in the converted
// module (cue help embed) for the file functions whose paths are known only
// when it is planned: Files maps each file's path, relative to the
// directory OpenTofu runs in, to its text (its bytes when it is not UTF-8),
// and YAMLFiles maps the YAML and JSON files among them to what yamldecode
// makes of them; Templates maps the files templatefile may read, where its
// path is known only when the module is planned, to each one's template
// converted to CUE, {#vars: _, out: ...}. FilesFile is the file that
// declares them.
const (
	Files     = "_files"
	YAMLFiles = "_yamlfiles"
	Templates = "_templates"
	FilesFile = "tofu_files.cue"
)

// Unknown is the definition the engine puts in a list or struct that
// stands for a value the provider plans as not known yet but of a known
// tuple or object type (terraform_data's output has its input's):
// {#unknown: true, [string | null, ...]}. What reads the value sees its
// type (its length, an attribute not known yet), as OpenTofu's
// expressions do, and the value itself is decoded as not known, as
// OpenTofu plans it; a value built from it (a for) is not marked.
// convert marks with it the other alternative of a try's value that is
// not known in full, a | {#unknown: true}, of which nothing is known.
const Unknown = "#unknown"

// Library is the import name of the tofu library package, written beside
// the module in the directory of that name (convert/lib).
const Library = "tofu"

// The attributes that mark declarations. Input, Resource, Data,
// Ephemeral, Module and Output take the declaration's name first
// (TYPE.NAME for resources, with [*] for one with instances), then
// key=value arguments; Tag is CUE's own, by which cue export -t sets an
// input.
const (
	AttrInput         = "input"
	AttrResource      = "resource"
	AttrData          = "data"
	AttrEphemeral     = "ephemeral"
	AttrModule        = "module"
	AttrOutput        = "output"
	AttrValidation    = "validation"
	AttrPath          = "path"
	AttrWorkspace     = "workspace"
	AttrPlanTimestamp = "plantimestamp"
	AttrHome          = "home"
	AttrTerraform     = "terraform"
	AttrSource        = "source"
	AttrProvider      = "provider"
	AttrMiddleware    = "middleware"
	AttrImport        = "import"
	AttrMoved         = "moved"
	AttrRemoved       = "removed"
	AttrTag           = "tag"
)

// Instances is the suffix of a declaration name whose value holds
// instances: a list (count) or a struct by key (for_each).
const Instances = "[*]"

// Attr writes the attribute @name(args...), each argument already
// quoted where it needs to be (Quote).
func Attr(name string, args ...string) *ast.Attribute {
	return &ast.Attribute{Text: "@" + name + "(" + strings.Join(args, ", ") + ")"}
}

// Quote writes s as an attribute argument: as it is when it is a plain
// token (a dotted name, possibly ending in [*]), else as a CUE string
// literal.
func Quote(s string) string {
	if plainArg.MatchString(s) {
		return s
	}
	return literal.String.Quote(s)
}

// plainArg matches the attribute arguments written without quotes.
var plainArg = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\[\*\])?$`)

// The key=value arguments of declaration attributes that the engine
// reads (others, such as source= and version= of @module, are there for
// the reader). Sensitive is written without a value.
const (
	ArgProvider  = "provider"
	ArgDependsOn = "depends_on"
	ArgSensitive = "sensitive"
	ArgProviders = "providers"
)

// Arg writes the argument key=value, the value quoted where it needs to
// be.
func Arg(key, value string) string {
	return key + "=" + Quote(value)
}

// Decl is what a declaration attribute says.
type Decl struct {
	// Name is the first argument without Instances: "aws_subnet.main",
	// "vpc_id", "base_cidr_block".
	Name string
	// Multi is set when the name ends in Instances.
	Multi bool
	// The key=value arguments the engine reads: provider=ALIAS,
	// depends_on=A,B, sensitive, providers=CHILD=PARENT,...
	Provider  string
	DependsOn []string
	Sensitive bool
	Providers string
}

// ParseDecl reads a declaration attribute's arguments.
func ParseDecl(a cue.Attribute) Decl {
	var d Decl
	if a.NumArgs() > 0 {
		if key, val := a.Arg(0); val == "" {
			d.Name = key
		} else {
			d.Name = a.RawArg(0)
		}
	}
	d.Name = strings.TrimSpace(d.Name)
	if rest, ok := strings.CutSuffix(d.Name, Instances); ok {
		d.Name, d.Multi = rest, true
	}
	for i := 1; i < a.NumArgs(); i++ {
		key, val := a.Arg(i)
		switch key {
		case ArgProvider:
			d.Provider = val
		case ArgDependsOn:
			for _, s := range strings.Split(val, ",") {
				if s = strings.TrimSpace(s); s != "" {
					d.DependsOn = append(d.DependsOn, s)
				}
			}
		case ArgSensitive:
			d.Sensitive = val == "" || val == "true"
		case ArgProviders:
			d.Providers = val
		}
	}
	return d
}
