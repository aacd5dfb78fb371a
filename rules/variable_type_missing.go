package rules

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
)

// VariableTypeMissing is the rule variable_type_missing.
var VariableTypeMissing = &Rule{
	Name:   "variable_type_missing",
	TFLint: "terraform_typed_variables",
	Doc: `Reports a variable declared without a type. Such a variable accepts any
value, so a caller's mistake shows only where the module uses the value,
and readers must guess what the module expects. When the variable has a
default, the finding suggests the type of the default: a primitive type,
list(T) for a list of one element type, an object type for an object
whose attributes differ in type and map(T) for one whose attributes all
have type T (choose object when the keys are fixed names). A default of
null, or an empty or mixed collection, suggests nothing. The rule is off
by default: many modules leave simple variables untyped on purpose.

Bad:

    variable "tags" {
      default = { team = "platform" }
    }

Good:

    variable "tags" {
      type    = map(string)
      default = { team = "platform" }
    }`,
	Severity: Notice,
	Enabled:  false,
	Check: func(p *Pass) {
		for _, v := range config.InOrder(p.Module.Variables) {
			if v.TypeExpr != nil {
				continue
			}
			detail := "Without a type constraint the variable accepts any value, and a wrong one fails only where the module uses it. Declare the type the module expects."
			msg := fmt.Sprintf("Variable %q has no type", v.Name)
			if t, ok := suggestTypeFromDefault(v); ok {
				msg += "; its default suggests type = " + typeString(t)
				if strings.Contains(typeString(t), "map(") {
					detail += " The suggestion reads an object whose attributes all have one type as a map; write an object type instead where the keys are fixed attribute names."
				}
			}
			p.Report(Finding{Message: msg, Detail: detail, Range: v.Decl})
		}
	},
}

// suggestTypeFromDefault infers a type from a variable's default; the
// default must convert to it.
func suggestTypeFromDefault(v *config.Variable) (cty.Type, bool) {
	if v.DefaultExpr == nil {
		return cty.NilType, false
	}
	val, diags := v.DefaultExpr.Value(nil)
	if diags.HasErrors() {
		return cty.NilType, false
	}
	t, ok := inferType([]cty.Value{val}, nil)
	if !ok {
		return cty.NilType, false
	}
	if _, err := convert.Convert(val, t); err != nil {
		return cty.NilType, false
	}
	return t, true
}
