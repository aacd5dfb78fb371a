package refs

import (
	"fmt"
	"maps"
	"slices"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/features"
)

// Problem is the Extra of every diagnostic that Check returns: the reference
// it is about and, where the diagnostic proposes one, the edit that fixes it.
type Problem struct {
	Reference *Reference
	Fix       *Edit
}

// Edit replaces the source text in Range with Text. An insertion has an
// empty range.
type Edit struct {
	Range hcl.Range
	Text  string
}

// ProblemOf returns the Problem of a diagnostic that Check produced.
func ProblemOf(d *hcl.Diagnostic) (Problem, bool) {
	p, ok := d.Extra.(Problem)
	return p, ok
}

// Check reports a reference to something that the module does not declare
// or that the language does not have, in OpenTofu's words. A feature symbol
// whose block is missing gets the RFC's message, with the "resource." hint
// and its fix when the module declares a resource of that type and name.
func Check(ref *Reference, m *config.Module) hcl.Diagnostics {
	var d checker
	d.ref = ref
	switch s := ref.Subject.(type) {
	case InputVariable:
		if _, ok := m.Variables[s.Name]; !ok {
			hint := suggest(s.Name, slices.Collect(maps.Keys(m.Variables)))
			if hint == "" {
				hint = fmt.Sprintf(" This variable can be declared with a variable %q {} block.", s.Name)
			}
			d.errorf("Reference to undeclared input variable", "An input variable with the name %q has not been declared.%s", s.Name, hint)
		}
	case LocalValue:
		if _, ok := m.Locals[s.Name]; !ok {
			d.errorf("Reference to undeclared local value", "A local value with the name %q has not been declared.%s", s.Name, suggest(s.Name, slices.Collect(maps.Keys(m.Locals))))
		}
	case ModuleCall:
		d.moduleCall(m, s)
	case ModuleCallInstance:
		d.moduleCall(m, s.Call)
	case ModuleCallOutput:
		d.moduleCall(m, s.Call.Call)
	case Resource:
		d.resource(m, s)
	case ResourceInstance:
		d.resource(m, s.Resource)
	case PathAttr:
		if !slices.Contains([]string{"cwd", "module", "root"}, s.Name) {
			d.errorf(`Invalid "path" attribute`, `The "path" object does not have an attribute named %q.%s`, s.Name, suggest(s.Name, []string{"cwd", "module", "root"}))
		}
	case TerraformAttr:
		switch s.Name {
		case "workspace", "applying":
		case "env":
			d.errorf(fmt.Sprintf("Invalid %q attribute", s.Alias),
				`The %s.env attribute was deprecated in v0.10 and removed in v0.12. The "state environment" concept was renamed to "workspace" in v0.12, and so the workspace name can now be accessed using the %s.workspace attribute.`, s.Alias, s.Alias)
		default:
			d.errorf(fmt.Sprintf("Invalid %q attribute", s.Alias),
				`The %q object does not have an attribute named %q. The only supported attributes are %s.workspace and %s.applying`, s.Alias, s.Name, s.Alias, s.Alias)
		}
	case CountAttr:
		if s.Name != "index" {
			d.errorf(`Invalid "count" attribute`, `The "count" object does not have an attribute named %q. The only supported attribute is count.index, which is the index of each instance of a resource block that has the "count" argument set.`, s.Name)
		}
	case EachAttr:
		if s.Name != "key" && s.Name != "value" {
			d.errorf(`Invalid "each" attribute`, `The "each" object does not have an attribute named %q. The supported attributes are each.key and each.value, the current key and value pair of the "for_each" attribute set.`, s.Name)
		}
	case FeatureSymbol:
		d.featureSymbol(m, s)
	}
	return d.diags
}

type checker struct {
	ref   *Reference
	diags hcl.Diagnostics
}

func (d *checker) errorf(summary, format string, args ...any) {
	d.report(nil, summary, fmt.Sprintf(format, args...))
}

func (d *checker) report(fix *Edit, summary, detail string) {
	d.diags = append(d.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   detail,
		Subject:  d.ref.Range.Ptr(),
		Extra:    Problem{Reference: d.ref, Fix: fix},
	})
}

func (d *checker) moduleCall(m *config.Module, call ModuleCall) {
	if _, ok := m.ModuleCalls[call.Name]; !ok {
		d.errorf("Reference to undeclared module", "No module call named %q is declared in this module.%s", call.Name, suggest(call.Name, slices.Collect(maps.Keys(m.ModuleCalls))))
	}
}

func (d *checker) resource(m *config.Module, r Resource) {
	if m.Resource(r.Mode, r.Type, r.Name) != nil {
		return
	}
	hint := ""
	// The common mistake: a data or ephemeral resource without its prefix,
	// or the other way round.
	for _, other := range []config.ResourceMode{config.ManagedMode, config.DataMode, config.EphemeralMode} {
		if other != r.Mode && m.Resource(other, r.Type, r.Name) != nil {
			hint = fmt.Sprintf("\n\nDid you mean the %s resource %s?", modeAdjective(other), Resource{Mode: other, Type: r.Type, Name: r.Name})
			break
		}
	}
	d.errorf("Reference to undeclared resource", "There is no %s resource %q %q definition in this module.%s", modeAdjective(r.Mode), r.Type, r.Name, hint)
}

func modeAdjective(mode config.ResourceMode) string {
	switch mode {
	case config.DataMode:
		return "data"
	case config.EphemeralMode:
		return "ephemeral"
	}
	return "managed"
}

// featureSymbol reports a feature symbol whose block does not exist, in the
// words of the RFC: "Reference to undefined symbol library".
func (d *checker) featureSymbol(m *config.Module, s FeatureSymbol) {
	f := s.Feature
	if _, ok := m.FeatureBlock(f.Block, s.Name); ok {
		return
	}
	detail := fmt.Sprintf("There is no %s block named %q defined in this module.", f.Block, s.Name)
	var fix *Edit
	if m.HasManagedResource(f.Symbol, s.Name) {
		escaped := "resource." + d.ref.Text()
		detail += fmt.Sprintf("\n\nDid you intend to refer to resource %q %q? If so, use the \"resource.\" prefix:\n    %s", f.Symbol, s.Name, escaped)
		start := d.ref.Traversal[0].SourceRange()
		fix = &Edit{Range: hcl.Range{Filename: start.Filename, Start: start.Start, End: start.Start}, Text: "resource."}
	}
	if f.State == features.Experiment && !m.FeatureEnabled(f) {
		detail += fmt.Sprintf("\n\nThe %s block type belongs to the experimental feature %q, which this module has not opted in to. To use it, name the feature in a terraform block: experiments = [%s].", f.Block, f.Name, f.Name)
	}
	d.report(fix, "Reference to undefined "+f.BlockNoun(), detail)
}

// suggest returns ` Did you mean "x"?` for the candidate closest to name,
// when one is close enough to be a likely typo, and "" otherwise.
func suggest(name string, candidates []string) string {
	slices.Sort(candidates)
	best, bestDist := "", 3 // at most two edits
	for _, c := range candidates {
		if dist := levenshtein.Distance(name, c, nil); dist < bestDist {
			best, bestDist = c, dist
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}
