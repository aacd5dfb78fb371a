package config

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/internal/corpus"
)

// conformanceSkips are the cases that need more than loading one module
// directory, with the reason. Each is reported as skipped, never as passed.
var conformanceSkips = map[string]string{
	"config-diagnostics": "module-tree checks: these cases load child modules through their sources and compare provider requirements across modules (and against .tftest.hcl run blocks); config loads one module directory",
}

type conformanceCase struct {
	name string
	run  func(t *testing.T)
}

// TestConformance runs the loader over OpenTofu's own configuration test
// files and prints the pass rate.
func TestConformance(t *testing.T) {
	root := corpus.Shared(t, filepath.Join("conformance", "opentofu-configs"))
	var cases []conformanceCase
	add := func(name string, run func(t *testing.T)) { cases = append(cases, conformanceCase{name, run}) }

	for _, path := range glob(t, root, "valid-files/*") {
		add(rel(root, path), func(t *testing.T) { expectClean(t, loadOne(t, path)) })
	}
	for _, path := range glob(t, root, "valid-modules/*") {
		add(rel(root, path), func(t *testing.T) { expectClean(t, loadDir(t, path)) })
	}
	for _, path := range glob(t, root, "invalid-files/*") {
		add(rel(root, path), func(t *testing.T) { expectErrors(t, path, loadOne(t, path)) })
	}
	for _, path := range glob(t, root, "invalid-modules/*") {
		add(rel(root, path), func(t *testing.T) { expectErrors(t, path, loadDir(t, path)) })
	}
	for _, path := range glob(t, root, "error-files/*") {
		add(rel(root, path), func(t *testing.T) { expectAnnotated(t, path, loadOne(t, path), hcl.DiagError) })
	}
	for _, path := range glob(t, root, "warning-files/*") {
		add(rel(root, path), func(t *testing.T) { expectAnnotated(t, path, loadOne(t, path), hcl.DiagWarning) })
	}
	for _, path := range glob(t, root, "escaping-blocks/*") {
		add(rel(root, path), func(t *testing.T) { checkEscapingBlocks(t, path) })
	}
	add("ephemeral-blocks", func(t *testing.T) { checkEphemeralBlocks(t, filepath.Join(root, "ephemeral-blocks")) })
	add("tofu-and-tf-files", func(t *testing.T) { checkTofuAndTf(t, filepath.Join(root, "tofu-and-tf-files")) })
	add("tofu-only-files", func(t *testing.T) { checkTofuOnly(t, filepath.Join(root, "tofu-only-files")) })

	var skipped []string
	for prefix, reason := range conformanceSkips {
		for _, path := range glob(t, root, prefix+"/*") {
			skipped = append(skipped, fmt.Sprintf("%s (%s)", rel(root, path), reason))
		}
	}
	sort.Strings(skipped)

	passed := 0
	for _, c := range cases {
		if t.Run(c.name, c.run) {
			passed++
		}
	}
	total := len(cases) + len(skipped)
	fmt.Printf("conformance: %d passed, %d failed, %d skipped of %d cases\n", passed, len(cases)-passed, len(skipped), total)
	for prefix, reason := range conformanceSkips {
		fmt.Printf("conformance: skipped %s/* (%s)\n", prefix, reason)
	}
}

func glob(t *testing.T, root, pattern string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, pattern))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	return paths
}

func rel(root, path string) string {
	r, _ := filepath.Rel(root, path)
	return filepath.ToSlash(r)
}

func loadOne(t *testing.T, path string) hcl.Diagnostics {
	t.Helper()
	_, diags := LoadFile(path, Options{})
	return diags
}

func loadDir(t *testing.T, path string) hcl.Diagnostics {
	t.Helper()
	_, diags := Load(path)
	return diags
}

func expectClean(t *testing.T, diags hcl.Diagnostics) {
	t.Helper()
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			t.Errorf("unexpected error: %s", d)
		}
	}
}

// expectErrors wants at least one error and, where the files carry
// # ERROR: comments, exactly those.
func expectErrors(t *testing.T, path string, diags hcl.Diagnostics) {
	t.Helper()
	if !diags.HasErrors() {
		t.Fatalf("want at least one error, got none (%d diagnostics)", len(diags))
	}
	if wants := annotations(t, path, "ERROR"); len(wants) > 0 {
		matchAnnotations(t, wants, diags, hcl.DiagError, false)
	}
}

func expectAnnotated(t *testing.T, path string, diags hcl.Diagnostics, sev hcl.DiagnosticSeverity) {
	t.Helper()
	word := "ERROR"
	if sev == hcl.DiagWarning {
		word = "WARNING"
		expectClean(t, diags)
	}
	matchAnnotations(t, annotations(t, path, word), diags, sev, true)
}

type annotation struct {
	file    string
	line    int
	summary string
}

var annotationPattern = regexp.MustCompile(`#\s*(ERROR|WARNING):\s*(.+?)\s*$`)

// annotations reads the "# ERROR: summary" comments of a file or of every
// file in a directory.
func annotations(t *testing.T, path, word string) []annotation {
	t.Helper()
	files := []string{path}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		files = glob(t, path, "*")
	}
	var out []annotation
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for line := 1; sc.Scan(); line++ {
			m := annotationPattern.FindStringSubmatch(sc.Text())
			if len(m) == 3 && m[1] == word {
				out = append(out, annotation{filepath.Base(f), line, m[2]})
			}
		}
		fh.Close()
	}
	return out
}

