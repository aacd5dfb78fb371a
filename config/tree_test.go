package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
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

// TestLoadTreeConfined: a local module source that leads out of the root
// module's repository (the git work tree that holds it, or its directory
// when there is none) is an error naming the source and --allow-read,
// also through a symbolic link; a directory of AllowRead may be read.
func TestLoadTreeConfined(t *testing.T) {
	top := t.TempDir()
	write := func(rel, src string) {
		t.Helper()
		p := filepath.Join(top, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("repo/.git/HEAD", "ref: refs/heads/main\n")
	write("repo/root/main.tf", "module \"in\" {\n  source = \"../modules/in\"\n}\nmodule \"out\" {\n  source = \"../../outside\"\n}\nmodule \"link\" {\n  source = \"../link\"\n}\n")
	write("repo/modules/in/main.tf", "output \"x\" {\n  value = 1\n}\n")
	write("outside/main.tf", "output \"x\" {\n  value = 2\n}\n")
	if err := os.Symlink(filepath.Join(top, "outside"), filepath.Join(top, "repo", "link")); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(top, "repo", "root")

	tree, _ := LoadTree(root, NewSources(SourceOptions{}))
	var out []string
	for _, d := range tree.Unavailable() {
		if d.Summary == "Module source outside the repository" {
			out = append(out, fmt.Sprintf("%d", d.Subject.Start.Line))
			if d.Severity != hcl.DiagError || !strings.Contains(d.Detail, "--allow-read "+filepath.Join(top, "outside")) {
				t.Errorf("not an error naming --allow-read %s: %s", filepath.Join(top, "outside"), d.Detail)
			}
		}
	}
	slices.Sort(out)
	if strings.Join(out, ",") != "5,8" {
		t.Errorf("errors at lines %v, want 5 (../../outside) and 8 (a link out of the repository)", out)
	}

	if tree, _ := LoadTree(root, NewSources(SourceOptions{AllowRead: []string{filepath.Join(top, "outside")}})); len(tree.Unavailable()) > 0 {
		t.Errorf("with --allow-read: %v", tree.Unavailable())
	}

	// Without a git work tree, the root module's directory is the tree.
	if err := os.RemoveAll(filepath.Join(top, "repo", ".git")); err != nil {
		t.Fatal(err)
	}
	tree, _ = LoadTree(root, NewSources(SourceOptions{}))
	n := 0
	for _, d := range tree.Unavailable() {
		if d.Summary == "Module source outside the repository" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("without .git: %d calls refused, want 3", n)
	}
}

// TestReadRoot: the file functions read inside the tree's modules'
// directory, widened to the root module's repository and to a directory
// given with --allow-read that holds it; one beside it does not widen it.
func TestReadRoot(t *testing.T) {
	top := t.TempDir()
	for _, f := range []string{"repo/.git/HEAD", "repo/modules/m/main.tf", "plain/a/b/main.tf", "other/x.tpl", "linked/.git/HEAD", "shared/mod/main.tf"} {
		p := filepath.Join(top, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A repository that reaches modules through a link (a test's link
	// to shared material) does not hold them: os.Root would refuse
	// every read through the link.
	if err := os.Symlink(filepath.Join(top, "shared"), filepath.Join(top, "linked", "shared")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		root      string
		allowRead []string
		want      string
	}{
		{"linked/shared/mod", nil, "linked/shared/mod"},
		{"linked/shared/mod", []string{"linked/shared"}, "linked/shared"},
		{"repo/modules/m", nil, "repo"},
		{"plain/a/b", nil, "plain/a/b"},
		{"plain/a/b", []string{"plain"}, "plain"},
		{"plain/a/b", []string{"plain/a", "plain"}, "plain"},
		{"plain/a/b", []string{"other"}, "plain/a/b"},
	} {
		var allow []string
		for _, a := range c.allowRead {
			allow = append(allow, filepath.Join(top, a))
		}
		tree, diags := LoadTree(filepath.Join(top, c.root), NewSources(SourceOptions{AllowRead: allow}))
		if diags.HasErrors() {
			t.Fatalf("%s: %s", c.root, diags)
		}
		if want := filepath.Join(top, c.want); tree.ReadRoot != want {
			t.Errorf("%s with --allow-read %v: ReadRoot %s, want %s", c.root, c.allowRead, tree.ReadRoot, want)
		}
	}
}
