package middleware

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
)

// Spec is what a module says about middleware, in a form that does not
// depend on the language it was written in: the declarations with their
// arguments evaluated, and where they are attached. [FromModule] makes one
// from an HCL module; the CUE evaluator can make one from its attributes.
type Spec struct {
	// Dir is the module's directory: every middleware process starts there.
	Dir string
	// Middleware holds the declarations in the order they were written.
	Middleware []*Declaration
	// Project lists the middleware attached in the terraform block, by
	// name, in list order. A name may appear more than once.
	Project []Attachment
	// Providers lists, by provider configuration key ("aws",
	// "aws.west"), the middleware attached in that provider block.
	Providers map[string][]Attachment
}

// Declaration is one middleware block with its arguments evaluated.
type Declaration struct {
	Name string
	// Command is the program to run: a path (relative to the module's
	// directory when it has a slash) or a name looked up in PATH.
	Command string
	Args    []string
	// Env holds environment variables added to the tool's own.
	Env map[string]string
	// MetadataKey is where the middleware's metadata is stored; the
	// middleware's name when the block does not say.
	MetadataKey string
	// SendSensitive lets the middleware see sensitive values; otherwise
	// they are replaced by [Redacted].
	SendSensitive bool
	// Range is the block header, for diagnostics.
	Range hcl.Range
}

// Attachment is one element of a middleware list.
type Attachment struct {
	Name  string
	Range hcl.Range
}

// names returns the names of the declarations, in order.
func (s *Spec) names() []string {
	out := make([]string, len(s.Middleware))
	for i, d := range s.Middleware {
		out[i] = d.Name
	}
	return out
}

// FromModule reads the middleware declarations and attachments of m.
// command, args and env are evaluated in ectx, which should hold the
// module's variables and locals (and functions) as the planner evaluates
// them; with a nil ectx only constant arguments can be evaluated, and an
// argument that refers to anything is an error. References in middleware
// lists that name no middleware block are errors here too, as they are in
// OpenTofu.
func FromModule(m *config.Module, ectx *hcl.EvalContext) (*Spec, hcl.Diagnostics) {
	return fromModule(m, ectx, nil)
}

// fromModule is FromModule evaluating only the arguments of the
// middleware that eval selects (all when it is nil): the others are
// described by their names alone.
func fromModule(m *config.Module, ectx *hcl.EvalContext, eval func(name string) bool) (*Spec, hcl.Diagnostics) {
	s := &Spec{Dir: m.Dir, Providers: map[string][]Attachment{}}
	var diags hcl.Diagnostics
	for _, mw := range config.InOrder(m.Middleware) {
		if eval != nil && !eval(mw.Name) {
			s.Middleware = append(s.Middleware, &Declaration{Name: mw.Name, MetadataKey: mw.MetadataKey, Range: mw.Decl})
			continue
		}
		d, ds := declaration(mw, ectx)
		diags = append(diags, ds...)
		s.Middleware = append(s.Middleware, d)
	}
	if m.Terraform != nil {
		list, ds := attachments(m, m.Terraform.Middleware, "the terraform block")
		diags = append(diags, ds...)
		s.Project = list
	}
	for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
		p := m.ProviderConfigs[key]
		if len(p.Middleware) == 0 {
			continue
		}
		list, ds := attachments(m, p.Middleware, fmt.Sprintf("provider %q", key))
		diags = append(diags, ds...)
		s.Providers[key] = list
	}
	return s, diags
}