// matchAnnotations checks that each annotation is matched by a diagnostic of
// that severity and summary on that line; with strict, also that every
// diagnostic of that severity is annotated.
func matchAnnotations(t *testing.T, wants []annotation, diags hcl.Diagnostics, sev hcl.DiagnosticSeverity, strict bool) {
	t.Helper()
	used := make([]bool, len(diags))
	for _, w := range wants {
		i := slices.IndexFunc(diags, func(d *hcl.Diagnostic) bool {
			return d.Severity == sev && d.Summary == w.summary && d.Subject != nil &&
				filepath.Base(d.Subject.Filename) == w.file && d.Subject.Start.Line == w.line
		})
		if i < 0 {
			t.Errorf("%s:%d: want %q, not reported", w.file, w.line, w.summary)
			continue
		}
		used[i] = true
	}
	if !strict {
		return
	}
	for i, d := range diags {
		if d.Severity == sev && !used[i] && !isModuleLevel(d) {
			t.Errorf("unexpected diagnostic: %s", d)
		}
	}
}

func checkEscapingBlocks(t *testing.T, dir string) {
	m, diags := Load(dir)
	expectClean(t, diags)
	if m == nil {
		return
	}
	var body hcl.Body
	switch {
	case m.ManagedResources["foo.bar"] != nil:
		body = m.ManagedResources["foo.bar"].Config
	case m.DataResources["foo.bar"] != nil:
		body = m.DataResources["foo.bar"].Config
	case m.ModuleCalls["foo"] != nil:
		body = m.ModuleCalls["foo"].Config
	case m.ProviderConfigs["foo.bar"] != nil:
		body = m.ProviderConfigs["foo.bar"].Config
	default:
		t.Fatalf("no escaped declaration found")
	}
	content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "count"}, {Name: "for_each"}, {Name: "alias"}, {Name: "version"}, {Name: "normal"},
	}})
	if content.Attributes["normal"] == nil {
		t.Errorf("the ordinary argument is missing from the body")
	}
	escaped := 0
	for _, name := range []string{"count", "for_each", "alias", "version"} {
		if content.Attributes[name] != nil {
			escaped++
		}
	}
	if escaped != 2 {
		t.Errorf("want the 2 escaped arguments in the body, got %d", escaped)
	}
	if r := m.ManagedResources["foo.bar"]; r != nil {
		if r.Count == nil || r.ForEach != nil {
			t.Errorf("meta-arguments: count set %v (want true), for_each set %v (want false)", r.Count != nil, r.ForEach != nil)
		}
		if len(r.Provisioners) != 1 || r.Provisioners[0].When != "destroy" {
			t.Errorf("the provisioner's own when must not replace the meta-argument")
		}
	}
}

func checkEphemeralBlocks(t *testing.T, dir string) {
	_, diags := Load(dir)
	var got []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			got = append(got, d.Summary)
		}
	}
	sort.Strings(got)
	wantSummaries := []string{
		"Invalid configuration block for ephemeral resource",
		"Invalid configuration block for ephemeral resource",
		"Invalid lifecycle configuration for ephemeral resource",
		"Invalid lifecycle configuration for ephemeral resource",
		"Invalid lifecycle configuration for ephemeral resource",
		"Invalid lifecycle configuration for ephemeral resource",
	}
	if !slices.Equal(got, wantSummaries) {
		t.Errorf("errors:\n got %q\nwant %q", got, wantSummaries)
	}
}

func checkTofuAndTf(t *testing.T, dir string) {
	m, diags := Load(dir)
	expectClean(t, diags)
	for _, key := range []string{"aws_security_group.firewall_tofu", "aws_instance.web_tofu", "test_object.a_tofu", "test_object.b_tofu", "tf_resource.first"} {
		if m.ManagedResources[key] == nil {
			t.Errorf("missing resource %s", key)
		}
	}
	for _, key := range []string{"aws_security_group.firewall", "aws_instance.web"} {
		if m.ManagedResources[key] != nil {
			t.Errorf("resource %s comes from a .tf file that a .tofu file hides", key)
		}
	}
	wantDefault(t, m, "should_override", "overridden by tofu file")
}

func checkTofuOnly(t *testing.T, dir string) {
	m, diags := Load(dir)
	expectClean(t, diags)
	if len(m.ManagedResources) == 0 {
		t.Errorf("no resources loaded from .tofu files")
	}
	wantDefault(t, m, "should_override", "overridden by tofu file")
}

func wantDefault(t *testing.T, m *Module, name, want string) {
	t.Helper()
	v := m.Variables[name]
	if v == nil {
		t.Fatalf("variable %q missing", name)
	}
	if got := v.Default.AsString(); got != want {
		t.Errorf("variable %q default = %q, want %q", name, got, want)
	}
}

// isModuleLevel tells diagnostics about how declarations of a module fit
// together. OpenTofu's annotated files are decoded one file at a time, never
// combined into a module, so they carry no annotations for these.
func isModuleLevel(d *hcl.Diagnostic) bool {
	return strings.HasPrefix(d.Summary, "Duplicate ") && strings.HasSuffix(d.Summary, " configuration")
}
