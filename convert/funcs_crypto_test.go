package convert

import (
	"testing"

	"cuelang.org/go/cue"
)

func TestCryptoFunctionsSameAsOpenTofu(t *testing.T) {
	for _, expr := range []string{
		`md5("hello world")`,
		`md5("")`,
		`sha1("héllo")`,
		`sha256("hello world")`,
		`sha512("hello world")`,
		`base64sha256("hello world")`,
		`base64sha512("héllo")`,
		`base64sha256("")`,
		`uuidv5("dns", "www.example.com")`,
		`uuidv5("url", "https://example.com/")`,
		`uuidv5("oid", "1.2.3")`,
		`uuidv5("x500", "cn=x")`,
		`uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.example.com")`,
		`uuidv5("{6ba7b810-9dad-11d1-80b4-00c04fd430c8}", "")`,
	} {
		t.Run(expr, func(t *testing.T) { checkSameAsOpenTofu(t, expr) })
	}
	checkErrorLikeOpenTofu(t, `uuidv5("nope", "x")`)
}

// TestUnknownAtPlanFunctions checks that a function whose result is known
// only at apply becomes CUE's type of that result: a string that is not
// concrete.
func TestUnknownAtPlanFunctions(t *testing.T) {
	for _, expr := range []string{`uuid()`, `bcrypt("secret")`, `bcrypt("secret", 10)`, `timestamp()`, `plantimestamp()`} {
		t.Run(expr, func(t *testing.T) {
			r, v := convertOutput(t, nil, expr)
			if r.Diagnostics.HasErrors() {
				t.Fatalf("not converted: %s", r.Diagnostics.Error())
			}
			if err := v.Err(); err != nil {
				t.Fatalf("error: %v", err)
			}
			if v.IsConcrete() || v.IncompleteKind() != cue.StringKind {
				t.Errorf("got %v, want the type string", v)
			}
		})
	}
}
