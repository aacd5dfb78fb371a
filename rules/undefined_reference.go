package rules

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/features"
	"github.com/tofucue/tofucue/refs"
)

// UndefinedReference is the rule undefined_reference.
var UndefinedReference = &Rule{
	Name: "undefined_reference",
	Doc: `Reports a reference to something the module does not declare: an
input variable, a local value, a module call, a managed, data or ephemeral
resource, an attribute that path, terraform, count or each does not have,
and a module output that the called module does not declare; in OpenTofu's
words, with a suggestion where a declared name is a likely typo. A data
source declared inside a check block is reported where it is used outside
that block, which cannot see it. Variables and locals used in backend,
cloud and encryption blocks and in import targets are checked too. Module
outputs are checked when the call's module is a local path (./ or ../), a
module tofu init installed (.terraform/modules/modules.json, unless it is
stale) or a source --module-source maps: the rule loads the called module,
once per directory for the whole run, and skips calls whose module does not
load cleanly. Other registry and remote sources are skipped silently, since
the linter does not install modules, and so is
module.NAME.OUTPUT for a call with count or for_each, where the step after
the name can be an instance key. References to feature blocks (symbols.,
middleware.) are symbol_reference's and middleware lists are
middleware_reference's.

Bad:

    variable "region" {}
    provider "aws" { region = var.regoin }

Good:

    provider "aws" { region = var.region }`,
	Severity: Error,
	Enabled:  true,
	Check:    checkUndefinedReferences,
}

func checkUndefinedReferences(p *Pass) {
	m := p.Module
	listed := middlewareListElements(m)
	scoped := map[string]string{} // "type.name" -> the check block that declares the data source
	for _, c := range m.Checks {
		if c.DataSource != nil {
			scoped[c.DataSource.Key()] = c.Name
		}
	}
	outputs := map[string]childOutputs{}
	for _, u := range slices.Concat(p.References, staticUses(m)) {
		if _, ok := u.Subject.(refs.FeatureSymbol); ok || listed[keyOf(u.Traversal.SourceRange())] {
			continue
		}
		diags := refs.Check(u.Reference, m)
		if len(diags) == 0 {
			if out, ok := u.Subject.(refs.ModuleCallOutput); ok {
				checkModuleOutput(p, u, out, outputs)
			}
			continue
		}
		for _, d := range diags {
			if r := resourceOf(u.Reference); r.Mode == config.DataMode && scoped[r.Type+"."+r.Name] != "" {
				check := scoped[r.Type+"."+r.Name]
				if u.In == fmt.Sprintf("check %q", check) {
					continue
				}
				d.Summary = "Reference to scoped resource"
				d.Detail = fmt.Sprintf("The referenced data resource %q %q is not available from this context. It is declared inside check block %q, and only that block can refer to it.", r.Type, r.Name, check)
			} else if !strings.Contains(d.Detail, "Did you mean") {
				d.Detail += resourceSuggestion(m, u.Reference)
			}
			p.ReportDiagnostic(d, nil)
		}
	}
}

// resourceSuggestion proposes a declared resource of the same mode whose
// address is close to the one a reference names, for a resource reference.
func resourceSuggestion(m *config.Module, ref *refs.Reference) string {
	switch ref.Subject.(type) {
	case refs.Resource, refs.ResourceInstance:
	default:
		return ""
	}
	r := resourceOf(ref)
	pool := map[config.ResourceMode]map[string]*config.Resource{
		config.ManagedMode: m.ManagedResources, config.DataMode: m.DataResources, config.EphemeralMode: m.EphemeralResources,
	}[r.Mode]
	s := nearest(r.Type+"."+r.Name, slices.Collect(maps.Keys(pool)))
	if s == "" {
		return ""
	}
	typ, name, _ := strings.Cut(s, ".")
	return fmt.Sprintf("\n\nDid you mean %s?", refs.Resource{Mode: r.Mode, Type: typ, Name: name})
}

