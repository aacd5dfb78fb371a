package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/internal/testtree"
	"github.com/tofucue/tofucue/rules"
)

// writeTree creates files under a new temporary directory and returns it.
func writeTree(t *testing.T, files map[string]string) string { return testtree.Write(t, files) }

const (
	cleanModule = "variable \"region\" {\n  type = string\n}\n\noutput \"region\" {\n  value = var.region\n}\n"
	// An unknown top-level block: HCL itself reports it against the file
	// schema, so the wording does not depend on the loader.
	brokenModule = "variable \"region\" {}\n\nresources \"aws_instance\" \"web\" {}\n"
)

// run runs tofulint with args and returns the exit status and outputs.
// checkRun checks a command's exit status and that its output contains each
// of the wanted strings.
func checkRun(t *testing.T, code int, stdout, stderr string, wantCode int, wantStdout, wantStderr []string) {
	t.Helper()
	if code != wantCode {
		t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, wantCode, stdout, stderr)
	}
	for _, s := range wantStdout {
		if !strings.Contains(stdout, s) {
			t.Errorf("stdout does not contain %q:\n%s", s, stdout)
		}
	}
	for _, s := range wantStderr {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr does not contain %q:\n%s", s, stderr)
		}
	}
}

func run(t *testing.T, cmd func([]string, *bytes.Buffer, *bytes.Buffer) int, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = cmd(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// cliCase is one run of a command: its arguments, the exit status it must
// give, and substrings its outputs must contain.
type cliCase struct {
	name   string
	args   []string
	code   int
	stdout []string
	stderr []string
}

// runCases runs each case as a subtest. A run that exits 0 and expects no
// output must print nothing; stderr is for usage and I/O errors only.
func runCases(t *testing.T, cmd func([]string, *bytes.Buffer, *bytes.Buffer) int, cases []cliCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, cmd, tt.args...)
			checkRun(t, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			if tt.code == ExitOK && len(tt.stdout) == 0 && stdout != "" {
				t.Errorf("a clean run printed:\n%s", stdout)
			}
			if tt.code != ExitError && stderr != "" {
				t.Errorf("stderr without a usage or I/O error:\n%s", stderr)
			}
		})
	}
}

func tofulint(args []string, out, errOut *bytes.Buffer) int { return Tofulint(args, out, errOut) }
func hcl2cue(args []string, out, errOut *bytes.Buffer) int  { return Hcl2cue(args, out, errOut) }

func TestTofulintExitStatus(t *testing.T) {
	root := writeTree(t, map[string]string{
		"clean/main.tf":      cleanModule,
		"broken/main.tf":     brokenModule,
		"broken/outputs.tf":  "output \"x\" {\n  value = 1\n}\n",
		"notes/README.md":    "",
		"mixed/good/main.tf": cleanModule,
		"mixed/bad/main.tf":  brokenModule,
	})
	j := func(parts ...string) string { return filepath.Join(append([]string{root}, parts...)...) }

	tests := []cliCase{
		{name: "clean module", args: []string{j("clean")}, code: ExitOK},
		{
			name: "module with an error shows it like tofu validate",
			args: []string{j("broken")},
			code: ExitFindings,
			stdout: []string{
				"Error: Unsupported block type\n",
				"  on " + j("broken", "main.tf") + " line 3",
				`   3: resources "aws_instance" "web" {}`,
				`Blocks of type "resources" are not expected here.`,
			},
		},
		{name: "clean file of a broken module", args: []string{j("broken", "outputs.tf")}, code: ExitOK},
		{name: "broken file of a broken module", args: []string{j("broken", "main.tf")}, code: ExitFindings, stdout: []string{"Unsupported block type"}},
		{name: "pattern with one broken module", args: []string{j("mixed") + "/..."}, code: ExitFindings, stdout: []string{j("mixed", "bad", "main.tf")}},
		{name: "pattern with clean modules", args: []string{j("mixed", "good") + "/...", j("clean")}, code: ExitOK},
		{name: "missing path", args: []string{j("nope")}, code: ExitError, stderr: []string{"tofulint: ", "no such file or directory"}},
		{name: "pattern without modules", args: []string{j("notes") + "/..."}, code: ExitError, stderr: []string{"no module directory"}},
		{name: "directory of modules without ...", args: []string{j("mixed")}, code: ExitError, stderr: []string{"not a module directory", j("mixed", "...") + " lints"}},
		{name: "unknown flag", args: []string{"--nope", j("clean")}, code: ExitError, stderr: []string{"unknown flag: --nope", "tofulint --help"}},
		{name: "unknown format", args: []string{"--format", "xml", j("clean")}, code: ExitError, stderr: []string{`invalid --format "xml"`}},
		{name: "help", args: []string{"--help"}, code: ExitOK, stdout: []string{"Usage:\n  tofulint [flags] [PATH ...]", "--format", "--recursive", "DIR/..."}},
		{name: "version", args: []string{"--version"}, code: ExitOK, stdout: []string{"tofulint version "}},
		{name: "langserver with a path", args: []string{"--langserver", j("clean")}, code: ExitError, stderr: []string{"--langserver takes no PATH"}},
	}
	runCases(t, tofulint, tests)
}

