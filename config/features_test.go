package config

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/features"
)

// testRegistry has a selectable feature packed by the edition tofu2030, and
// an experiment.
var testRegistry = features.MustRegistry([]features.Feature{
	{Name: "widgets", State: features.Selectable, Block: "widget", Symbol: "widget"},
	{Name: "gadgets", State: features.Experiment, Block: "gadget", Symbol: "gadget"},
}, []features.Edition{{Name: "tofu2024"}, {Name: "tofu2030", Features: []string{"widgets"}}})

func loadWithRegistry(t *testing.T, files map[string]string) (*Module, hcl.Diagnostics) {
	t.Helper()
	m, diags := LoadWith(writeModule(t, files), Options{Features: testRegistry})
	if m == nil {
		t.Fatalf("no module: %s", diags.Error())
	}
	return m, diags
}

func enabledNames(m *Module) string {
	var names []string
	all := m.ActiveFeatures().All()
	for i := range all {
		names = append(names, all[i].Feature.Name)
	}
	return strings.Join(names, ",")
}

func TestActiveFeatures(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		enabled string
		errors  []string
	}{
		{"nothing", map[string]string{"main.tf": "locals {}\n"}, "", nil},
		{"edition packs widgets", map[string]string{"main.tf": "language {\n  edition = tofu2030\n}\n"}, "widgets", nil},
		{"block opts in", map[string]string{"main.tf": "widget \"a\" {}\n"}, "widgets", nil},
		{"block in another file", map[string]string{"a.tf": "locals {}\n", "b.tf": "widget \"a\" {}\n"}, "widgets", nil},
		{"experiment in terraform block", map[string]string{"main.tf": "terraform {\n  experiments = [gadgets]\n}\ngadget \"g\" {}\n"}, "gadgets", nil},
		{"experiment in language block", map[string]string{"main.tf": "language {\n  experiments = [gadgets]\n}\n"}, "gadgets", nil},
		{"experiment block without opt-in", map[string]string{"main.tf": "gadget \"g\" {}\n"}, "", []string{"Experiment not enabled"}},
		{"unknown block type", map[string]string{"main.tf": "symbols \"s\" {}\n"}, "", []string{"Unsupported block type"}},
		{"duplicate feature block", map[string]string{"main.tf": "widget \"a\" {}\nwidget \"a\" {}\n"}, "widgets", []string{"Duplicate widget block"}},
		{"override without base", map[string]string{"main.tf": "locals {}\n", "override.tf": "widget \"a\" {}\n"}, "", []string{"Missing base widget block to override"}},
		{"edition not known", map[string]string{"main.tf": "language {\n  edition = tofu2099\n}\n"}, "", []string{"Unsupported language edition"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, diags := loadWithRegistry(t, tt.files)
			if got := enabledNames(m); got != tt.enabled {
				t.Errorf("enabled %q, want %q", got, tt.enabled)
			}
			var errs []string
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					errs = append(errs, d.Summary)
				}
			}
			if strings.Join(errs, "|") != strings.Join(tt.errors, "|") {
				t.Errorf("errors %q, want %q", errs, tt.errors)
			}
		})
	}
}

func TestFeatureBlocksOverride(t *testing.T) {
	m, diags := loadWithRegistry(t, map[string]string{
		"main.tf":     "widget \"a\" {\n  source = \"base\"\n  size   = 1\n}\n",
		"override.tf": "widget \"a\" {\n  source = \"over\"\n}\n",
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	fb, ok := m.FeatureBlock("widget", "a")
	if !ok {
		t.Fatal("widget a not found")
	}
	attrs, adiags := fb.Body.JustAttributes()
	if adiags.HasErrors() {
		t.Fatal(adiags.Error())
	}
	src, _ := attrs["source"].Expr.Value(nil)
	if src.AsString() != "over" || attrs["size"] == nil {
		t.Errorf("merged body: source %#v, size present %v; want the override's source and the base's size", src, attrs["size"] != nil)
	}
	if len(BodyParts(fb.Body)) != 2 {
		t.Errorf("BodyParts of a merged body: %d parts, want 2", len(BodyParts(fb.Body)))
	}
	if m.BlockCount("widget") != 1 {
		t.Errorf("BlockCount(widget) = %d", m.BlockCount("widget"))
	}
}

// Every opt-in diagnostic carries features.OptIn, so that tools can tell
// them from the loader's own.
func TestOptInDiagnosticsAreMarked(t *testing.T) {
	_, diags := Load(writeModule(t, map[string]string{"main.tf": "terraform {\n  experiments = [nope, symbols]\n}\nlanguage {\n  edition = tofu2099\n}\n"}))
	if len(diags) != 3 {
		t.Fatalf("got %d diagnostics, want 3: %s", len(diags), diags.Error())
	}
	for _, d := range diags {
		if _, ok := features.OptInOf(d); !ok {
			t.Errorf("%s: no OptIn", d.Summary)
		}
	}
}