func attachments(m *config.Module, refs []config.Reference, where string) ([]Attachment, hcl.Diagnostics) {
	var out []Attachment
	var diags hcl.Diagnostics
	for _, ref := range refs {
		name := ""
		if len(ref.Traversal) == 2 && ref.Traversal.RootName() == "middleware" {
			if a, ok := ref.Traversal[1].(hcl.TraverseAttr); ok {
				name = a.Name
			}
		}
		if name == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid middleware reference",
				Detail:   "Each element of middleware must be a reference to a middleware block, such as middleware.name.",
				Subject:  ref.Range.Ptr(),
			})
			continue
		}
		if _, ok := m.Middleware[name]; !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reference to undeclared middleware",
				Detail:   fmt.Sprintf("No middleware block named %q is declared in this module, so %s cannot attach it.", name, where),
				Subject:  ref.Range.Ptr(),
			})
			continue
		}
		out = append(out, Attachment{Name: name, Range: ref.Range})
	}
	return out, diags
}

func declaration(mw *config.Middleware, ectx *hcl.EvalContext) (*Declaration, hcl.Diagnostics) {
	d := &Declaration{
		Name:          mw.Name,
		MetadataKey:   mw.MetadataKey,
		SendSensitive: mw.SendSensitive,
		Range:         mw.Decl,
	}
	if d.MetadataKey == "" {
		d.MetadataKey = mw.Name
	}
	var diags hcl.Diagnostics
	if mw.Command == nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing middleware command",
			Detail:   fmt.Sprintf("Middleware %q has no command, so it cannot be run.", mw.Name),
			Subject:  mw.Decl.Ptr(),
		})
	} else if v, ds := evalArg(mw, "command", mw.Command, cty.String, ectx); !ds.HasErrors() {
		d.Command = v.AsString()
		if d.Command == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid middleware command",
				Detail:   fmt.Sprintf("The command of middleware %q is empty.", mw.Name),
				Subject:  mw.Command.Range().Ptr(),
			})
		}
	} else {
		diags = append(diags, ds...)
	}
	if mw.Args != nil {
		v, ds := evalArg(mw, "args", mw.Args, cty.List(cty.String), ectx)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			for it := v.ElementIterator(); it.Next(); {
				_, e := it.Element()
				d.Args = append(d.Args, e.AsString())
			}
		}
	}
	if mw.Env != nil {
		v, ds := evalArg(mw, "env", mw.Env, cty.Map(cty.String), ectx)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			d.Env = map[string]string{}
			for it := v.ElementIterator(); it.Next(); {
				k, e := it.Element()
				d.Env[k.AsString()] = e.AsString()
			}
		}
	}
	return d, diags
}

// evalArg evaluates one argument of a middleware block and converts it to
// ty. The value must be known and, deep down, not null; sensitive marks
// are dropped (the values are the user's own configuration, handed to the
// program the user named).
func evalArg(mw *config.Middleware, name string, expr hcl.Expression, ty cty.Type, ectx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if ectx == nil && len(expr.Variables()) > 0 {
		return cty.NilVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Middleware argument needs evaluation",
			Detail:   fmt.Sprintf("The %s of middleware %q refers to other values, and no evaluation context was given to resolve them.", name, mw.Name),
			Subject:  expr.Range().Ptr(),
		}}
	}
	v, diags := expr.Value(ectx)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	v, _ = v.UnmarkDeep()
	bad := func(detail string) (cty.Value, hcl.Diagnostics) {
		return cty.NilVal, append(diags, &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     "Invalid middleware argument",
			Detail:      fmt.Sprintf("The %s of middleware %q %s.", name, mw.Name, detail),
			Subject:     expr.Range().Ptr(),
			Expression:  expr,
			EvalContext: ectx,
		})
	}
	if !v.IsWhollyKnown() {
		return bad("is not known before the middleware starts")
	}
	cv, err := convert.Convert(v, ty)
	if err != nil {
		return bad(fmt.Sprintf("has the wrong type: %s required", ty.FriendlyName()))
	}
	if cv.IsNull() {
		return bad("is null")
	}
	if !ty.IsPrimitiveType() {
		for it := cv.ElementIterator(); it.Next(); {
			if _, e := it.Element(); e.IsNull() {
				return bad("has a null element")
			}
		}
	}
	return cv, diags
}
