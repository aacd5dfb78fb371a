package convert

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree returns the files below dir, by slash path, with their contents
// (a symbolic link as "-> TARGET", a directory as "/").
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[rel] = "-> " + target
			return err
		case d.IsDir():
			out[rel] = "/"
		default:
			b, err := os.ReadFile(p)
			out[rel] = string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func result(library bool, files ...string) *Result {
	r := &Result{ModulePath: "tofucue.local/m", Library: library}
	for _, f := range files {
		r.Files = append(r.Files, File{Name: f, Source: []byte("package m\n// " + f + "\n")})
	}
	return r
}

func write(t *testing.T, dir string, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Writing into an earlier output replaces what convert wrote (a file no
// longer converted goes) and keeps every file and directory of the user's.
func TestWriteKeepsUserFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if err := result(true, "main.cue", "old.cue").Write(out); err != nil {
		t.Fatal(err)
	}
	write(t, out, "NOTES.md", "mine\n")
	write(t, out, "extra/x.txt", "mine too\n")
	write(t, out, "tofu/mine.cue", "package tofu\n")
	write(t, out, "cue.mod/usr/x.cue", "package x\n")
	if err := os.Mkdir(filepath.Join(out, "empty"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("NOTES.md", filepath.Join(out, "link")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(filepath.Join(out, "NOTES.md"))

	if err := result(false, "main.cue", "new.cue").Write(out); err != nil {
		t.Fatal(err)
	}
	got := tree(t, out)
	for name, want := range map[string]string{
		"NOTES.md":          "mine\n",
		"extra":             "/",
		"extra/x.txt":       "mine too\n",
		"tofu/mine.cue":     "package tofu\n",
		"cue.mod/usr/x.cue": "package x\n",
		"empty":             "/",
		"link":              "-> NOTES.md",
		"main.cue":          "package m\n// main.cue\n",
		"new.cue":           "package m\n// new.cue\n",
	} {
		if got[name] != want {
			t.Errorf("%s = %q, want %q", name, got[name], want)
		}
	}
	if _, ok := got["old.cue"]; ok {
		t.Error("old.cue, written by the earlier convert and not by this one, is still there")
	}
	for name := range got {
		if strings.HasPrefix(name, "tofu/") && name != "tofu/mine.cue" {
			t.Errorf("%s of the library, no longer used, is still there", name)
		}
	}
	if after, _ := os.Stat(filepath.Join(out, "NOTES.md")); !os.SameFile(before, after) {
		t.Error("NOTES.md is not the same file (it should be linked, not copied)")
	}
	if fi, err := os.Stat(filepath.Join(out, "empty")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("empty: %v, %v; want a directory of mode 0700", fi, err)
	}
	want := []string{"cue.mod/hcl2cue-files.txt", "cue.mod/module.cue", "main.cue", "new.cue"}
	if m := got[ManifestName]; m != Marker+"\n"+strings.Join(want, "\n")+"\n" {
		t.Errorf("manifest:\n%s", m)
	}
	// Nothing is left beside it.
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("beside the output: %v", entries)
	}
}

// A file of the user's where convert now writes one is an error, and
// nothing changes.
func TestWriteRefusesToOverwriteUserFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if err := result(false, "main.cue").Write(out); err != nil {
		t.Fatal(err)
	}
	write(t, out, "vars.cue", "package m\n// mine\n")
	before := tree(t, out)
	err := result(false, "main.cue", "vars.cue").Write(out)
	if err == nil || !strings.Contains(err.Error(), "vars.cue was not written by hcl2cue convert, and the conversion writes a file of that name") {
		t.Errorf("Write = %v, want an error about vars.cue", err)
	}
	if after := tree(t, out); !maps.Equal(before, after) {
		t.Errorf("the output changed:\n%v\nwant\n%v", after, before)
	}
}

// An output of an hcl2cue without the manifest: its *.cue files at the top
// and in tofu/, and cue.mod/module.cue, are convert's; the rest is kept.
func TestWriteOverOutputWithoutManifest(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if err := result(true, "main.cue", "old.cue").Write(out); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, filepath.FromSlash(ManifestName))); err != nil {
		t.Fatal(err)
	}
	write(t, out, "README", "mine\n")
	write(t, out, "child/main.cue", "package child\n")
	if err := result(false, "main.cue").Write(out); err != nil {
		t.Fatal(err)
	}
	var names []string
	for n, c := range tree(t, out) {
		if c != "/" {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	want := []string{"README", "child/main.cue", "cue.mod/hcl2cue-files.txt", "cue.mod/module.cue", "main.cue"}
	if !slices.Equal(names, want) {
		t.Errorf("files = %v, want %v", names, want)
	}
}

func TestLibraryUses(t *testing.T) {
	r := &Result{Files: []File{
		{Name: "a.cue", Source: []byte("x: (tofu.#cidrsubnet & {#args: [a]}).out\ny: (tofu.#toset & {#args: [tofu.#x_1]}).out\n")},
		{Name: "b.cue", Source: []byte("z: mytofu.#no\nw: tofu.#cidrsubnet\nv: tofu.\nu: tofu.#")},
	}}
	got := r.libraryUses()
	want := []string{"#cidrsubnet", "#toset", "#x_1"}
	if !slices.Equal(got, want) {
		t.Errorf("libraryUses = %v, want %v", got, want)
	}
}

// TestCueFileName checks the names of the converted files: cue/load
// leaves out names that start with _ or . and takes those ending in _test
// or _tool for tests and cue cmd, so none is given.
func TestCueFileName(t *testing.T) {
	taken := map[string]bool{}
	for _, c := range []struct{ path, want string }{
		{"main.tf", "main.cue"},
		{"main.tf.json", "main_2.cue"},
		{"_main.tf", "tf_main.cue"},
		{".hidden.tofu", "tf.hidden.cue"},
		{"deploy_tool.tf", "deploy_tool_tf.cue"},
		{"module_tool.tf", "module_tool_tf.cue"},
		{"x_test.tofu", "x_test_tf.cue"},
		{"tools.tf", "tools.cue"},
	} {
		if got := cueFileName(c.path, taken); got != c.want {
			t.Errorf("cueFileName(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
