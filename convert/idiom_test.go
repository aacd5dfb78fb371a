package convert

import (
	"testing"

	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"github.com/zclconf/go-cty/cty"
)

// TestPlainFallback checks which fallbacks of try(a, b) may be CUE's
// default *a | b: literals only, and none holding a null, which a
// resource's argument takes as null by default and a module's argument
// conversion as a value that may be null.
func TestPlainFallback(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{`""`, true},
		{`-1`, true},
		{`[1, "x", {a: true}]`, true},
		{`{}`, true},
		{`null`, false},
		{`[null]`, false},
		{`{a: null}`, false},
		{`_var_x`, false},
		{`{a: _var_x}`, false},
		{`[_var_x]`, false},
		{`{(k): 1}`, false},
		{`*1 | 2`, false},
		{`!true`, false},
	} {
		x, err := parser.ParseExpr("fallback", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := plainFallback(x); got != tc.want {
			t.Errorf("plainFallback(%s) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestNot checks that a comparison's negation is the opposite
// comparison, and that a test against _|_ and anything else keep !.
func TestNot(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`a == b`, `a != b`},
		{`a != b`, `a == b`},
		{`a < b`, `a >= b`},
		{`a >= b`, `a < b`},
		{`a > b`, `a <= b`},
		{`a <= b`, `a > b`},
		{`!a`, `a`},
		{`a == _|_`, `!(a == _|_)`},
		{`a && b`, `!(a && b)`},
		{`a`, `!a`},
	} {
		x, err := parser.ParseExpr("x", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		b, err := format.Node(not(x))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("not(%s) = %s, want %s", tc.src, b, tc.want)
		}
	}
}

// TestConvertsAsIs checks which argument types a module call passes to a
// variable's type without conform's conversion: those OpenTofu's
// conversion leaves as they are.
func TestConvertsAsIs(t *testing.T) {
	obj := cty.Object
	for _, tc := range []struct {
		from, to cty.Type
		want     bool
	}{
		{cty.String, cty.String, true},
		{cty.Number, cty.String, false},
		{cty.String, cty.Number, false},
		{cty.Bool, cty.String, false},
		{cty.DynamicPseudoType, cty.String, false},
		{obj(map[string]cty.Type{"Name": cty.String, "Env": cty.String}), cty.Map(cty.String), true},
		{obj(map[string]cty.Type{"Name": cty.String, "Count": cty.Number}), cty.Map(cty.String), false},
		{obj(map[string]cty.Type{"Name": cty.DynamicPseudoType}), cty.Map(cty.String), false},
		{cty.Tuple([]cty.Type{cty.String, cty.String}), cty.List(cty.String), true},
		{cty.Tuple([]cty.Type{cty.String, cty.Number}), cty.List(cty.String), false},
		{cty.Tuple([]cty.Type{cty.String}), cty.Set(cty.String), true},
		// A set has no repeats and an order of its own.
		{cty.Tuple([]cty.Type{cty.String, cty.String}), cty.Set(cty.String), false},
		{cty.List(cty.String), cty.Set(cty.String), false},
		{cty.Set(cty.String), cty.Set(cty.String), true},
		{cty.List(cty.String), cty.List(cty.String), true},
		{cty.List(cty.Number), cty.List(cty.String), false},
		{cty.Map(cty.String), cty.Map(cty.String), true},
		{cty.Map(cty.Bool), cty.Map(cty.String), false},
		{obj(map[string]cty.Type{"a": cty.String}), obj(map[string]cty.Type{"a": cty.String}), true},
		{obj(map[string]cty.Type{"a": cty.String}), obj(map[string]cty.Type{"a": cty.String, "b": cty.String}), false},
		{obj(map[string]cty.Type{"a": cty.String, "b": cty.String}), obj(map[string]cty.Type{"a": cty.String}), false},
		{cty.List(cty.String), cty.List(cty.DynamicPseudoType), false},
	} {
		if got := convertsAsIs(tc.from, tc.to); got != tc.want {
			t.Errorf("convertsAsIs(%s, %s) = %v, want %v", tc.from.FriendlyName(), tc.to.FriendlyName(), got, tc.want)
		}
	}
}
