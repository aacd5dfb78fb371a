package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/report"
	"github.com/tofucue/tofucue/rules"
)

// conflictModule has one future_symbol_conflict finding (a warning with a
// fix) on line 3 of main.tf.
const conflictModule = `resource "symbols" "legacy" {}

output "id" { value = symbols.legacy.id }
`

// summary lists a report's findings as "FILE:LINE RULE SEVERITY", with
// paths relative to root.
func summary(t *testing.T, root string, rep *report.Report) []string {
	t.Helper()
	var out []string
	for i := range rep.Findings {
		f := &rep.Findings[i]
		rel, err := filepath.Rel(root, f.Range.Filename)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s:%d %s %s", filepath.ToSlash(rel), f.Range.Start.Line, f.Rule, f.Severity))
	}
	for _, d := range rep.Diagnostics {
		out = append(out, "load: "+d.Summary)
	}
	return out
}

func mustRun(t *testing.T, targets []Target, opts Options) *report.Report {
	t.Helper()
	rep, diags := Run(targets, opts)
	if diags.HasErrors() {
		t.Fatalf("Run: %s", diags.Error())
	}
	return rep
}

func TestConfigFileLookup(t *testing.T) {
	root := writeTree(t, map[string]string{
		// The root configuration turns the rule's findings into errors; the
		// one in team/ switches the rule off for the modules below it, and
		// excludes a file in the module beside it.
		".tofulint.hcl":            "rule \"future_symbol_conflict\" {\n  severity = \"error\"\n}\n",
		"a/main.tf":                conflictModule,
		"team/.tofulint.hcl":       "config {\n  exclude = [\"c/generated_*.tf\"]\n}\nrule \"future_symbol_conflict\" {\n  enabled = false\n}\n",
		"team/b/main.tf":           conflictModule,
		"team/c/generated_main.tf": conflictModule,
	})
	targets, err := Expand([]string{root + "/..."}, false)
	if err != nil {
		t.Fatal(err)
	}
	got := summary(t, root, mustRun(t, targets, Options{}))
	want := []string{"a/main.tf:3 future_symbol_conflict error"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings = %q, want %q", got, want)
	}

	// The command line's --enable-rule wins over team/'s file, and
	// exclusions stay.
	on := true
	got = summary(t, root, mustRun(t, targets, Options{Overrides: rules.Config{Rules: map[string]rules.RuleConfig{"future_symbol_conflict": {Enabled: &on}}}}))
	want = []string{"a/main.tf:3 future_symbol_conflict error", "team/b/main.tf:3 future_symbol_conflict warning"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with an override, findings = %q, want %q", got, want)
	}

	// --config replaces the lookup for every module.
	explicit := filepath.Join(root, "explicit.hcl")
	if err := os.WriteFile(explicit, []byte("config {\n  disabled_by_default = true\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := summary(t, root, mustRun(t, targets, Options{ConfigFile: explicit})); len(got) != 0 {
		t.Errorf("with --config disabling every rule, findings = %q", got)
	}
}

func TestConfigFileErrorsStopTheRun(t *testing.T) {
	root := writeTree(t, map[string]string{
		".tofulint.hcl": "rule \"future_symbol_conflicts\" {}\n",
		"main.tf":       conflictModule,
	})
	rep, diags := Run([]Target{{Dir: root}}, Options{})
	if rep != nil || !diags.HasErrors() {
		t.Fatalf("Run = %v, %v; want no report and an error", rep, diags)
	}
	if msg := diags.Error(); !strings.Contains(msg, `did you mean "future_symbol_conflict"`) || !strings.Contains(msg, ".tofulint.hcl:1,6-31") {
		t.Errorf("diagnostics = %s", msg)
	}
}

// TestParallelRunIsDeterministic lints many modules with one job and with
// eight: the reports must be the same.
func TestParallelRunIsDeterministic(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("m%02d/main.tf", i)] = conflictModule
		if i%3 == 0 {
			files[fmt.Sprintf("m%02d/broken.tf", i)] = "resources \"x\" \"y\" {}\n"
		}
	}
	root := writeTree(t, files)
	targets, err := Expand([]string{root + "/..."}, false)
	if err != nil {
		t.Fatal(err)
	}
	one := summary(t, root, mustRun(t, targets, Options{Jobs: 1}))
	many := summary(t, root, mustRun(t, targets, Options{Jobs: 8}))
	if !reflect.DeepEqual(one, many) {
		t.Errorf("jobs=1:\n%q\njobs=8:\n%q", one, many)
	}
	if len(one) != 40-14+14 {
		t.Errorf("got %d lines, want 26 findings and 14 loading errors:\n%q", len(one), one)
	}
}

func TestFixWritesAtomicallyAndKeepsPermissions(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": conflictModule, "other.tf": "# nothing to fix\n"})
	main := filepath.Join(root, "main.tf")
	if err := os.Chmod(main, 0o600); err != nil {
		t.Fatal(err)
	}
	rep := mustRun(t, []Target{{Dir: root}}, Options{})
	fx := Fix(rep)
	if len(fx.Skipped) > 0 {
		t.Fatalf("skipped: %v", fx.Skipped)
	}
	// The module is outside the current directory: its absolute path,
	// without the leading slash.
	inDiff := strings.TrimPrefix(filepath.ToSlash(main), "/")
	wantDiff := "--- a/" + inDiff + "\n+++ b/" + inDiff + "\n" +
		"@@ -1,3 +1,3 @@\n resource \"symbols\" \"legacy\" {}\n \n-output \"id\" { value = symbols.legacy.id }\n+output \"id\" { value = resource.symbols.legacy.id }\n"
	if got := fx.Diff(); got != wantDiff {
		t.Errorf("Diff =\n%s\nwant\n%s", got, wantDiff)
	}
	if err := fx.Write(nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(conflictModule, "= symbols", "= resource.symbols", 1); string(data) != want {
		t.Errorf("main.tf after the fix:\n%s", data)
	}
	if fi, err := os.Stat(main); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("main.tf mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("the fix left files behind: %v", entries)
	}
	// Linted again, the module has nothing left to fix.
	if again := Fix(mustRun(t, []Target{{Dir: root}}, Options{})); len(again.Files) != 0 {
		t.Errorf("a second fix changes %v", again.Names())
	}
}

func TestFixLeavesFilesChangedSinceTheLint(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": conflictModule})
	main := filepath.Join(root, "main.tf")
	fx := Fix(mustRun(t, []Target{{Dir: root}}, Options{}))
	edited := conflictModule + "# edited meanwhile\n"
	if err := os.WriteFile(main, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := fx.Write(nil); err == nil || !strings.Contains(err.Error(), "changed on disk") {
		t.Errorf("Write = %v, want an error saying the file changed", err)
	}
	if data, _ := os.ReadFile(main); string(data) != edited {
		t.Errorf("main.tf was overwritten:\n%s", data)
	}
}
