package convert

import (
	"fmt"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
	tofufuncs "github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/internal/testtree"
)

// checkErrorLikeOpenTofu checks that OpenTofu rejects expr and that its
// conversion is a CUE error too.
func checkErrorLikeOpenTofu(t *testing.T, expr string) {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(expr), "expr.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", expr, diags.Error())
	}
	if _, diags := e.Value(&hcl.EvalContext{Functions: tofufuncs.Table(tofufuncs.Options{BaseDir: t.TempDir()})}); !diags.HasErrors() {
		t.Fatalf("%s: OpenTofu accepts it", expr)
	}
	r, v, err := convertLoose(t, expr)
	if err != nil {
		return // the error shows when CUE builds the module
	}
	if b, err := v.MarshalJSON(); err == nil {
		for _, f := range r.Files {
			t.Logf("%s:\n%s", f.Name, f.Source)
		}
		t.Errorf("%s: CUE gives %s, OpenTofu an error", expr, b)
	}
}

// convertLoose converts expr as an output and returns the output's CUE
// value, or the error CUE reports when building the converted module.
func convertLoose(t *testing.T, expr string) (*Result, cue.Value, error) {
	t.Helper()
	dir := testtree.Write(t, map[string]string{"main.tf": "output \"x\" {\n  value = " + expr + "\n}\n"})
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatalf("loading: %s", diags.Error())
	}
	r := Module(m, Options{Package: "m"})
	if r.Diagnostics.HasErrors() {
		t.Fatalf("%s: not converted: %s", expr, r.Diagnostics.Error())
	}
	v, err := r.Load(nil)
	if err != nil {
		return r, cue.Value{}, err
	}
	v = v.LookupPath(cue.ParsePath("output.x"))
	if err := v.Err(); err != nil {
		return r, v, err
	}
	return r, v, nil
}

// convertOutput converts expr in a module with files and returns the
// result and the CUE value of the output.
func convertOutput(t *testing.T, files map[string]string, expr string) (*Result, cue.Value) {
	t.Helper()
	all := map[string]string{"main.tf": "output \"x\" {\n  value = " + expr + "\n}\n"}
	for k, v := range files {
		all[k] = v
	}
	r, v := convertSource(t, all)
	return r, v.LookupPath(cue.ParsePath("output.x"))
}

// checkNotConverted checks that expr is reported as not converted, with a
// detail that says detail.
func checkNotConverted(t *testing.T, expr, detail string) {
	t.Helper()
	r, _ := convertOutput(t, map[string]string{"variables.tf": declareVariables(t, expr)}, expr)
	if !r.Diagnostics.HasErrors() {
		t.Fatalf("%s: converted, want a report", expr)
	}
	if !strings.Contains(r.Diagnostics.Error(), detail) {
		t.Errorf("%s: report %q does not say %q", expr, r.Diagnostics.Error(), detail)
	}
}

// declareVariables declares every input variable that expr refers to, of
// any type, so that a case reports what it is about and not the
// reference to an undeclared variable.
func declareVariables(t *testing.T, expr string) string {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(expr), "expr.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", expr, diags.Error())
	}
	var b strings.Builder
	seen := map[string]bool{}
	for _, tr := range e.Variables() {
		if tr.RootName() != "var" || len(tr) < 2 {
			continue
		}
		if a, ok := tr[1].(hcl.TraverseAttr); ok && !seen[a.Name] {
			seen[a.Name] = true
			fmt.Fprintf(&b, "variable %q {}\n", a.Name)
		}
	}
	return b.String()
}

// openTofuValueWith evaluates expr with OpenTofu's functions for a root
// module in dir (path.module is "."), as JSON.
func openTofuValueWith(t *testing.T, dir, expr string) []byte {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(expr), "expr.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", expr, diags.Error())
	}
	ctx := &hcl.EvalContext{
		Functions: tofufuncs.Table(tofufuncs.Options{BaseDir: dir}),
		Variables: map[string]cty.Value{"path": cty.ObjectVal(map[string]cty.Value{"module": cty.StringVal(".")})},
	}
	v, diags := e.Value(ctx)
	if diags.HasErrors() {
		t.Fatalf("%s: OpenTofu: %s", expr, diags.Error())
	}
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		t.Fatal(err)
	}
	return b
}
