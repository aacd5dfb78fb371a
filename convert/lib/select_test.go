package lib

import (
	"bytes"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/load"
)

// TestSelect selects each definition alone, and all of them, and checks
// that what Select writes is formatted, builds as the tofu package (every
// reference found, every import used) and holds exactly the definitions
// it needs.
func TestSelect(t *testing.T) {
	idx, err := index()
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for name := range idx.defs {
		all = append(all, name)
	}
	slices.Sort(all)
	for _, name := range append(all, "") {
		roots := []string{name}
		if name == "" {
			roots = all
		}
		files, err := Select(roots)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := defsIn(t, files)
		if name == "" && !slices.Equal(got, all) {
			t.Errorf("all definitions selected: got %v", got)
		}
		if name != "" && !slices.Contains(got, name) {
			t.Errorf("%s: not selected: %v", name, got)
		}
		buildPackage(t, name, files)
	}
}

// TestSelectClosure checks that a definition brings those it uses, in
// its file and in others, and nothing else.
func TestSelectClosure(t *testing.T) {
	files, err := Select([]string{"#toset"})
	if err != nil {
		t.Fatal(err)
	}
	got := defsIn(t, files)
	if !slices.Contains(got, "#distinct") || slices.Contains(got, "#values") {
		t.Errorf("#toset selects %v: want #distinct (which it uses), not #values", got)
	}
	if _, err := Select([]string{"#nosuchfunction"}); err == nil || !strings.Contains(err.Error(), "#nosuchfunction") {
		t.Errorf("an unknown definition: got %v, want an error naming it", err)
	}
}

// TestLibraryFormatted keeps the library's files as cue fmt writes them,
// which Select relies on.
func TestLibraryFormatted(t *testing.T) {
	entries, err := fs.ReadDir(Files, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		src, err := fs.ReadFile(Files, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if b, err := format.Source(src); err != nil || !bytes.Equal(b, src) {
			t.Errorf("%s is not formatted as cue fmt formats it (%v)", e.Name(), err)
		}
	}
}

var defLine = regexp.MustCompile(`(?m)^(#[A-Za-z0-9_]+):`)

// defsIn lists the definitions in files, sorted, and checks that each
// file is formatted.
func defsIn(t *testing.T, files map[string][]byte) []string {
	t.Helper()
	var defs []string
	for name, src := range files {
		if b, err := format.Source(src); err != nil || !bytes.Equal(b, src) {
			t.Errorf("%s as selected is not formatted (%v):\n%s", name, err, src)
		}
		for _, m := range defLine.FindAllSubmatch(src, -1) {
			defs = append(defs, string(m[1]))
		}
	}
	slices.Sort(defs)
	return defs
}

// buildPackage builds files as the tofu package of a CUE module.
func buildPackage(t *testing.T, what string, files map[string][]byte) {
	t.Helper()
	fsys := fstest.MapFS{"cue.mod/module.cue": {Data: []byte("module: \"test.local/m@v0\"\nlanguage: version: \"v0.17.0\"\n")}}
	for name, src := range files {
		fsys["tofu/"+name] = &fstest.MapFile{Data: src}
	}
	insts := load.Instances([]string{"./tofu"}, &load.Config{FS: fsys, Dir: "/"})
	if err := insts[0].Err; err != nil {
		t.Fatalf("%s: %s", what, errors.Details(err, nil))
	}
	if v := cuecontext.New().BuildInstance(insts[0]); v.Err() != nil {
		t.Errorf("%s: %s", what, errors.Details(v.Err(), nil))
	}
}
