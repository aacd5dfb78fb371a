package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// commentedConflictModule is conflictModule on one line with a comment.
const commentedConflictModule = `resource "symbols" "legacy" {}

output "id" { value = symbols.legacy.id } # a comment that stays
`

func TestTofulintDiffWritesNothing(t *testing.T) {
	root := writeTree(t, map[string]string{"m/main.tf": commentedConflictModule})
	main := filepath.Join(root, "m", "main.tf")
	code, stdout, stderr := run(t, tofulint, "--diff", filepath.Join(root, "m"))
	// Outside the current directory: the absolute path without its
	// leading slash, as git diff --no-index writes it.
	slashed := strings.TrimPrefix(filepath.ToSlash(main), "/")
	want := "--- a/" + slashed + "\n+++ b/" + slashed + "\n@@ -1,3 +1,3 @@\n" +
		" resource \"symbols\" \"legacy\" {}\n \n" +
		"-output \"id\" { value = symbols.legacy.id } # a comment that stays\n" +
		"+output \"id\" { value = resource.symbols.legacy.id } # a comment that stays\n"
	if code != ExitFindings || stdout != want || stderr != "" {
		t.Errorf("--diff = %d\nstdout:\n%s\nstderr:\n%s\nwant stdout:\n%s", code, stdout, stderr, want)
	}
	if data, _ := os.ReadFile(main); string(data) != commentedConflictModule {
		t.Errorf("--diff wrote the file:\n%s", data)
	}

	clean := writeTree(t, map[string]string{"main.tf": cleanModule})
	code, stdout, _ = run(t, tofulint, "--diff", clean)
	if code != ExitOK || stdout != "" {
		t.Errorf("--diff of a clean module = %d, %q", code, stdout)
	}
}

func TestTofulintFix(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": commentedConflictModule})
	main := filepath.Join(root, "main.tf")
	code, stdout, stderr := run(t, tofulint, "--fix", "--format", "json", root)
	// Everything was fixed: the report after the fix is empty.
	checkRun(t, code, stdout, stderr, ExitOK, []string{`"issues": []`}, []string{"tofulint: fixed 1 file"})
	data, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(commentedConflictModule, "= symbols", "= resource.symbols", 1); string(data) != want {
		t.Errorf("after --fix:\n%s", data)
	}
	// A second --fix has nothing to do.
	code, _, stderr = run(t, tofulint, "--fix", root)
	if code != ExitOK || stderr != "" {
		t.Errorf("second --fix = %d, stderr %q", code, stderr)
	}
}

func TestTofulintFixReportsWhatIsLeft(t *testing.T) {
	// A finding without a fix stays in the report after --fix.
	src := commentedConflictModule + "symbols \"lib\" {\n  source = \"./lib.tfsym.hcl\"\n}\n\nlocals {\n  x = symbols.missing.y\n}\n"
	root := writeTree(t, map[string]string{"main.tf": src})
	code, stdout, stderr := run(t, tofulint, "--fix", "--format", "json", root)
	checkRun(t, code, stdout, stderr, ExitFindings, []string{`"rule": "symbol_reference"`, `There is no symbols block named \"missing\"`}, []string{"fixed 1 file"})
	if strings.Contains(stdout, `"fixable": true`) {
		t.Errorf("a fixed finding is still reported:\n%s", stdout)
	}
}

func TestTofulintConfigFlag(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf":    commentedConflictModule,
		"quiet.hcl":  "rule \"future_symbol_conflict\" {\n  enabled = false\n}\n",
		"broken.hcl": "rule \"future_symbol_conflict\" {\n  enabled = maybe\n}\n",
	})
	runCases(t, tofulint, []cliCase{
		{name: "config disables the rule", args: []string{"--config", filepath.Join(root, "quiet.hcl"), root}, code: ExitOK},
		{name: "flag wins over config", args: []string{"--config", filepath.Join(root, "quiet.hcl"), "--enable-rule", "future_symbol_conflict", root}, code: ExitFindings, stdout: []string{"future_symbol_conflict"}},
		{name: "invalid config", args: []string{"--config", filepath.Join(root, "broken.hcl"), root}, code: ExitError, stderr: []string{"Error: Variables not allowed", "broken.hcl line 2", "enabled = maybe", "invalid configuration"}},
		{name: "missing config", args: []string{"--config", filepath.Join(root, "nope.hcl"), root}, code: ExitError, stderr: []string{"--config", "nope.hcl"}},
		{name: "fix and diff", args: []string{"--fix", "--diff", root}, code: ExitError, stderr: []string{"cannot be used together"}},
	})
}
