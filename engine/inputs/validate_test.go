package inputs

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// ctxFor is what a caller gives Validate: the functions and var.<name>.
func ctxFor(v *config.Variable, val cty.Value) *hcl.EvalContext {
	ctx := functionContext(".")
	ctx.Variables["var"] = cty.ObjectVal(map[string]cty.Value{v.Name: val})
	return ctx
}

func TestValidate(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `
variable "env" {
  type = string
  validation {
    condition     = contains(["dev", "prod"], var.env)
    error_message = <<-EOT
      The env must be dev or prod, not ${var.env}.
    EOT
  }
  validation {
    condition     = length(var.env) < 5
    error_message = "Too long."
  }
}
variable "nullcond" {
  type = string
  validation {
    condition     = var.nullcond == "x" ? null : true
    error_message = "unused"
  }
}
variable "strcond" {
  type = string
  validation {
    condition     = var.strcond
    error_message = "unused"
  }
}
variable "badmsg" {
  type = string
  validation {
    condition     = var.badmsg == "ok"
    error_message = ["not", "a", "string"]
  }
}
variable "secret" {
  type      = string
  sensitive = true
  validation {
    condition     = var.secret == "ok"
    error_message = "Bad secret ${var.secret}."
  }
}
variable "failing" {
  type = string
  validation {
    condition     = can(regex("^[a-z]+$", var.failing))
    error_message = "Lower-case letters only."
  }
}
`})
	tests := []struct {
		name  string
		v     string
		val   cty.Value
		wants []string // summary: detail (detail up to the rule's position)
	}{
		{name: "passes", v: "env", val: str("dev")},
		{name: "unknown is skipped", v: "env", val: cty.UnknownVal(cty.String)},
		{name: "first rule fails", v: "env", val: str("qa"), wants: []string{"Invalid value for variable: The env must be dev or prod, not qa."}},
		{name: "both rules fail", v: "env", val: str("staging"), wants: []string{
			"Invalid value for variable: The env must be dev or prod, not staging.",
			"Invalid value for variable: Too long.",
		}},
		{name: "null condition", v: "nullcond", val: str("x"), wants: []string{"Invalid variable validation result: Validation condition expression must return either true or false, not null."}},
		{name: "string condition that is a bool", v: "strcond", val: str("true")},
		{name: "string condition that is not a bool", v: "strcond", val: str("maybe"), wants: []string{"Invalid variable validation result: Invalid validation condition result value: a bool is required."}},
		{name: "message that is not a string", v: "badmsg", val: str("bad"), wants: []string{
			"Invalid error message: Unsuitable value for error message: string required, but have tuple.",
			"Invalid value for variable: Failed to evaluate condition error message.",
		}},
		{name: "sensitive message", v: "secret", val: str("bad").Mark("sensitive"), wants: []string{
			"Error message refers to sensitive values: The error expression used to explain this condition refers to sensitive values. OpenTofu will not display the resulting message.",
			"Invalid value for variable: The error message included a sensitive value, so it will not be displayed.",
		}},
		{name: "regex fails", v: "failing", val: str("ABC"), wants: []string{"Invalid value for variable: Lower-case letters only."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := m.Variables[tc.v]
			diags := Validate(v, ctxFor(v, tc.val))
			errs := errorsOf(diags)
			if len(errs) != len(tc.wants) {
				t.Fatalf("errors %q, want %q", errs, tc.wants)
			}
			for i, want := range tc.wants {
				if !strings.HasPrefix(errs[i], want) {
					t.Errorf("error %d:\n%q\nwant prefix\n%q", i, errs[i], want)
				}
			}
			for _, d := range diags {
				if d.Summary != "Invalid value for variable" {
					continue
				}
				var rule *config.CheckRule
				for _, r := range v.Validations {
					if *d.Subject == r.Condition.Range() {
						rule = r
					}
				}
				if rule == nil {
					t.Errorf("subject %v is not a condition", d.Subject)
					continue
				}
				if !strings.HasSuffix(d.Detail, "\n\nThis was checked by the validation rule at "+rule.DeclRange.String()+".") {
					t.Errorf("detail %q", d.Detail)
				}
			}
		})
	}
}

// TestValidateJSONMessage checks OpenTofu's fallback for an error message in
// JSON syntax that is not a valid template.
func TestValidateJSONMessage(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf.json": `{
  "variable": {
    "x": {
      "type": "string",
      "validation": [{
        "condition": "${var.x == \"ok\"}",
        "error_message": "Use ${ok."
      }]
    }
  }
}`})
	v := m.Variables["x"]
	diags := Validate(v, ctxFor(v, str("no")))
	errs, warns := errorsOf(diags), warningsOf(diags)
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "Invalid value for variable: Use ${ok.") {
		t.Errorf("errors %q", errs)
	}
	if len(warns) != 1 || !strings.HasPrefix(warns[0], "Validation error message expression is invalid: ") {
		t.Errorf("warnings %q", warns)
	}
}