func TestTofulintJSON(t *testing.T) {
	root := writeTree(t, map[string]string{
		"clean/main.tf":  cleanModule,
		"broken/main.tf": brokenModule,
	})

	code, stdout, _ := run(t, tofulint, "--format", "json", filepath.Join(root, "clean"))
	if code != ExitOK {
		t.Errorf("clean: exit status %d", code)
	}
	if want := "{\n  \"issues\": [],\n  \"errors\": []\n}\n"; stdout != want {
		t.Errorf("clean: JSON = %q, want %q", stdout, want)
	}

	code, stdout, _ = run(t, tofulint, "--format=json", filepath.Join(root, "broken"))
	if code != ExitFindings {
		t.Errorf("broken: exit status %d", code)
	}
	var doc map[string][]map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("broken: output is not the JSON shape: %v\n%s", err, stdout)
	}
	if got := slices.Sorted(mapsKeys(doc)); !slices.Equal(got, []string{"errors", "issues"}) {
		t.Errorf("top-level keys = %v", got)
	}
	var found bool
	for _, e := range doc["errors"] {
		if got := slices.Sorted(mapsKeys(e)); !slices.Equal(got, []string{"detail", "range", "severity", "summary"}) {
			t.Errorf("error keys = %v", got)
		}
		if e["summary"] != "Unsupported block type" {
			continue
		}
		found = true
		if e["severity"] != "error" || !strings.Contains(e["detail"].(string), `"resources"`) {
			t.Errorf("error = %v", e)
		}
		rng, _ := e["range"].(map[string]any)
		want := map[string]any{
			"filename": filepath.Join(root, "broken", "main.tf"),
			"start":    map[string]any{"line": 3.0, "column": 1.0, "byte": 22.0},
			"end":      map[string]any{"line": 3.0, "column": 10.0, "byte": 31.0},
		}
		if !reflect.DeepEqual(rng, want) {
			t.Errorf("range = %v, want %v", rng, want)
		}
	}
	if !found {
		t.Errorf("no \"Unsupported block type\" error in:\n%s", stdout)
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestHcl2cue(t *testing.T) {
	dir := t.TempDir()
	// A module whose own error, at its defaults, is one of the
	// converted module too: the module's error, not an internal one.
	broken := filepath.Join(dir, "broken")
	if err := os.MkdirAll(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "locals {\n  zones = [\"a\"]\n}\n\noutput \"second\" {\n  value = local.zones[1]\n}\n"
	if err := os.WriteFile(filepath.Join(broken, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []cliCase{
		{name: "convert a module that fails of its own", args: []string{"convert", broken}, code: ExitError, stderr: []string{"Error: Invalid index", "on " + filepath.Join(broken, "main.tf") + " line 6:", broken + ": the module does not plan at the defaults of its variables (above)"}},
		{name: "convert a batch with a module that fails of its own", args: []string{"convert", filepath.Join(dir, "...")}, code: ExitError, stdout: []string{"broken  failed  -    -    does not plan at its defaults: main.tf:6,22: Invalid index"}},
		{name: "convert", args: []string{"convert", "-o", "out", dir}, code: ExitError, stderr: []string{"hcl2cue: " + dir + ": not a module directory"}},
		{name: "plan cue without source", args: []string{"plan", "--lang", "cue", "--var", "a=b", dir}, code: ExitError, stderr: []string{"--source"}},
		{name: "plan bad lang", args: []string{"plan", "--lang", "hlc", dir}, code: ExitError, stderr: []string{`--lang "hlc": must be hcl or cue`}},
		{name: "plan not a module", args: []string{"plan", dir}, code: ExitError, stderr: []string{dir + ": not a module directory"}},
		{name: "plan bad schema file", args: []string{"plan", "--schema", filepath.Join(dir, "none.json"), "../../examples/vpc"}, code: ExitError, stderr: []string{"none.json"}},
		{name: "verify not a module", args: []string{"verify", dir}, code: ExitError, stderr: []string{dir + ": not a module directory"}},
		{name: "verify bad cases dir", args: []string{"verify", "--cases", filepath.Join(dir, "none"), "../../examples/vpc"}, code: ExitError, stderr: []string{"none"}},
		{name: "no command", args: nil, code: ExitError, stderr: []string{"Available Commands:"}},
		{name: "unknown command", args: []string{"frobnicate"}, code: ExitError, stderr: []string{`unknown command "frobnicate"`}},
		{name: "missing DIR", args: []string{"convert"}, code: ExitError, stderr: []string{"accepts 1 arg"}},
		{name: "help", args: []string{"--help"}, code: ExitOK, stdout: []string{"convert", "plan", "verify"}},
		{name: "subcommand help", args: []string{"plan", "--help"}, code: ExitOK, stdout: []string{"--lang", "--var-file", "--mocks"}},
		{name: "version", args: []string{"--version"}, code: ExitOK, stdout: []string{"hcl2cue version "}},
	}
	runCases(t, hcl2cue, tests)
}

func TestVersionOf(t *testing.T) {
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{name: "no build info", info: nil, want: "devel (go1.0)"},
		{name: "empty version", info: &debug.BuildInfo{GoVersion: "go1.25.1"}, want: "devel (go1.25.1)"},
		{name: "tagged", info: &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, want: "v0.3.0"},
		{
			name: "devel with revision",
			info: &debug.BuildInfo{
				Main: debug.Module{Version: "(devel)"},
				Settings: []debug.BuildSetting{
					{Key: "vcs", Value: "git"},
					{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
					{Key: "vcs.modified", Value: "true"},
				},
			},
			want: "devel (revision 0123456789abcdef0123456789abcdef01234567, modified, go1.0)",
		},
		{
			name: "clean revision",
			info: &debug.BuildInfo{
				Main:     debug.Module{Version: "v1.0.0"},
				Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}},
			},
			want: "v1.0.0 (revision abc)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionOf(tt.info, "go1.0"); got != tt.want {
				t.Errorf("versionOf = %q, want %q", got, tt.want)
			}
		})
	}
}

