package hcl

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/middleware"
	"github.com/tofucue/tofucue/engine/plan"
	"github.com/tofucue/tofucue/functions"
)

// MaxSynthesisPlans bounds the plans that --synthesize makes after the
// first, when that one fails because of a value it made up. Each is a whole
// plan of the tree, so the bound is what a failing module may cost beyond
// its first plan. It is three errors' worth of maxPlansPerError: enough for
// a module whose errors come one after another (a null default, then a
// pattern, then a bound), each needing a few candidates. On the corpus
// (go test ./engine/hcl -run TestCorpus, TOFUCUE_SYNTHESIS_PLANS=N to
// change it), the search makes 23 more modules plan: 20 after one more
// plan, 2 after two, 1 after three; bounds of 8 and 64 make the same ones
// plan. Most modules it cannot fix stop before the bound, when no error is
// left that a variable with candidates is blamed for.
const MaxSynthesisPlans = 24

// maxPlansPerError bounds the plans spent on one error: an error that
// values cannot fix (a mock's list too short, a file that is not there)
// would otherwise take them all from the errors after it.
const maxPlansPerError = 8

// planSynthesized plans the tree with the inputs that Collect synthesized,
// and when that fails because of a value made up or a default that stands
// for none (a synthesized value, the null default of a nullable variable,
// an empty string default, a default that fails its own validations),
// tries other values for the variables involved until the module plans or
// MaxSynthesisPlans more plans have been made.
//
// Each failing error, in the order of their positions, is blamed on the root
// variables that its expression may depend on (or, when that reaches none
// that can change, the function call around it, or the whole argument's
// expression): its references, and through locals, module call arguments and
// outputs, resources and the for_each and count of the blocks around it, the
// references those make (see blame). Each such variable has an ordered list
// of candidates (inputs.Candidates), to which the error's expression adds
// hints. One plan tries, for the first error that has a blamed variable with
// candidates left, the first time every blamed variable that is null at once
// (at its first non-null value), else the next candidate of the blamed
// variable this error has changed least. The change is kept when the error
// is gone (the plan may fail further on, where it could not reach before),
// or when fewer parts of its condition's && chain are false, unless an error
// that was not there appears before it; it is undone otherwise. Candidates
// are never returned twice, so the search moves forward and ends; it is
// deterministic. Errors about values not known until apply are not blamed on
// inputs: they follow from an error before them, or from the mock providers.
// When no plan succeeds, the plan of the last change kept is returned (its
// errors are those the search could not fix), with a warning that names the
// values it was planned with.
//
// Middleware runs in the first plan only: the search plans without it, and
// the inputs it finds are planned once more with it.
func planSynthesized(t *Tree, ins map[string]*inputs.Input, opts Options) (*plan.Plan, hcl.Diagnostics) {
	running := opts.Middleware.Enabled || len(opts.Middleware.Only) > 0
	search := opts
	search.Middleware = middleware.Options{}
	p, diags, pl := planWith(t, ins, opts)
	if !diags.HasErrors() {
		return p, diags
	}

	s := &synthSearch{t: t, cands: map[string]*inputs.Candidates{}, stuck: map[string]bool{}, spent: map[string]int{}, turns: map[string]int{}}
	cur := maps.Clone(ins)
	ctx := s.context(ins)
	for _, name := range slices.Sorted(maps.Keys(ins)) {
		in, v := ins[name], t.Root.Variables[name]
		if v != nil && (in.Synthesized || in.Source == "default" && placeholder(v, in.Value, ctx)) {
			s.cands[name] = inputs.NewCandidates(v, in.Value, ctx)
		}
	}
	if len(s.cands) == 0 {
		return p, diags
	}
	tries, bound := 0, cmp.Or(opts.MaxSynthesisPlans, MaxSynthesisPlans)
	for tries < bound {
		target, before, trial := s.next(pl, diags, cur)
		if target == nil {
			break
		}
		tries++
		p2, d2, pl2 := planWith(t, trial, search)
		if traceSynthesis != nil {
			traceSynthesis(fmt.Sprintf("try %d for %s (%s): %s; %d errors, first: %s", tries, target.Summary, target.Subject, inputsText(cur, trial), errorCount(d2), firstErrorText(d2)))
		}
		if !d2.HasErrors() {
			if running {
				p2, d2, _ = planWith(t, trial, opts)
			}
			if note := chosenNote(ins, trial, tries); note != "" {
				p2.Notes = append(p2.Notes, note)
			}
			return p2, d2
		}
		if !improves(target, before, d2, pl2) || regresses(target, diags, d2) {
			continue
		}
		for _, name := range changedNames(cur, trial) {
			s.cands[name].Accept()
		}
		cur, p, diags, pl = trial, p2, d2, pl2
	}
	if tries > 0 {
		diags = append(diags, s.giveUp(ins, cur, tries))
	}
	return p, diags
}

// traceSynthesis, when a test sets it, is told about every plan of the
// search.
var traceSynthesis func(string)

