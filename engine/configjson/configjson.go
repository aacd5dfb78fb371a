// Package configjson is the "configuration" block of OpenTofu's JSON plan
// (`tofu show -json PLANFILE`): the module tree as written, for policy
// tools (OPA, conftest) that check module sources, provider settings and
// resource arguments without evaluating anything.
//
// It follows OpenTofu 1.12's writer: the root module's resources (sorted
// by address) with their arguments as expressions, count_expression or
// for_each_expression, provider_config_key, schema_version and
// depends_on; its outputs, variables and module_calls, each call with its
// source as written, version_constraint, its arguments as expressions and,
// where the called module is loaded, that module's own configuration
// under "module", nested as deep as the calls go; and provider_config,
// every provider configuration of the tree by an opaque key ("aws",
// "module.net:aws"), with name, full_name, alias, version_constraint,
// module_address and expressions.
//
// An expression is {"constant_value": V} when it refers to nothing and
// calls no function, {"references": [...]} when it refers to something,
// and {} otherwise (see [Expression]).
//
// [RelevantAttributes] is the plan's "relevant_attributes": the resource
// attributes that the planned changes read, found by following references
// through the same configuration.
//
// Where tofucue knows less than OpenTofu, the block says less:
//   - A module call whose module is not loaded (a registry or remote
//     source, which tofucue never downloads) has no "module", and its
//     expressions are all of its arguments, there being no variables to
//     match them against.
//   - Resource arguments are matched against the mock providers' schemas
//     (from --schema files, or inferred from the configuration); an
//     inferred schema takes every nested block as a list. Provider and
//     provisioner blocks have no schema here: every argument is described,
//     where OpenTofu describes those its provider's schema names.
//   - schema_version is the one a --schema file gives, else 0.
package configjson

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/refs"
)

// Configuration is the "configuration" block of a JSON plan.
type Configuration struct {
	ProviderConfig map[string]*ProviderConfig `json:"provider_config,omitempty"`
	RootModule     *Module                    `json:"root_module"`
}

// ProviderConfig is a provider configuration: a provider block, a
// required provider without one, a provider that resources imply, or a
// configuration passed to a module call.
type ProviderConfig struct {
	Name              string      `json:"name,omitempty"`
	FullName          string      `json:"full_name,omitempty"`
	Alias             string      `json:"alias,omitempty"`
	VersionConstraint string      `json:"version_constraint,omitempty"`
	ModuleAddress     string      `json:"module_address,omitempty"`
	Expressions       Expressions `json:"expressions,omitempty"`

	// parent is the key of the configuration this one stands for (a
	// configuration inherited or passed from the calling module); those
	// are left out of the block.
	parent string
}

// Module is the configuration of one module.
type Module struct {
	Outputs     map[string]*Output     `json:"outputs,omitempty"`
	Resources   []*Resource            `json:"resources,omitempty"`
	ModuleCalls map[string]*ModuleCall `json:"module_calls,omitempty"`
	Variables   map[string]*Variable   `json:"variables,omitempty"`
}

// Resource is a resource, data or ephemeral block.
type Resource struct {
	// Address is the resource's address in its module: type.name,
	// data.type.name, ephemeral.type.name.
	Address string `json:"address,omitempty"`
	// Mode is managed, data or ephemeral.
	Mode string `json:"mode,omitempty"`
	Type string `json:"type,omitempty"`
	Name string `json:"name,omitempty"`
	// ProviderConfigKey is the key in provider_config of the
	// configuration the resource uses.
	ProviderConfigKey string         `json:"provider_config_key,omitempty"`
	Provisioners      []*Provisioner `json:"provisioners,omitempty"`
	Expressions       Expressions    `json:"expressions,omitempty"`
	SchemaVersion     *uint64        `json:"schema_version,omitempty"`
	CountExpression   *Expression    `json:"count_expression,omitempty"`
	ForEachExpression *Expression    `json:"for_each_expression,omitempty"`
	DependsOn         []string       `json:"depends_on,omitempty"`
}

