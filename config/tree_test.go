package config

import (
	"fmt"
	"path/filepath"
	"testing"
)

func TestCommonDir(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"/x/y/examples/basic", "/x/y", "/x/y"},
		{"/x/y/examples/basic", "/x/y/modules/net", "/x/y"},
		{"/x/y", "/x/y", "/x/y"},
		{"/x/ya", "/x/yb", "/x"},
		{"/a", "/b", "/"},
	} {
		if got := commonDir(c.a, c.b); got != c.want {
			t.Errorf("commonDir(%s, %s) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

// TestLoadTreeCycle: a module that calls itself, directly or through
// others, is an error at the call that closes the loop, and the tree is
// loaded once (issue 35: plan and verify grew without bound).
func TestLoadTreeCycle(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		at    string
	}{
		{"self", map[string]string{"main.tf": "module \"m\" {\n  source = \"./\"\n}\n"}, "main.tf:2"},
		{"through another", map[string]string{
			"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\n",
			"a/main.tf": "module \"b\" {\n  source = \"../b\"\n}\n",
			"b/main.tf": "module \"a\" {\n  source = \"../a\"\n}\n",
		}, "main.tf:2"},
		{"no cycle: one module called twice", map[string]string{
			"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\nmodule \"b\" {\n  source = \"./b\"\n}\n",
			"a/main.tf": "module \"c\" {\n  source = \"../c\"\n}\n",
			"b/main.tf": "module \"c\" {\n  source = \"../c\"\n}\n",
			"c/main.tf": "",
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeModule(t, tc.files)
			_, diags := LoadTree(dir, nil)
			if tc.at == "" {
				if diags.HasErrors() {
					t.Fatalf("unexpected errors: %s", diags.Error())
				}
				return
			}
			if len(diags) != 1 || diags[0].Summary != "Module cycle" {
				t.Fatalf("diagnostics %v, want one Module cycle", diags)
			}
			if got := fmt.Sprintf("%s:%d", filepath.Base(diags[0].Subject.Filename), diags[0].Subject.Start.Line); got != tc.at {
				t.Errorf("at %s, want %s", got, tc.at)
			}
		})
	}
}
