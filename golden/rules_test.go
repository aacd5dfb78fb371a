package golden_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/golden"
	"github.com/tofucue/tofucue/rules"
)

// TestRules runs each rule over the cases in rules/RULE_NAME/: the rule
// alone (as --only would), with unused ignore comments reported, and with
// the settings of the case's .tofulint.hcl when it has one (its options). It
// compares want/findings, one finding per line, and for every file that the
// fixes change, want/fixed/FILE. A case without fixes has want/fixed saying
// so. The fixed module is then linted again: a second --fix must change
// nothing.
func TestRules(t *testing.T) {
	dirs, err := os.ReadDir("rules")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		name := d.Name()
		if !d.IsDir() {
			continue
		}
		if rules.Lookup(name) == nil {
			t.Errorf("golden/rules/%s: no rule of that name", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			cfg := rules.Config{Only: []string{name}, ReportUnusedIgnores: true}
			golden.Run(t, filepath.Join("rules", name), func(t *testing.T, c *golden.Case) map[string]string {
				dir := c.Materialize(t)
				cfg := withConfigFile(t, dir, cfg)
				findings, mod := lintDir(t, dir, cfg)
				out := map[string]string{"findings": formatFindings(dir, findings)}
				changed := fixDir(t, mod, findings)
				if len(changed) == 0 {
					out["fixed"] = "(no fixes)\n"
				}
				for file, src := range changed {
					out["fixed/"+rel(dir, file)] = string(src)
				}
				if len(changed) > 0 {
					again, mod := lintDir(t, dir, cfg)
					if more := fixDir(t, mod, again); len(more) > 0 {
						t.Errorf("a second --fix changed %d more files", len(more))
					}
				}
				return out
			})
		})
	}
	for _, r := range rules.All() {
		if _, err := os.Stat(filepath.Join("rules", r.Name)); err != nil {
			t.Errorf("rule %s has no golden cases in golden/rules/%s", r.Name, r.Name)
		}
	}
}

// withConfigFile returns cfg with the settings of dir/.tofulint.hcl under
// it, when the file exists.
func withConfigFile(t *testing.T, dir string, cfg rules.Config) rules.Config {
	t.Helper()
	path := filepath.Join(dir, rules.ConfigFileName)
	if _, err := os.Stat(path); err != nil {
		return cfg
	}
	file, diags := rules.LoadConfigFile(path)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return file.Merge(cfg)
}

func lintDir(t *testing.T, dir string, cfg rules.Config) ([]rules.Finding, *config.Module) {
	t.Helper()
	mod, diags := config.Load(dir)
	if mod == nil {
		t.Fatalf("config.Load returned no module: %s", diags.Error())
	}
	selected, err := cfg.Select()
	if err != nil {
		t.Fatal(err)
	}
	return rules.Run(mod, diags, selected, cfg), mod
}

// fixDir applies the fixes of findings to the files in dir and returns the
// files it changed, with their new contents.
func fixDir(t *testing.T, mod *config.Module, findings []rules.Finding) map[string][]byte {
	t.Helper()
	sources := map[string][]byte{}
	for name, f := range mod.Files {
		sources[name] = f.Bytes
	}
	changed, skipped := rules.ApplyFixes(sources, findings)
	for _, err := range skipped {
		t.Errorf("fix skipped: %v", err)
	}
	for file, src := range changed {
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return changed
}

// formatFindings writes one finding per line:
//
//	FILE:LINE,COL-LINE,COL: SEVERITY RULE: MESSAGE; DETAIL [fix: DESCRIPTION]
func formatFindings(dir string, findings []rules.Finding) string {
	if len(findings) == 0 {
		return "(no findings)\n"
	}
	var lines []string
	for i := range findings {
		f := &findings[i]
		r := f.Range
		line := fmt.Sprintf("%s:%d,%d-%d,%d: %s %s: %s", rel(dir, r.Filename), r.Start.Line, r.Start.Column, r.End.Line, r.End.Column, f.Severity, f.Rule, f.Message)
		if f.Detail != "" {
			line += "; " + strings.ReplaceAll(f.Detail, "\n", `\n`)
		}
		if f.Fix != nil {
			line += " [fix: " + f.Fix.Description + "]"
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n") + "\n"
}