// Provisioner is a provisioner block of a resource.
type Provisioner struct {
	Type        string      `json:"type,omitempty"`
	Expressions Expressions `json:"expressions,omitempty"`
}

// ModuleCall is a module block.
type ModuleCall struct {
	// Source is the source address as written.
	Source            string      `json:"source,omitempty"`
	Expressions       Expressions `json:"expressions,omitempty"`
	CountExpression   *Expression `json:"count_expression,omitempty"`
	ForEachExpression *Expression `json:"for_each_expression,omitempty"`
	// Module is the called module's configuration; nil when it is not
	// loaded.
	Module            *Module  `json:"module,omitempty"`
	VersionConstraint string   `json:"version_constraint,omitempty"`
	DependsOn         []string `json:"depends_on,omitempty"`
}

// Variable is an input variable declaration.
type Variable struct {
	// Type is the type constraint in cty's JSON form; absent for any.
	Type json.RawMessage `json:"type,omitempty"`
	// Default is the default value converted to the type, in cty's JSON
	// form; absent when the variable is required.
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Ephemeral   bool            `json:"ephemeral,omitempty"`
	Deprecated  string          `json:"deprecated,omitempty"`
}

// Output is an output value declaration.
type Output struct {
	Sensitive   bool        `json:"sensitive,omitempty"`
	Ephemeral   bool        `json:"ephemeral,omitempty"`
	Deprecated  string      `json:"deprecated,omitempty"`
	Expression  *Expression `json:"expression,omitempty"`
	DependsOn   []string    `json:"depends_on,omitempty"`
	Description string      `json:"description,omitempty"`
}

// ChildFunc returns the module that a call in parent loads; nil when it is
// not loaded.
type ChildFunc func(parent *config.Module, call *config.ModuleCall) *config.Module

// Build describes the module tree below root. child finds the module each
// call loads; schemas are the resource schemas (nil: none, every argument
// described and every block a list).
func Build(root *config.Module, child ChildFunc, schemas *mock.Schemas) *Configuration {
	b := &builder{child: child, schemas: schemas, providers: map[string]*ProviderConfig{}}
	b.providerConfigs(root, "", nil, "")
	mod := b.module(root, "")
	b.resolveProviderKeys(mod)
	out := &Configuration{RootModule: mod, ProviderConfig: map[string]*ProviderConfig{}}
	for key, pc := range b.providers {
		if pc.parent == "" {
			out.ProviderConfig[key] = pc
		}
	}
	return out
}

type builder struct {
	child     ChildFunc
	schemas   *mock.Schemas
	providers map[string]*ProviderConfig
}

// module describes m, whose module path (module.a.module.b, no instance
// keys) is path.
func (b *builder) module(m *config.Module, path string) *Module {
	out := &Module{
		Outputs:     map[string]*Output{},
		ModuleCalls: map[string]*ModuleCall{},
		Variables:   map[string]*Variable{},
	}
	for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, r := range rs {
			out.Resources = append(out.Resources, b.resource(m, r, path))
		}
	}
	slices.SortFunc(out.Resources, func(x, y *Resource) int { return strings.Compare(x.Address, y.Address) })
	for name, o := range m.Outputs {
		out.Outputs[name] = &Output{
			Sensitive:   o.Sensitive,
			Ephemeral:   o.Ephemeral,
			Deprecated:  o.Deprecated,
			Expression:  expression(o.Expr, m),
			DependsOn:   dependsOn(o.DependsOn, m),
			Description: o.Description,
		}
	}
	for name, v := range m.Variables {
		out.Variables[name] = variable(v)
	}
	for name, call := range m.ModuleCalls {
		out.ModuleCalls[name] = b.moduleCall(m, call, path)
	}
	return out
}

