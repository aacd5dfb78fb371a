package convert

import (
	"os"
	"path/filepath"
	"testing"

	"cuelang.org/go/cue/cuecontext"

	"github.com/tofucue/tofucue/config"
)

// FuzzConvert converts arbitrary module sources: the converter must not
// panic, and whatever it converts completely must load as CUE.
func FuzzConvert(f *testing.F) {
	seeds, _ := filepath.Glob("../golden/convert/*.txtar")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("locals {\n  a = [for k, v in {x = 1} : \"${k}${v}\" if v > 0]\n}\n")
	f.Add("resource \"a\" \"b\" {\n  count = var.n > 0 ? 1 : 0\n  dynamic \"x\" {\n    for_each = var.l\n    content { y = x.value }\n  }\n}\nvariable \"n\" {}\nvariable \"l\" {}\n")
	ctx := cuecontext.New()
	f.Fuzz(func(t *testing.T, src string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := config.Load(dir)
		if m == nil || diags.HasErrors() {
			return
		}
		r := Module(m, Options{Package: "m"})
		if !r.Complete() {
			return
		}
		for _, f := range r.Files {
			if len(f.Source) == 0 {
				t.Fatalf("%s is empty", f.Name)
			}
		}
		if _, err := r.Load(ctx); err != nil && isBuildError(err.Error()) {
			t.Fatalf("converted module does not build: %v\n%s", err, src)
		}
	})
}