// checkModuleOutput reports module.NAME.OUTPUT where the called module is
// a local directory, a module tofu init installed or one the user mapped,
// and declares no such output. A module not available is not checked.
func checkModuleOutput(p *Pass, u refs.Use, out refs.ModuleCallOutput, memo map[string]childOutputs) {
	mc := p.Module.ModuleCalls[out.Call.Call.Name]
	if mc == nil || mc.SourceAddr == nil {
		return
	}
	if out.Call.Key == refs.NoKey && (mc.Count != nil || mc.ForEach != nil) {
		return // module.NAME.X may be the instance with key X
	}
	child := p.Sources.Find(p.Module.Dir, "", p.Module.Dir, mc)
	if child.Kind == config.NotAvailable {
		return
	}
	dir := child.Dir
	co, ok := memo[dir]
	if !ok {
		co = loadOutputs(dir)
		memo[dir] = co
	}
	if !co.ok || slices.Contains(co.names, out.Name) {
		return
	}
	p.Report(Finding{
		Message: "Reference to undeclared output value",
		Detail: fmt.Sprintf("An output value with the name %q has not been declared in the module that %s calls (%s).%s",
			out.Name, out.Call.Call, mc.SourceAddr.Raw, didYouMean(out.Name, co.names)),
		Range: u.Range,
	})
}

// childOutputs are the output names of a module directory; ok is false
// when the directory does not load cleanly, and nothing is checked.
type childOutputs struct {
	stamp string
	names []string
	ok    bool
}

// outputsCache holds the outputs of every module directory loaded so far,
// by absolute path, with a stamp of its files: a directory is loaded again
// only when a configuration file in it changes.
var outputsCache sync.Map

// NoteModule records the outputs of a module that the caller has loaded
// (with the loader's diagnostics), so that checking a reference to one of
// its outputs from a calling module does not load it again. tofulint notes
// every module it lints; most local module calls go up the tree (an
// example calling ../..), to modules linted before their callers.
func NoteModule(m *config.Module, diags hcl.Diagnostics) {
	abs, err := filepath.Abs(m.Dir)
	if err != nil {
		return
	}
	stamp, ok := dirStamp(abs)
	if !ok {
		return
	}
	outputsCache.Store(abs, outputsOf(m, diags, stamp))
}

// outputsOf returns a loaded module's outputs.
func outputsOf(m *config.Module, diags hcl.Diagnostics, stamp string) childOutputs {
	co := childOutputs{stamp: stamp}
	if m != nil && loadedCleanly(diags) {
		co.names = slices.Sorted(maps.Keys(m.Outputs))
		co.ok = true
	}
	return co
}

func loadOutputs(dir string) childOutputs {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return childOutputs{}
	}
	stamp, ok := dirStamp(abs)
	if !ok {
		return childOutputs{}
	}
	if v, ok := outputsCache.Load(abs); ok && v.(childOutputs).stamp == stamp {
		return v.(childOutputs)
	}
	mod, diags := config.Load(abs)
	co := outputsOf(mod, diags, stamp)
	outputsCache.Store(abs, co)
	return co
}

// loadedCleanly reports whether a module's loader diagnostics have no error
// other than those a rule claims (which do not make declarations unclear).
func loadedCleanly(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if _, ok := config.KindOf(d); ok {
			continue
		}
		if _, ok := features.OptInOf(d); ok {
			continue
		}
		return false
	}
	return true
}

// dirStamp describes the configuration files of a directory by name, size
// and modification time; false when it cannot be read.
func dirStamp(dir string) (string, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !isConfigFileName(name) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return "", false
		}
		fmt.Fprintf(&b, "%s %d %d\n", name, info.Size(), info.ModTime().UnixNano())
	}
	return b.String(), true
}

func isConfigFileName(name string) bool {
	for _, s := range []string{".tf", ".tf.json", ".tofu", ".tofu.json"} {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}