// A module written before the symbols feature, with a reference that would
// change meaning: one future_symbol_conflict warning.
const conflictModule = `resource "symbols" "legacy" {}

output "id" {
  value = symbols.legacy.id
}
`

func TestTofulintRules(t *testing.T) {
	root := writeTree(t, map[string]string{
		"conflict/main.tf": conflictModule,
		"optin/main.tf":    "terraform {\n  experiments = [time_travel]\n}\n",
		"ignored/main.tf":  "resource \"symbols\" \"legacy\" {}\n\noutput \"id\" {\n  value = symbols.legacy.id # tofulint-ignore: future_symbol_conflict\n}\n",
		"stale/main.tf":    "output \"id\" {\n  value = 1 # tofulint-ignore: future_symbol_conflict\n}\n",
	})
	conflict := filepath.Join(root, "conflict")
	tests := []cliCase{
		{name: "a warning fails by default", args: []string{conflict}, code: ExitFindings, stdout: []string{
			"Warning: symbols.legacy would change meaning with the symbols feature (future_symbol_conflict)",
			"   4:   value = symbols.legacy.id",
			`Suggested fix: Insert "resource.".`,
		}},
		{name: "minimum failure severity error", args: []string{"--minimum-failure-severity", "error", conflict}, code: ExitOK, stdout: []string{"(future_symbol_conflict)"}},
		{name: "disabled rule", args: []string{"--disable-rule", "future_symbol_conflict", conflict}, code: ExitOK},
		{name: "only another rule", args: []string{"--only", "symbol_reference", conflict}, code: ExitOK},
		{name: "ignored by a comment", args: []string{filepath.Join(root, "ignored")}, code: ExitOK},
		{name: "unused ignore reported", args: []string{"--report-unused-ignores", filepath.Join(root, "stale")}, code: ExitFindings, stdout: []string{"Unused ignore for future_symbol_conflict (unused_ignore)"}},
		{name: "an ignore of a rule that did not run is not unused", args: []string{"--report-unused-ignores", "--disable-rule", "future_symbol_conflict", filepath.Join(root, "stale")}, code: ExitOK},
		{name: "opt-in mistakes are feature_opt_in findings", args: []string{filepath.Join(root, "optin")}, code: ExitFindings, stdout: []string{"Error: Unknown experiment keyword (feature_opt_in)"}},
		{name: "opt-in findings can be disabled", args: []string{"--disable-rule", "feature_opt_in", filepath.Join(root, "optin")}, code: ExitOK},
		{name: "unknown rule", args: []string{"--only", "symbol_refrence", conflict}, code: ExitError, stderr: []string{`unknown rule "symbol_refrence" (did you mean "symbol_reference"?)`}},
		{name: "disabled by TFLint name", args: []string{"--report-unused-ignores", "--disable-rule", "terraform_deprecated_index", "--only", "terraform_unused_declarations,future_symbol_conflict", conflict}, code: ExitFindings, stdout: []string{"(future_symbol_conflict)"}},
		{name: "TFLint plugin rule", args: []string{"--only", "aws_instance_invalid_type", conflict}, code: ExitError, stderr: []string{`belongs to TFLint's tflint-ruleset-aws plugin`}},
		{name: "unknown severity", args: []string{"--minimum-failure-severity", "fatal", conflict}, code: ExitError, stderr: []string{`unknown severity "fatal"`}},
	}
	runCases(t, tofulint, tests)

	code, stdout, _ := run(t, tofulint, "--format", "json", conflict)
	if code != ExitFindings {
		t.Errorf("json: exit status %d", code)
	}
	var doc struct {
		Issues []struct {
			Rule, Severity, Message string
			Fixable                 bool
			Range                   struct{ Filename string }
		}
		Errors []any
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Issues) != 1 || doc.Issues[0].Rule != "future_symbol_conflict" || doc.Issues[0].Severity != "warning" || !doc.Issues[0].Fixable || len(doc.Errors) != 0 {
		t.Errorf("json: %+v", doc)
	}
}

