package rules

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// VariableDefaultType is the rule variable_default_type.
var VariableDefaultType = &Rule{
	Name: "variable_default_type",
	Doc: `Reports a variable default that does not convert to the variable's type
constraint, which OpenTofu rejects when it loads the module: a value of
the wrong kind, a missing object attribute, a tuple of the wrong length,
a list(any), set(any) or map(any) whose elements have no single type in
common (["a", [], "b"]), or null with nullable = false. The finding names
the path inside the value where conversion fails, as in
default["mykey"].field: a bool is required, and points at that part of
the default. Conversion follows OpenTofu's rules: numbers and bools
convert to strings and back, optional() attribute defaults are applied
first, and attributes the type does not declare are dropped (that is
lossy_default_conversion's business, not an error).

Bad:

    variable "buckets" {
      type    = map(object({ versioning = bool }))
      default = { logs = { versioning = "yes" } }
    }

Good:

    variable "buckets" {
      type    = map(object({ versioning = bool }))
      default = { logs = { versioning = true } }
    }`,
	Severity: Error,
	Enabled:  true,
	Claims:   ClaimsKind(config.KindDefaultType),
	Check: func(p *Pass) {
		byDefault := map[hcl.Range]*config.Variable{}
		for _, v := range p.Module.Variables {
			if v.DefaultExpr != nil {
				byDefault[v.DefaultExpr.Range()] = v
			}
		}
		for _, d := range claimedDiagnostics(p, config.KindDefaultType) {
			var v *config.Variable
			if d.Subject != nil {
				v = byDefault[*d.Subject]
			}
			if v == nil {
				p.ReportDiagnostic(d, nil)
				continue
			}
			f, ok := defaultTypeFinding(p.Module, v)
			if !ok {
				p.ReportDiagnostic(d, nil)
				continue
			}
			p.Report(f)
		}
	},
}

// defaultTypeFinding describes why the default of v does not conform to
// its type, pointing at the part of the default that fails.
func defaultTypeFinding(m *config.Module, v *config.Variable) (Finding, bool) {
	val, diags := v.DefaultExpr.Value(nil)
	if diags.HasErrors() || !val.IsWhollyKnown() || v.Type == cty.NilType {
		return Finding{}, false
	}
	if val.IsNull() {
		if v.Nullable {
			return Finding{}, false
		}
		return Finding{
			Message: fmt.Sprintf("Invalid default for variable %q: null, but nullable = false", v.Name),
			Detail:  "A variable with nullable = false never has the value null, so its default cannot be null either. Give a default of the variable's type, or remove the default to make the variable required.",
			Range:   v.DefaultExpr.Range(),
		}, true
	}
	if v.TypeDefaults != nil {
		val = v.TypeDefaults.Apply(val)
	}
	path, msg, failed := conversionFailure(val, v.Type)
	if !failed {
		return Finding{}, false
	}
	expr, _ := config.ExprAtPath(v.DefaultExpr, path)
	return Finding{
		Message: fmt.Sprintf("Invalid default for variable %q: %s: %s", v.Name, valuePath("default", path), msg),
		Detail: fmt.Sprintf("OpenTofu converts the default to the type constraint %s when it loads the module, and rejects a default that does not convert.",
			typeConstraintText(m, v)),
		Range: expr.Range(),
	}, true
}

// typeConstraintText is a variable's type constraint as written when it
// is on one line, and otherwise as typeString writes it (newlines separate
// object attributes, so the source cannot simply be joined).
func typeConstraintText(m *config.Module, v *config.Variable) string {
	if _, native := v.TypeExpr.(hclsyntax.Expression); native && v.TypeExpr.Range().Start.Line == v.TypeExpr.Range().End.Line {
		if s := sourceText(m, v.TypeExpr.Range(), 120); s != "" {
			return s
		}
	}
	if v.Type == cty.NilType {
		return "any"
	}
	return typeString(v.Type)
}