func inputsText(cur, trial map[string]*inputs.Input) string {
	var parts []string
	for _, name := range changedNames(cur, trial) {
		parts = append(parts, name+" = "+plan.FormatValue(trial[name].Value))
	}
	return strings.Join(parts, ", ")
}

func firstErrorText(diags hcl.Diagnostics) string {
	for _, d := range sortedErrors(diags) {
		return fmt.Sprintf("%s (%s): %s", d.Summary, d.Subject, d.Detail)
	}
	return ""
}

// synthSearch is the state of planSynthesized's search.
type synthSearch struct {
	t *Tree
	// cands are the candidates of the variables the search may change.
	cands map[string]*inputs.Candidates
	// stuck holds the errors (errorKey) whose blamed variables have no
	// candidates left, or that have had maxPlansPerError plans.
	stuck map[string]bool
	// spent counts the plans made for each error, turns the changes of
	// each variable for each error.
	spent, turns map[string]int
}

// next picks the error to fix and the inputs to try for it; a nil error
// means that nothing is left to try.
func (s *synthSearch) next(pl *planner, diags hcl.Diagnostics, cur map[string]*inputs.Input) (*hcl.Diagnostic, int, map[string]*inputs.Input) {
	for _, d := range sortedErrors(diags) {
		key := errorKey(d)
		if s.stuck[key] || strings.Contains(d.Detail, "cannot be determined until apply") {
			continue
		}
		parts := falseParts(d, pl)
		var blamed []string
		levels := [][]hcl.Expression{parts}
		for _, e := range wider(pl, d) {
			levels = append(levels, []hcl.Expression{e})
		}
		for _, level := range levels {
			names, exprs := blame(pl, d, level)
			for _, name := range names {
				if c := s.cands[name]; c != nil {
					blamed = append(blamed, name)
					for _, e := range exprs {
						c.Hint(e)
					}
				}
			}
			if len(blamed) > 0 {
				break
			}
		}
		trial := maps.Clone(cur)
		changed := false
		// The first time, every blamed variable that is null gets a
		// value at once: a template or a call with two of them fails until
		// both have one.
		for _, name := range blamed {
			if v := cur[name].Value; s.spent[key] == 0 && v.IsKnown() && v.IsNull() {
				if val, ok := s.cands[name].Next(); ok {
					trial[name] = chosen(name, val)
					changed = true
				}
			}
		}
		// Else the blamed variable this error has changed least, so that
		// each gets its turn.
		if !changed {
			slices.SortStableFunc(blamed, func(a, b string) int { return cmp.Compare(s.turns[key+"\x00"+a], s.turns[key+"\x00"+b]) })
			for _, name := range blamed {
				if val, ok := s.cands[name].Next(); ok {
					trial[name] = chosen(name, val)
					s.turns[key+"\x00"+name]++
					changed = true
					break
				}
			}
		}
		if changed {
			s.spent[key]++
			if s.spent[key] >= maxPlansPerError {
				s.stuck[key] = true
			}
			return d, len(parts), trial
		}
		s.stuck[key] = true
	}
	return nil, 0, nil
}

// placeholder reports whether val, a variable's default, stands for no
// value: null (for a nullable variable), the empty string (the idiom for
// none from before null), or a value that fails the variable's own
// validations (a module that wants its users to choose).
func placeholder(v *config.Variable, val cty.Value, ctx *hcl.EvalContext) bool {
	switch {
	case !val.IsKnown():
		return false
	case val.IsNull():
		return v.Nullable
	case val.Type() == cty.String && val.AsString() == "":
		return true
	}
	return failsValidation(v, val, ctx)
}

// failsValidation reports whether val fails v's validations.
func failsValidation(v *config.Variable, val cty.Value, ctx *hcl.EvalContext) bool {
	if len(v.Validations) == 0 {
		return false
	}
	c := ctx.NewChild()
	vars := map[string]cty.Value{}
	if cur, ok := ctx.Variables["var"]; ok {
		maps.Copy(vars, cur.AsValueMap())
	}
	vars[v.Name] = val
	c.Variables = map[string]cty.Value{"var": cty.ObjectVal(vars)}
	return inputs.Validate(v, c).HasErrors()
}

func chosen(name string, val cty.Value) *inputs.Input {
	return &inputs.Input{Name: name, Value: val, Source: "synthesized", Synthesized: true}
}

// context is what the candidates' validations are evaluated in: the
// functions and the root module's current values.
func (s *synthSearch) context(cur map[string]*inputs.Input) *hcl.EvalContext {
	vars := map[string]cty.Value{}
	for name, in := range cur {
		vars[name] = in.Value
	}
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)},
		Functions: functions.Table(functions.Options{BaseDir: s.t.Root.Dir, Root: s.t.ReadRoot, PlanTime: true}),
	}
}

// chosenNote tells, in a plan that the search made, which variables have
// other values than the first ones and after how many more plans.
func chosenNote(first, final map[string]*inputs.Input, tries int) string {
	names := changedNames(first, final)
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("the first synthesized inputs did not plan; after %d more %s, %s %s chosen instead (listed with the synthesized inputs).",
		tries, plural(tries, "plan", "plans"), joinVars(names), plural(len(names), "was", "were"))
}

