package convert

import (
	"flag"
	"os"
	"strings"
	"testing"

	tofufuncs "github.com/tofucue/tofucue/functions"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite the function table of doc.go from the registry")

const (
	tableStart = "// # Function table\n"
	tableEnd   = "package convert\n"
)

// TestFunctionTable checks that every OpenTofu function is in the
// registry, and that the package doc's table says how each is converted,
// as the registry does. Run with -update-doc to rewrite the table.
func TestFunctionTable(t *testing.T) {
	for _, name := range tofufuncs.Names() {
		if _, ok := functions[name]; !ok {
			t.Errorf("OpenTofu function %s is not in the converter's registry", name)
		}
	}
	for _, name := range FunctionNames() {
		if !contains(tofufuncs.Names(), name) {
			t.Errorf("the registry has %s, which is not an OpenTofu function", name)
		}
		// A function whose spec says it is known only after apply
		// becomes CUE's type of its result, and only those.
		spec, _ := tofufuncs.Lookup(name)
		if (functions[name].how == unknownAtPlan) != (spec.Phase == tofufuncs.Apply) {
			t.Errorf("%s is converted %q, but its spec's phase is %v", name, functions[name].how, spec.Phase)
		}
	}
	var b strings.Builder
	b.WriteString(tableStart + "//\n// Every OpenTofu function and how it is converted:\n//\n")
	for _, name := range FunctionNames() {
		status, note, _ := FunctionStatus(name)
		b.WriteString("//   - " + name + " (" + status + "): " + strings.ReplaceAll(note, "\n", " ") + "\n")
	}
	table := b.String()
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i := strings.Index(s, tableStart)
	j := strings.LastIndex(s, tableEnd)
	if i < 0 {
		i = j
	}
	got := s[i:j]
	if got == table {
		return
	}
	if *updateDoc {
		if err := os.WriteFile("doc.go", []byte(s[:i]+table+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the function table in doc.go is out of date; run go test ./convert -run TestFunctionTable -update-doc")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
