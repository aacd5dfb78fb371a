package convert

import (
	"encoding/json"
	"math/big"
	"reflect"
	"testing"

	"cuelang.org/go/cue"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
	tofufuncs "github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/internal/testtree"
)

// convertSource converts a module made of one main.tf with src, and
// returns the result and its loaded CUE value.
func convertSource(t testing.TB, files map[string]string) (*Result, cue.Value) {
	t.Helper()
	dir := testtree.Write(t, files)
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatalf("loading: %s", diags.Error())
	}
	r := Module(m, Options{Package: "m"})
	v, err := r.Load(nil)
	if err != nil && !r.Diagnostics.HasErrors() {
		for _, f := range r.Files {
			t.Logf("%s:\n%s", f.Name, f.Source)
		}
		t.Fatalf("converted module does not load: %v", err)
	}
	return r, v
}

// checkSameAsOpenTofu converts the expression expr and checks that CUE
// evaluates it to the value OpenTofu's functions give. The expression may
// use only constants and function calls.
func checkSameAsOpenTofu(t *testing.T, expr string) {
	t.Helper()
	want := openTofuValue(t, expr)
	r, v := convertSource(t, map[string]string{"main.tf": "output \"x\" {\n  value = " + expr + "\n}\n"})
	if r.Diagnostics.HasErrors() {
		t.Fatalf("%s: not converted: %s", expr, r.Diagnostics.Error())
	}
	got := v.LookupPath(cue.ParsePath("output.x"))
	b, err := got.MarshalJSON()
	if err != nil {
		for _, f := range r.Files {
			t.Logf("%s:\n%s", f.Name, f.Source)
		}
		t.Fatalf("%s: CUE gives no value: %v", expr, err)
	}
	if !sameJSON(t, b, want) {
		for _, f := range r.Files {
			t.Logf("%s:\n%s", f.Name, f.Source)
		}
		t.Errorf("%s:\nCUE      %s\nOpenTofu %s", expr, b, want)
	}
}

// openTofuValue evaluates expr with OpenTofu's functions, as JSON.
func openTofuValue(t *testing.T, expr string) []byte {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(expr), "expr.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", expr, diags.Error())
	}
	v, diags := e.Value(&hcl.EvalContext{Functions: tofufuncs.Table(tofufuncs.Options{BaseDir: t.TempDir()})})
	if diags.HasErrors() {
		t.Fatalf("%s: OpenTofu: %s", expr, diags.Error())
	}
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameJSON compares two JSON documents as values, numbers by value (CUE
// writes 2.0 where OpenTofu writes 2).
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	x, err := decodeJSON(a)
	if err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	y, err := decodeJSON(b)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(normalizeNumbers(x), normalizeNumbers(y))
}

func normalizeNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		f, _, err := big.ParseFloat(string(v), 10, 256, big.ToNearestEven)
		if err != nil {
			return string(v)
		}
		return f.Text('g', 40)
	case []any:
		for i := range v {
			v[i] = normalizeNumbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = normalizeNumbers(v[k])
		}
	}
	return v
}