func (b *builder) resource(m *config.Module, r *config.Resource, path string) *Resource {
	version := b.schemas.Version(r.Mode, r.Type)
	out := &Resource{
		Address:           r.Addr(),
		Mode:              [...]string{"managed", "data", "ephemeral"}[r.Mode],
		Type:              r.Type,
		Name:              r.Name,
		ProviderConfigKey: providerKey(resourceProvider(r), path),
		SchemaVersion:     &version,
		Expressions:       expressions(r.Config, b.schemas.Block(r.Mode, r.Type), m),
		DependsOn:         dependsOn(r.DependsOn, m),
	}
	out.CountExpression, out.ForEachExpression = repetition(r.Count, r.ForEach, m)
	for _, p := range r.Provisioners {
		out.Provisioners = append(out.Provisioners, &Provisioner{Type: p.Type, Expressions: expressions(p.Config, nil, m)})
	}
	return out
}

// repetition is a block's count_expression or for_each_expression; an
// expression that says nothing (a function of constants) is left out.
func repetition(count, forEach hcl.Expression, m *config.Module) (*Expression, *Expression) {
	if count != nil {
		if e := expression(count, m); !e.empty() {
			return e, nil
		}
	}
	if forEach != nil {
		if e := expression(forEach, m); !e.empty() {
			return nil, e
		}
	}
	return nil, nil
}

func (b *builder) moduleCall(m *config.Module, call *config.ModuleCall, path string) *ModuleCall {
	out := &ModuleCall{DependsOn: dependsOn(call.DependsOn, m)}
	if call.SourceAddr != nil {
		out.Source = call.SourceAddr.Raw
	} else if v, diags := call.Source.Value(nil); !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
		out.Source = v.AsString()
	}
	if call.Version != nil && call.Version.Required != nil {
		out.VersionConstraint = call.Version.Required.String()
	}
	out.CountExpression, out.ForEachExpression = repetition(call.Count, call.ForEach, m)
	var child *config.Module
	if b.child != nil {
		child = b.child(m, call)
	}
	if child == nil {
		// With no variables to match them against, every argument is
		// described.
		out.Expressions = expressions(call.Config, nil, m)
		return out
	}
	schema := &mock.Block{Attributes: map[string]*mock.Attribute{}}
	for name := range child.Variables {
		schema.Attributes[name] = &mock.Attribute{Type: cty.DynamicPseudoType, Optional: true}
	}
	out.Expressions = expressions(call.Config, schema, m)
	out.Module = b.module(child, childPath(path, call.Name))
	return out
}

func childPath(path, name string) string {
	if path == "" {
		return "module." + name
	}
	return path + ".module." + name
}

func variable(v *config.Variable) *Variable {
	out := &Variable{
		Description: v.Description,
		Sensitive:   v.Sensitive,
		Ephemeral:   v.Ephemeral,
		Deprecated:  v.Deprecated,
		Required:    v.Required(),
	}
	if v.Type != cty.NilType && !v.Type.Equals(cty.DynamicPseudoType) {
		if b, err := v.Type.MarshalJSON(); err == nil {
			out.Type = b
		}
	}
	if !v.Required() && v.Default.IsWhollyKnown() {
		if b, err := ctyjson.Marshal(v.Default, v.Default.Type()); err == nil {
			out.Default = b
		}
	}
	return out
}

// dependsOn writes each depends_on entry as the address of the object it
// names.
func dependsOn(trs []hcl.Traversal, m *config.Module) []string {
	var out []string
	for _, tr := range trs {
		if ref, diags := refs.Parse(tr, m); ref != nil && !diags.HasErrors() {
			out = append(out, subjectString(ref.Subject))
		}
	}
	return out
}

// resourceProvider is the provider configuration a resource names, as
// name or name.alias: its provider argument, else the first word of its
// type.
func resourceProvider(r *config.Resource) string {
	if r.Provider != nil {
		return r.Provider.String()
	}
	name, _, _ := strings.Cut(r.Type, "_")
	return name
}

// providerKey is provider_config's key of a configuration of a module:
// "aws.east" in the root, "module.net:aws.east" in a child.
func providerKey(provider, path string) string {
	if path == "" {
		return provider
	}
	return path + ":" + provider
}
