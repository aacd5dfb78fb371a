package inputs

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/functions"
)

// Validate runs v's validation blocks with ctx, in which the caller has put
// var.<name> and the functions. A condition whose value is unknown is
// skipped; one that is false gives OpenTofu's "Invalid value for variable"
// error, with the evaluated error_message, whose subject is the condition.
// A condition that is null or not a bool is an "Invalid variable validation
// result".
func Validate(v *config.Variable, ctx *hcl.EvalContext) hcl.Diagnostics {
	if v == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, rule := range v.Validations {
		d, _ := validateRule(rule, ctx)
		diags = append(diags, d...)
	}
	return diags
}

// ruleStatus is the outcome of one validation rule.
type ruleStatus int

const (
	rulePass ruleStatus = iota
	ruleUnknown
	ruleFail
	ruleError
)

func validateRule(rule *config.CheckRule, ctx *hcl.EvalContext) (diags hcl.Diagnostics, status ruleStatus) {
	if rule == nil || rule.Condition == nil {
		return nil, rulePass
	}
	defer func() {
		if r := recover(); r != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid variable validation result",
				Detail:   fmt.Sprintf("The validation condition cannot be evaluated: %v.", r),
				Subject:  rule.Condition.Range().Ptr(),
			})
			status = ruleError
		}
	}()
	const invalidResult = "Invalid variable validation result"

	result, diags := rule.Condition.Value(ctx)
	var errorValue cty.Value
	var errorDiags hcl.Diagnostics
	if rule.ErrorMessage != nil {
		errorValue, errorDiags = rule.ErrorMessage.Value(ctx)
		if errorDiags.HasErrors() {
			// An error message in JSON syntax used to be taken literally,
			// "${" and all; OpenTofu still accepts that, with a warning.
			var s string
			if more := gohcl.DecodeExpression(rule.ErrorMessage, nil, &s); !more.HasErrors() {
				errorValue = cty.StringVal(s)
				errorDiags = hcl.Diagnostics{{
					Severity:    hcl.DiagWarning,
					Summary:     "Validation error message expression is invalid",
					Detail:      fmt.Sprintf("The error message provided could not be evaluated as an expression, so OpenTofu is interpreting it as a string literal.\n\nIn future versions of OpenTofu, this will be considered an error. Please file a GitHub issue if this would break your workflow.\n\n%s", errorDiags.Error()),
					Subject:     rule.ErrorMessage.Range().Ptr(),
					Context:     rule.DeclRange.Ptr(),
					Expression:  rule.ErrorMessage,
					EvalContext: ctx,
				}}
			}
			diags = append(diags, errorDiags...)
		}
	}

	if !result.IsKnown() {
		if diags.HasErrors() {
			return diags, ruleError
		}
		return diags, ruleUnknown
	}
	if result.IsNull() {
		return append(diags, &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     invalidResult,
			Detail:      "Validation condition expression must return either true or false, not null.",
			Subject:     rule.Condition.Range().Ptr(),
			Expression:  rule.Condition,
			EvalContext: ctx,
		}), ruleError
	}
	result, err := convert.Convert(result, cty.Bool)
	if err != nil {
		return append(diags, &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     invalidResult,
			Detail:      fmt.Sprintf("Invalid validation condition result value: %s.", err),
			Subject:     rule.Condition.Range().Ptr(),
			Expression:  rule.Condition,
			EvalContext: ctx,
		}), ruleError
	}
	result, _ = result.Unmark()
	if !result.IsKnown() {
		return diags, ruleUnknown
	}
	if result.True() {
		return diags, rulePass
	}

	var message string
	switch {
	case rule.ErrorMessage == nil || errorDiags.HasErrors():
	case !errorValue.IsKnown():
		return append(diags, &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     "Invalid error message",
			Detail:      "Value used in error message is not known and can not be used in error_message until after apply.",
			Subject:     rule.ErrorMessage.Range().Ptr(),
			Expression:  rule.ErrorMessage,
			EvalContext: ctx,
		}), ruleFail
	case !errorValue.IsNull():
		s, err := convert.Convert(errorValue, cty.String)
		switch {
		case err != nil:
			diags = append(diags, &hcl.Diagnostic{
				Severity:    hcl.DiagError,
				Summary:     "Invalid error message",
				Detail:      fmt.Sprintf("Unsuitable value for error message: %s.", err),
				Subject:     rule.ErrorMessage.Range().Ptr(),
				Expression:  rule.ErrorMessage,
				EvalContext: ctx,
			})
		case s.HasMark(functions.SensitiveMark):
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Error message refers to sensitive values",
				Detail: "The error expression used to explain this condition refers to sensitive values. OpenTofu will not display the resulting message.\n\n" +
					"You can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
				Subject:     rule.ErrorMessage.Range().Ptr(),
				Expression:  rule.ErrorMessage,
				EvalContext: ctx,
			})
			message = "The error message included a sensitive value, so it will not be displayed."
		default:
			s, _ = s.UnmarkDeep()
			message = strings.TrimSpace(s.AsString())
		}
	}
	if message == "" {
		message = "Failed to evaluate condition error message."
	}
	return append(diags, &hcl.Diagnostic{
		Severity:    hcl.DiagError,
		Summary:     "Invalid value for variable",
		Detail:      fmt.Sprintf("%s\n\nThis was checked by the validation rule at %s.", message, rule.DeclRange),
		Subject:     rule.Condition.Range().Ptr(),
		Expression:  rule.Condition,
		EvalContext: ctx,
	}), ruleFail
}

// functionContext is an evaluation context with every OpenTofu function,
// as at plan time, for a module in dir.
func functionContext(dir string) *hcl.EvalContext {
	if dir == "" {
		dir = "."
	}
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{},
		Functions: functions.Table(functions.Options{BaseDir: filepath.Clean(dir), PlanTime: true}),
	}
}
