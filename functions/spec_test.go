package functions

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

var updateOpenTofu = flag.Bool("update-opentofu", false, "rewrite testdata/opentofu-signatures.json from `tofu metadata functions -json` of the OpenTofu that TOFUCUE_OPENTOFU names")

// signature is a function's signature as `tofu metadata functions -json`
// gives it, types as cty writes them in JSON.
type signature struct {
	Return   json.RawMessage   `json:"return_type"`
	Params   []json.RawMessage `json:"parameters"`
	Variadic json.RawMessage   `json:"variadic_parameter,omitempty"`
}

const signaturesFile = "testdata/opentofu-signatures.json"

// readSignatures reads the signatures OpenTofu gave when they were last
// recorded.
func readSignatures(t *testing.T) map[string]signature {
	t.Helper()
	b, err := os.ReadFile(signaturesFile)
	if err != nil {
		t.Fatal(err)
	}
	var sigs map[string]signature
	if err := json.Unmarshal(b, &sigs); err != nil {
		t.Fatal(err)
	}
	return sigs
}

// liveSignatures runs `tofu metadata functions -json` and returns its
// functions without the core:: namespace, written as readSignatures
// reads them.
func liveSignatures(t *testing.T, tofu string) []byte {
	t.Helper()
	cmd := exec.Command(tofu, "metadata", "functions", "-json")
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=/dev/null", "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s metadata functions -json: %v", tofu, err)
	}
	var meta struct {
		Sigs map[string]struct {
			Return json.RawMessage `json:"return_type"`
			Params []struct {
				Type json.RawMessage `json:"type"`
			} `json:"parameters"`
			Variadic *struct {
				Type json.RawMessage `json:"type"`
			} `json:"variadic_parameter"`
		} `json:"function_signatures"`
	}
	if err := json.Unmarshal(out, &meta); err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range meta.Sigs {
		if !strings.HasPrefix(n, "core::") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var buf bytes.Buffer
	buf.WriteString("{\n")
	for i, n := range names {
		m := meta.Sigs[n]
		s := signature{Return: m.Return}
		for _, p := range m.Params {
			s.Params = append(s.Params, p.Type)
		}
		if m.Variadic != nil {
			s.Variadic = m.Variadic.Type
		}
		line, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		sep := ","
		if i == len(names)-1 {
			sep = ""
		}
		fmt.Fprintf(&buf, "%q: %s%s\n", n, line, sep)
	}
	buf.WriteString("}\n")
	return buf.Bytes()
}

