package rules

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"

	"github.com/tofucue/tofucue/config"
)

// OptionalDefaultType is the rule optional_default_type.
var OptionalDefaultType = &Rule{
	Name: "optional_default_type",
	Doc: `Reports a misused optional() type modifier, which OpenTofu rejects when
it loads the module: optional(T, d) whose default d does not convert to
T (the finding names the part of d that fails and points at it),
optional() anywhere but as the type of an object attribute (a variable's
whole type, a list's element type), optional() without a type, and
optional() with more than a type and a default. A default must also be
a constant: it cannot refer to variables or call functions.

Bad:

    variable "disk" {
      type = object({
        size = optional(number, "large")
        tags = list(optional(string))
      })
    }

Good:

    variable "disk" {
      type = object({
        size = optional(number, 100)
        tags = optional(list(string), [])
      })
    }`,
	Severity: Error,
	Enabled:  true,
	Claims:   ClaimsKind(config.KindTypeConstraint),
	Check: func(p *Pass) {
		diags := claimedDiagnostics(p, config.KindTypeConstraint)
		if len(diags) == 0 {
			return
		}
		var calls []config.OptionalCall
		for _, v := range config.InOrder(p.Module.Variables) {
			if v.TypeExpr != nil {
				calls = append(calls, config.TypeExprParts(v.TypeExpr, nil)...)
			}
		}
		for _, d := range diags {
			if f, ok := optionalFinding(d, calls); ok {
				p.Report(f)
				continue
			}
			p.ReportDiagnostic(d, nil)
		}
	},
}

// optionalFinding restates a typeexpr diagnostic about an optional() call
// more precisely, where it can.
func optionalFinding(d *hcl.Diagnostic, calls []config.OptionalCall) (Finding, bool) {
	if d.Subject == nil {
		return Finding{}, false
	}
	s := *d.Subject
	for _, c := range calls {
		args := c.Call.Arguments
		switch {
		case s == c.Call.NameRange && c.Attr == "":
			return Finding{
				Message: "optional() is valid only as the type of an object attribute",
				Detail:  "optional(T) marks an attribute of an object type that a value may leave out, as in object({ name = optional(string) }). Here it is not an object attribute's type; write T alone, or make the surrounding type an object.",
				Range:   s,
			}, true
		case s == c.Call.ArgsRange && len(args) > 2:
			return Finding{
				Message: fmt.Sprintf("optional() takes at most two arguments, the attribute type and a default value, but here it has %d", len(args)),
				Detail:  "Remove the extra arguments.",
				Range:   hcl.RangeBetween(args[2].Range(), args[len(args)-1].Range()),
			}, true
		case s == c.Call.ArgsRange && len(args) == 0:
			return Finding{
				Message: "optional() needs the attribute's type as its first argument",
				Detail:  "Write optional(T) or optional(T, default), as in optional(string) or optional(number, 1).",
				Range:   s,
			}, true
		case len(args) == 2 && s == args[1].Range() && d.Summary == "Invalid default value for optional attribute":
			if f, ok := optionalDefaultFinding(c); ok {
				return f, true
			}
		case len(args) >= 2 && rangeContains(args[1].Range(), s):
			return Finding{
				Message: fmt.Sprintf("Default of optional attribute %q is not a constant: %s", c.Attr, d.Summary),
				Detail:  strings.TrimSpace(d.Detail + " OpenTofu reads the default of optional() when it loads the module, so it can use neither references nor function calls."),
				Range:   s,
			}, true
		}
	}
	return Finding{}, false
}

// optionalDefaultFinding converts the default of optional(T, d) to T the
// way typeexpr does and describes where it fails.
func optionalDefaultFinding(c config.OptionalCall) (Finding, bool) {
	ty, _, diags := typeexpr.TypeConstraintWithDefaults(c.Call.Arguments[0])
	if diags.HasErrors() {
		return Finding{}, false
	}
	dexpr := c.Call.Arguments[1]
	val, diags := dexpr.Value(nil)
	if diags.HasErrors() {
		return Finding{}, false
	}
	path, msg, failed := conversionFailure(val, ty)
	if !failed {
		return Finding{}, false
	}
	expr, _ := config.ExprAtPath(dexpr, path)
	return Finding{
		Message: fmt.Sprintf("Invalid default for optional attribute %q: %s: %s", c.Attr, valuePath("default", path), msg),
		Detail:  "The default of optional(T, default) must convert to the attribute's type T; OpenTofu rejects the type constraint otherwise.",
		Range:   expr.Range(),
	}, true
}
