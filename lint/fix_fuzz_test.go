package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// fixItem is a construct of a generated module: its text and the text the
// fixes make of it, with N standing for its number.
type fixItem struct{ before, after string }

// fixItems are fixable constructs of every rule that fixes, with the
// neighbors a fix must keep (comments, formatting), and one construct
// without a finding.
var fixItems = []fixItem{
	{"locals {\n  lN = \"${var.x}\" # cN\n}\n", "locals {\n  lN = var.x # cN\n}\n"},
	{"locals {\n  lN = var.m.0.id # cN\n}\n", "locals {\n  lN = var.m[0].id # cN\n}\n"},
	{"locals {\n  lN = var.m.*.id # cN\n}\n", "locals {\n  lN = var.m[*].id # cN\n}\n"},
	{"locals {\n  lN = \"${var.m.0.id}\" # cN\n}\n", "locals {\n  lN = var.m[0].id # cN\n}\n"},
	{"locals {\n  lN = \"${var.m.*.id}\" # cN\n}\n", "locals {\n  lN = var.m[*].id # cN\n}\n"},
	{"locals {\n  lN = \"x${var.m.0.id}\" # cN\n}\n", "locals {\n  lN = \"x${var.m[0].id}\" # cN\n}\n"},
	{"locals {\n  lN = { \"${var.x}\" = 1 } # cN\n}\n", "locals {\n  lN = { (var.x) = 1 } # cN\n}\n"},
	{"locals {\n  lN = \"${var.x == 1 ? 2 : 3}\" # cN\n}\n", "locals {\n  lN = var.x == 1 ? 2 : 3 # cN\n}\n"},
	{"locals {\n  lN = var.m.*.id[0] # cN\n}\n", "locals {\n  lN = (var.m[*].id)[0] # cN\n}\n"},
	{"locals {\n  lN = [\n    \"${var.x}\", # cN\n    var.m.0.id,\n  ]\n}\n", "locals {\n  lN = [\n    var.x, # cN\n    var.m[0].id,\n  ]\n}\n"},
	{"variable \"vN\" {\n  type = list # cN\n}\n", "variable \"vN\" {\n  type = list(any) # cN\n}\n"},
	{"variable \"vN\" {\n  type = map(list) # cN\n}\n", "variable \"vN\" {\n  type = map(list(any)) # cN\n}\n"},
	{"locals {\n  lN = 1 # cN, nothing to fix\n}\n", "locals {\n  lN = 1 # cN, nothing to fix\n}\n"},
}

// fixSeparators go between the constructs.
var fixSeparators = []string{"", "\n", "\n# between\n\n"}

// fixModule returns the module that data describes and what its fixes
// make of it: data[0] says how often the constructs that the rest of data
// picks are repeated, so that a short input makes a module with many
// fixes.
func fixModule(data []byte) (before, after string) {
	const head = "variable \"x\" {\n  type = list(string)\n}\nvariable \"m\" {\n  type = list(object({ id = string }))\n}\n"
	var b, a strings.Builder
	b.WriteString(head)
	a.WriteString(head)
	if len(data) < 2 {
		return b.String(), a.String()
	}
	n := 0
	for range 1 + int(data[0])%64 {
		for _, c := range data[1:] {
			if n >= 3000 {
				break
			}
			it := fixItems[int(c)%len(fixItems)]
			sep := fixSeparators[int(c)/len(fixItems)%len(fixSeparators)]
			num := fmt.Sprint(n)
			b.WriteString(sep + strings.ReplaceAll(it.before, "N", num))
			a.WriteString(sep + strings.ReplaceAll(it.after, "N", num))
			n++
		}
	}
	return b.String(), a.String()
}

// FuzzFix lints generated modules with many fixable findings, applies the
// fixes and writes them, and checks that every fix is applied and nothing
// else changes (the result is exactly the fixed constructs with every
// byte between them), that the result parses, and that a second fix
// changes nothing.
func FuzzFix(f *testing.F) {
	f.Add([]byte{0, 0})
	f.Add([]byte{3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{63, 13, 27, 40, 1, 2})
	f.Add([]byte{40, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38})
	f.Fuzz(func(t *testing.T, data []byte) {
		before, want := fixModule(data)
		dir := t.TempDir()
		main := filepath.Join(dir, "main.tf")
		if err := os.WriteFile(main, []byte(before), 0o644); err != nil {
			t.Fatal(err)
		}
		fx := Fix(mustRun(t, []Target{{Dir: dir}}, Options{}))
		for _, e := range fx.Skipped {
			t.Errorf("fix skipped: %v", e)
		}
		if got, ok := fx.Files[main]; ok || before != want {
			if string(got) != want {
				t.Fatalf("fixed module differs from the expected one:\n%s", firstDifference(string(got), want))
			}
		}
		if _, diags := hclsyntax.ParseConfig([]byte(want), "main.tf", hcl.InitialPos); diags.HasErrors() {
			t.Fatalf("the fixed module does not parse: %v", diags)
		}
		if err := fx.Write(nil); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(main); err != nil || string(got) != want {
			t.Fatalf("main.tf on disk after Write differs (%v):\n%s", err, firstDifference(string(got), want))
		}
		if again := Fix(mustRun(t, []Target{{Dir: dir}}, Options{})); len(again.Files) != 0 || len(again.Skipped) != 0 {
			t.Errorf("a second fix changes %v (skipped %v)", again.Names(), again.Skipped)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("the fix left %v", entries)
		}
	})
}

// firstDifference shows where got and want first differ.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("at byte %d:\ngot:  %q\nwant: %q", i, got[from:min(len(got), i+80)], want[from:min(len(want), i+80)])
}
