package golden_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/golden"
	"github.com/tofucue/tofucue/refs"
)

// TestRefs loads the module of each case in refs/ and finds and checks its
// references. It compares:
//
//   - want/features: the features the module has enabled, with the reasons;
//   - want/references: every reference, where it is, what it reads as and
//     the declaration it is written in;
//   - want/diagnostics: the loader's and the reference checker's
//     diagnostics, one per line;
//   - want/errors: the same diagnostics as a terminal shows them, so that
//     the RFC's wording can be compared word for word;
//   - want/fixes: the edits the diagnostics propose, and the line each
//     gives.
func TestRefs(t *testing.T) {
	golden.Run(t, "refs", func(t *testing.T, c *golden.Case) map[string]string {
		dir := c.Materialize(t)
		mod, diags := config.Load(dir)
		if mod == nil {
			t.Fatalf("config.Load returned no module; diagnostics:\n%s", golden.Diagnostics(dir, diags))
		}
		uses, _ := refs.InModule(mod)
		diags = append(diags, refs.CheckModule(mod)...)
		return map[string]string{
			"features":    activeFeatures(mod),
			"references":  references(dir, uses),
			"diagnostics": golden.Diagnostics(dir, diags),
			"errors":      golden.Render(dir, mod.Files, diags),
			"fixes":       fixes(dir, mod, diags),
		}
	})
}

func activeFeatures(mod *config.Module) string {
	var b strings.Builder
	all := mod.ActiveFeatures().All()
	for i := range all {
		a := &all[i]
		var why []string
		for _, r := range a.Reasons {
			why = append(why, r.String())
		}
		fmt.Fprintf(&b, "%s (%s): %s\n", a.Feature.Name, a.Feature.State, strings.Join(why, "; "))
	}
	if b.Len() == 0 {
		return "(none)\n"
	}
	return b.String()
}

// references lists uses as "FILE:LINE,COL: TEXT -> KIND SUBJECT [+ REST] in DECL".
func references(dir string, uses []refs.Use) string {
	var b strings.Builder
	for _, u := range uses {
		r := u.Traversal.SourceRange()
		rest := ""
		if len(u.Remaining) > 0 {
			rest = " + " + refs.TraversalString(u.Remaining)
		}
		fmt.Fprintf(&b, "%s:%d,%d: %s -> %s %s%s in %s\n", rel(dir, r.Filename), r.Start.Line, r.Start.Column,
			u.Text(), subjectKind(u.Subject), u.Subject, rest, u.In)
	}
	if b.Len() == 0 {
		return "(none)\n"
	}
	return b.String()
}

func subjectKind(s refs.Subject) string {
	switch s := s.(type) {
	case refs.FeatureSymbol:
		return "feature " + s.Feature.Name
	case refs.Resource, refs.ResourceInstance:
		return "resource"
	case refs.InputVariable:
		return "variable"
	case refs.LocalValue:
		return "local"
	case refs.ModuleCall, refs.ModuleCallInstance, refs.ModuleCallOutput:
		return "module"
	case refs.TypeKeyword:
		return "type"
	}
	return "attribute"
}

// fixes applies each proposed edit to its file on its own and shows the
// edited line.
func fixes(dir string, mod *config.Module, diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		p, ok := refs.ProblemOf(d)
		if !ok || p.Fix == nil {
			continue
		}
		src := mod.Files[p.Fix.Range.Filename].Bytes
		edited := slices.Concat(src[:p.Fix.Range.Start.Byte], []byte(p.Fix.Text), src[p.Fix.Range.End.Byte:])
		line := strings.Split(string(edited), "\n")[p.Fix.Range.Start.Line-1]
		fmt.Fprintf(&b, "%s:%d,%d: %q -> %s\n", rel(dir, p.Fix.Range.Filename), p.Fix.Range.Start.Line, p.Fix.Range.Start.Column, p.Fix.Text, strings.TrimSpace(line))
	}
	if b.Len() == 0 {
		return "(none)\n"
	}
	return b.String()
}

func rel(dir, path string) string {
	r, err := filepath.Rel(dir, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}