// The recorded signatures are those of the OpenTofu that TOFUCUE_OPENTOFU
// names, when it names one.
func TestOpenTofuSignaturesRecorded(t *testing.T) {
	tofu := os.Getenv("TOFUCUE_OPENTOFU")
	if tofu == "" {
		t.Skip("TOFUCUE_OPENTOFU names no OpenTofu binary")
	}
	live := liveSignatures(t, tofu)
	if *updateOpenTofu {
		if err := os.WriteFile(signaturesFile, live, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	recorded, err := os.ReadFile(signaturesFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(live, recorded) {
		t.Errorf("%s differs from what %s gives; rerun with -update-opentofu and read the difference", signaturesFile, tofu)
	}
}

// Every function OpenTofu has has a spec, and every spec but type (only
// in OpenTofu's console) is one of OpenTofu's functions; the
// implementations take the parameters OpenTofu's do; the spec's result and
// argument kinds agree with OpenTofu's types where those are not dynamic.
func TestSpecsAgreeWithOpenTofu(t *testing.T) {
	sigs := readSignatures(t)
	table := Table(Options{})
	for name := range sigs {
		if _, ok := Lookup(name); !ok {
			t.Errorf("OpenTofu has %s, which has no spec", name)
		}
	}
	for _, s := range Specs() {
		sig, ok := sigs[s.Name]
		if !ok {
			if !s.ConsoleOnly {
				t.Errorf("%s has a spec but OpenTofu has no such function", s.Name)
			}
			continue
		}
		f := table[s.Name]
		var got []json.RawMessage
		for _, p := range f.Params() {
			got = append(got, typeJSON(t, p.Type))
		}
		if !slices.EqualFunc(got, sig.Params, sameJSON) {
			t.Errorf("%s: parameters %s, OpenTofu's %s", s.Name, got, sig.Params)
		}
		var variadic json.RawMessage
		if vp := f.VarParam(); vp != nil {
			variadic = typeJSON(t, vp.Type)
		}
		if !sameJSON(variadic, sig.Variadic) {
			t.Errorf("%s: variadic parameter %s, OpenTofu's %s", s.Name, variadic, sig.Variadic)
		}
		if k, ok := kindOfTypeJSON(t, sig.Return); ok && !compatible(s.Result, k) || ok && s.Result == List && k == Set {
			t.Errorf("%s: spec's result is %v, OpenTofu's %s", s.Name, s.Result, sig.Return)
		}
		for i, p := range sig.Params {
			if k, ok := kindOfTypeJSON(t, p); ok && !compatible(s.Arg(i).Kind, k) {
				t.Errorf("%s: spec's argument %d is %v, OpenTofu's %s", s.Name, i, s.Arg(i).Kind, p)
			}
		}
		if sig.Variadic != nil {
			i := len(sig.Params)
			if k, ok := kindOfTypeJSON(t, sig.Variadic); ok && !compatible(s.Arg(i).Kind, k) {
				t.Errorf("%s: spec's variadic argument is %v, OpenTofu's %s", s.Name, s.Arg(i).Kind, sig.Variadic)
			}
		}
	}
}

func typeJSON(t *testing.T, ty cty.Type) json.RawMessage {
	t.Helper()
	if ty.IsCapsuleType() {
		// try and can take expression closures, which OpenTofu's
		// signatures call dynamic.
		ty = cty.DynamicPseudoType
	}
	b, err := ty.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sameJSON(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && fmt.Sprint(x) == fmt.Sprint(y)
}

// kindOfTypeJSON is the kind of values of a type written in JSON; false
// for dynamic, where OpenTofu's signature fixes no kind.
func kindOfTypeJSON(t *testing.T, b json.RawMessage) (Kind, bool) {
	t.Helper()
	var ty cty.Type
	if err := ty.UnmarshalJSON(b); err != nil {
		t.Fatalf("type %s: %v", b, err)
	}
	k := KindOf(ty)
	return k, k != Any
}

// compatible is whether a spec's kind agrees with a kind of value: an
// Integer is a Number, a Sized a string or a collection, and an argument
// of kind List takes a set (a list given where a set is wanted converts).
func compatible(spec, k Kind) bool {
	switch spec {
	case k:
		return true
	case Integer:
		return k == Number
	case Sized:
		return k == String || k == List || k == Set || k == Map
	case List:
		return k == Set
	}
	return false
}

// resultKindAgrees checks the value of a documented example, a call of
// function name, against its spec's result kind.
func resultKindAgrees(t *testing.T, expr string, v cty.Value) {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(expr), "", hcl.InitialPos)
	call, ok := e.(*hclsyntax.FunctionCallExpr)
	if diags.HasErrors() || !ok {
		return
	}
	s, ok := Lookup(call.Name)
	if !ok || s.Result == Any || v.IsNull() || !v.IsKnown() {
		return
	}
	v, _ = v.Unmark()
	k := KindOf(v.Type())
	if !compatible(s.Result, k) {
		t.Errorf("%s is %s, not of the spec's result kind %v", expr, v.Type().FriendlyName(), s.Result)
	}
	if s.Result == Integer && k == Number && !v.AsBigFloat().IsInt() {
		t.Errorf("%s is %s, not an integer as the spec says", expr, show(v))
	}
}

func TestSpecsSorted(t *testing.T) {
	if !slices.IsSortedFunc(specs, func(a, b Spec) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("specs are not sorted by name")
	}
	for i := 1; i < len(specs); i++ {
		if specs[i].Name == specs[i-1].Name {
			t.Errorf("%s has two specs", specs[i].Name)
		}
	}
	for _, s := range specs {
		for _, a := range s.Args {
			if a.Last >= 0 && a.Last < a.First {
				t.Errorf("%s: arguments %d to %d", s.Name, a.First, a.Last)
			}
			if a.Form != NoForm && a.Kind != String && !s.Converts {
				t.Errorf("%s: a form on an argument of kind %v", s.Name, a.Kind)
			}
		}
	}
}

// A string of each form passes the functions that want that form.
func TestFormExamples(t *testing.T) {
	table := Table(Options{})
	for _, s := range Specs() {
		for _, a := range s.Args {
			if a.Form == NoForm {
				continue
			}
			if len(a.Form.Examples()) == 0 {
				t.Errorf("%s: form %v has no examples", s.Name, a.Form)
			}
			if a.First != 0 || len(table[s.Name].Params()) == 0 {
				continue
			}
			// The first argument alone, or with a second one that
			// the form's examples also give (cidrcontains): one of
			// the examples passes.
			n := len(table[s.Name].Params())
			if n > 2 || n == 2 && a.Last == 0 {
				continue
			}
			var errs []error
			for _, ex := range a.Form.Examples() {
				args := []cty.Value{cty.StringVal(ex)}
				if n == 2 {
					args = append(args, cty.StringVal(ex))
				}
				if _, err := table[s.Name].Call(args); err != nil {
					errs = append(errs, err)
				}
			}
			if len(errs) == len(a.Form.Examples()) {
				t.Errorf("%s: no example of form %v passes: %v", s.Name, a.Form, errs)
			}
		}
	}
}

// ephemeralasnull makes each ephemeral value null where it is, keeping
// the type and the other marks.
func TestEphemeralAsNull(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"token": cty.StringVal("secret").Mark(EphemeralMark).Mark(SensitiveMark),
		"names": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b").Mark(EphemeralMark)}),
		"port":  cty.NumberIntVal(1),
	})
	got, err := Table(Options{})["ephemeralasnull"].Call([]cty.Value{v})
	if err != nil {
		t.Fatal(err)
	}
	want := cty.ObjectVal(map[string]cty.Value{
		"token": cty.NullVal(cty.String).Mark(SensitiveMark),
		"names": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.NullVal(cty.String)}),
		"port":  cty.NumberIntVal(1),
	})
	if !got.RawEquals(want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
}

// NotNull is worked out from the implementations, for every function.
func TestNotNull(t *testing.T) {
	want := map[string]bool{
		"md5": true, "length": true, "upper": true, "format": true, "cidrsubnet": true,
		"tostring": false, "lookup": false, "try": false, "sensitive": false, "element": false,
	}
	for name, nn := range want {
		s, _ := Lookup(name)
		if s.NotNull() != nn {
			t.Errorf("%s: NotNull() = %v, want %v", name, s.NotNull(), nn)
		}
	}
	for _, s := range Specs() {
		_ = s.NotNull() // no implementation panics on unknown arguments
	}
}