// TestTofulintListRules checks that --list-rules has one row per rule, in
// registry order, with its defaults.
func TestTofulintListRules(t *testing.T) {
	code, stdout, stderr := run(t, tofulint, "--list-rules")
	if code != ExitOK || stderr != "" {
		t.Fatalf("--list-rules = %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if got := strings.Fields(lines[0]); strings.Join(got, " ") != "RULE SEVERITY DEFAULT FIXES OPTIONS" {
		t.Errorf("header = %q", lines[0])
	}
	all := rules.All()
	if len(lines)-1 != len(all) {
		t.Fatalf("%d rows for %d rules:\n%s", len(lines)-1, len(all), stdout)
	}
	for i, r := range all {
		f := strings.Fields(lines[i+1])
		state, fixes := map[bool]string{true: "enabled", false: "disabled"}[r.Enabled], map[bool]string{true: "yes", false: "no"}[r.Fixes]
		if len(f) < 5 || f[0] != r.Name || f[1] != r.Severity.String() || f[2] != state || f[3] != fixes {
			t.Errorf("row %d = %q, want %s %s %s %s ...", i+1, lines[i+1], r.Name, r.Severity, state, fixes)
		}
	}
}

// TFLint's flags: --force, --chdir and --filter, with TFLint's meanings.
func TestTofulintTFLintFlags(t *testing.T) {
	root := writeTree(t, map[string]string{
		"m/main.tf":    conflictModule,
		"m/outputs.tf": "variable \"unused\" {\n  type = string\n}\n",
		"bad/main.tf":  "variable {\n",
	})
	m := filepath.Join(root, "m")
	tests := []cliCase{
		{name: "force: findings exit 0", args: []string{"--force", m}, code: ExitOK, stdout: []string{"(future_symbol_conflict)", "(unused_declaration)"}},
		{name: "force: loading errors still exit 1", args: []string{"--force", filepath.Join(root, "bad")}, code: ExitFindings, stdout: []string{"Error: "}},
		{name: "chdir", args: []string{"--chdir", m, "--format", "compact"}, code: ExitFindings, stdout: []string{filepath.Join(m, "main.tf") + ":4:", filepath.Join(m, "outputs.tf") + ":1:"}},
		{name: "filter one file", args: []string{"--chdir", m, "--filter", "out*.tf", "--format", "compact"}, code: ExitFindings, stdout: []string{"1 issue(s) found:", filepath.Join(m, "outputs.tf") + ":1:"}},
		{name: "filter matching nothing", args: []string{"--filter", "none.tf", m}, code: ExitOK},
		{name: "bad filter", args: []string{"--filter", "[", m}, code: ExitError, stderr: []string{`--filter "[": syntax error in pattern`}},
	}
	runCases(t, tofulint, tests)
}

// TestTofulintCallModuleType checks --call-module-type: which calls'
// modules tofulint reads to check references to their outputs, as TFLint
// does.
func TestTofulintCallModuleType(t *testing.T) {
	root := writeTree(t, map[string]string{
		"m/main.tf": `module "local" {
  source = "./child"
}

module "installed" {
  source  = "acme/label/null"
  version = "1.0.0"
}

output "a" {
  value = [module.local.nope, module.installed.nope]
}
`,
		"m/child/outputs.tf":                  "output \"id\" {\n  value = 1\n}\n",
		"m/.terraform/modules/modules.json":   `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"installed","Source":"registry.opentofu.org/acme/label/null","Version":"1.0.0","Dir":".terraform/modules/installed"}]}`,
		"m/.terraform/modules/installed/o.tf": "output \"id\" {\n  value = 1\n}\n",
	})
	m := filepath.Join(root, "m")
	tests := []cliCase{
		{name: "all", args: []string{"--format", "compact", m}, code: ExitFindings, stdout: []string{"2 issue(s) found:", "main.tf:11:12", "main.tf:11:31"}},
		{name: "local", args: []string{"--call-module-type", "local", "--format", "compact", m}, code: ExitFindings, stdout: []string{"1 issue(s) found:", "main.tf:11:12"}},
		{name: "none", args: []string{"--call-module-type", "none", m}, code: ExitOK},
		{name: "bad", args: []string{"--call-module-type", "remote", m}, code: ExitError, stderr: []string{`--call-module-type "remote": want all, local or none`}},
	}
	runCases(t, tofulint, tests)
}