// giveUp is the warning of a search that found no inputs that plan.
func (s *synthSearch) giveUp(first, final map[string]*inputs.Input, tries int) *hcl.Diagnostic {
	detail := fmt.Sprintf("The first synthesized inputs did not plan, nor did %d more %s with other values for the variables the errors involve.", tries, plural(tries, "plan", "plans"))
	if names := changedNames(first, final); len(names) > 0 {
		var b strings.Builder
		for _, name := range names {
			fmt.Fprintf(&b, "\n  %s = %s", name, plan.FormatValue(final[name].Value))
		}
		detail += " The errors are those of the plan with these values:" + b.String()
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "No synthesized inputs plan", Detail: detail}
}

func changedNames(first, final map[string]*inputs.Input) []string {
	var names []string
	for _, name := range slices.Sorted(maps.Keys(final)) {
		if f := first[name]; f != nil && !f.Value.RawEquals(final[name].Value) {
			names = append(names, name)
		}
	}
	return names
}

func joinVars(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = "var." + n
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// errorKey identifies an error across plans: its summary and position.
// The detail is left out: an error message may show the values.
func errorKey(d *hcl.Diagnostic) string {
	pos := ""
	if d.Subject != nil {
		pos = d.Subject.String()
	}
	return d.Summary + "\x00" + pos
}

// improves reports whether diags, of a plan with other inputs (made by
// pl), no longer has the error target, or has it with fewer parts of its
// condition false (a precondition or validation whose && chain holds
// further). before is target's count of false parts.
func improves(target *hcl.Diagnostic, before int, diags hcl.Diagnostics, pl *planner) bool {
	key := errorKey(target)
	for _, d := range diags {
		if d.Severity == hcl.DiagError && errorKey(d) == key && len(falseParts(d, pl)) >= before {
			return false
		}
	}
	return true
}

// regresses reports whether after, the errors of a plan with other
// inputs, has an error that before did not have, at a position before
// target's: the change broke what was evaluated first, and target may be
// gone only because it is no longer reached.
func regresses(target *hcl.Diagnostic, before, after hcl.Diagnostics) bool {
	had := map[string]bool{}
	for _, d := range before {
		had[errorKey(d)] = true
	}
	for _, d := range sortedErrors(after) {
		if compareErrors(d, target) >= 0 {
			return false
		}
		if !had[errorKey(d)] {
			return true
		}
	}
	return false
}

// falseParts are the parts of a failed condition's top-level && chain
// that are not true in the context it failed in: the condition of a
// precondition, postcondition or check that pl reported, or the
// expression of a diagnostic that has its context (a validation's). It is
// the diagnostic's expression alone, or nil, when there is no condition to
// look into.
func falseParts(d *hcl.Diagnostic, pl *planner) []hcl.Expression {
	expr, ctx := d.Expression, d.EvalContext
	if c, ok := pl.conditions[d]; ok {
		expr, ctx = c.expr, c.ctx
	}
	if expr == nil || ctx == nil {
		if expr == nil {
			return nil
		}
		return []hcl.Expression{expr}
	}
	var out []hcl.Expression
	for _, part := range andParts(expr, nil) {
		v, diags := part.Value(ctx)
		if !diags.HasErrors() && v.IsWhollyKnown() && !v.IsNull() && v.Type() == cty.Bool {
			if v, _ = v.UnmarkDeep(); v.True() {
				continue
			}
		}
		out = append(out, part)
	}
	if len(out) == 0 {
		return []hcl.Expression{expr}
	}
	return out
}

// andParts splits an expression at its top-level && operators.
func andParts(expr hcl.Expression, out []hcl.Expression) []hcl.Expression {
	switch e := expr.(type) {
	case *hclsyntax.ParenthesesExpr:
		return andParts(e.Expression, out)
	case *hclsyntax.BinaryOpExpr:
		if e.Op == hclsyntax.OpLogicalAnd {
			return andParts(e.RHS, andParts(e.LHS, out))
		}
	}
	return append(out, expr)
}

func errorCount(diags hcl.Diagnostics) int {
	n := 0
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			n++
		}
	}
	return n
}

// sortedErrors are the errors of diags by position (those without one
// last), then summary and detail.
func sortedErrors(diags hcl.Diagnostics) []*hcl.Diagnostic {
	var out []*hcl.Diagnostic
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, compareErrors)
	return out
}

// compareErrors orders errors by position (those without one last), then
// summary and detail.
func compareErrors(a, b *hcl.Diagnostic) int {
	if (a.Subject == nil) != (b.Subject == nil) {
		if a.Subject == nil {
			return 1
		}
		return -1
	}
	if a.Subject != nil {
		if c := cmp.Or(strings.Compare(a.Subject.Filename, b.Subject.Filename), cmp.Compare(a.Subject.Start.Byte, b.Subject.Start.Byte)); c != 0 {
			return c
		}
	}
	return cmp.Or(strings.Compare(a.Summary, b.Summary), strings.Compare(a.Detail, b.Detail))
}
