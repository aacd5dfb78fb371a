package verify

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/convert"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
)

// TestNameConverted checks that the diagnostics of a module converted in
// memory name its files as ConvertedName does, in the subject and in the
// other positions of the detail, and that their sources come with them.
func TestNameConverted(t *testing.T) {
	dir := t.TempDir()
	src := "output \"o\" {\n  value = replace(\"abc\", \"a\", null)\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, diags := hclengine.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	conv := convert.Module(tree.Root, convert.Options{})
	at := func(name string) *hcl.Range {
		return &hcl.Range{Filename: name, Start: hcl.Pos{Line: 3, Column: 2}, End: hcl.Pos{Line: 3, Column: 2}}
	}
	diags = hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Invalid value", Detail: "x: conflict (also at /main.cue:5:1, /tofu/core.cue:25:3).", Subject: at("/main.cue"), Context: at("/main.cue")},
		{Severity: hcl.DiagError, Summary: "Invalid value", Detail: "elsewhere (also at /other/main.cue:1:1).", Subject: at("/other/main.cue")},
	}
	sources := nameConverted(conv, diags)

	if got := diags[0].Subject.Filename; got != "converted:main.cue" {
		t.Errorf("subject = %q, want converted:main.cue", got)
	}
	if got := diags[0].Context.Filename; got != "converted:main.cue" {
		t.Errorf("context = %q, want converted:main.cue", got)
	}
	if want := "x: conflict (also at converted:main.cue:5:1, converted:tofu/core.cue:25:3)."; diags[0].Detail != want {
		t.Errorf("detail = %q, want %q", diags[0].Detail, want)
	}
	if got := diags[1].Subject.Filename; got != "/other/main.cue" {
		t.Errorf("a file not of the module was renamed: %q", got)
	}
	if want := "elsewhere (also at /other/main.cue:1:1)."; diags[1].Detail != want {
		t.Errorf("detail = %q, want %q", diags[1].Detail, want)
	}
	files, err := conv.OutputFiles()
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if !bytes.Equal(sources[ConvertedName(name)], b) {
			t.Errorf("sources[%q] is not the converted file", ConvertedName(name))
		}
	}
	if len(sources) != len(files) {
		t.Errorf("%d sources for %d files", len(sources), len(files))
	}
}
