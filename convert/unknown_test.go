package convert

import (
	"strings"
	"testing"

	"cuelang.org/go/cue"
)

// TestUnknownGuard checks the guard beside a template that may read a
// value not known yet (unknownGuard), with each kind of value the engine
// may give the attributes it reads: the template is string while one of
// them is a scalar type, the interpolated string once each is a value,
// and an error where one is null, a list, a struct or missing, as
// OpenTofu's template of such a value is.
func TestUnknownGuard(t *testing.T) {
	r, _ := convertSource(t, map[string]string{"main.tf": `
resource "aws_instance" "web" {
  ami = "ami-1"
}

output "one" {
  value = "${aws_instance.web.a}-t"
}

output "two" {
  value = "${aws_instance.web.a}-${aws_instance.web.b}"
}

output "upper" {
  value = upper(aws_instance.web.a)
}

output "stamped" {
  value = "${aws_instance.web.a}-${timestamp()}"
}

output "fallback" {
  value = try("${aws_instance.web.a}-t", "fallback")
}

output "nested" {
  value = upper("${aws_instance.web.a}-${lower("${aws_instance.web.a}-T")}")
}
`})
	if r.Diagnostics.HasErrors() {
		t.Fatal(r.Diagnostics.Error())
	}
	// The templates and the call inside nested are inside its guard,
	// which reads the same reference: one guard, not three (guard).
	for _, f := range r.Files {
		if _, field, ok := strings.Cut(string(f.Source), "nested:"); ok {
			field, _, _ = strings.Cut(field, "@output(nested)")
			if n := strings.Count(field, "tofu.#unknown"); n != 1 {
				t.Errorf("output nested has %d guards, want 1:\n%s", n, field)
			}
		}
	}
	const unknown, failed = "(unknown)", "(error)"
	for _, tc := range []struct {
		engine string
		want   map[string]string // output -> JSON, unknown or failed
	}{
		{`a: string, b: "x"`, map[string]string{"one": unknown, "two": unknown, "upper": unknown, "stamped": unknown, "fallback": unknown, "nested": unknown}},
		{`a: number, b: bool`, map[string]string{"one": unknown, "two": unknown, "stamped": unknown, "fallback": unknown}},
		{`a: "v", b: string`, map[string]string{"one": `"v-t"`, "two": unknown, "upper": `"V"`, "stamped": unknown, "fallback": `"v-t"`, "nested": `"V-V-T"`}},
		{`a: "v", b: 2`, map[string]string{"one": `"v-t"`, "two": `"v-2"`, "stamped": unknown, "fallback": `"v-t"`}},
		{`a: true, b: 2.5`, map[string]string{"one": `"true-t"`, "two": `"true-2.5"`}},
		{`a: null, b: string`, map[string]string{"one": failed, "two": failed, "upper": failed, "stamped": failed, "fallback": `"fallback"`, "nested": failed}},
		{`a: ["v"], b: string`, map[string]string{"one": failed, "two": failed, "stamped": failed, "fallback": `"fallback"`}},
		{`a: {v: 1}, b: string`, map[string]string{"one": failed, "two": failed, "fallback": `"fallback"`}},
		// No a at all: an attribute the resource does not have.
		{`b: string`, map[string]string{"one": failed, "two": failed, "stamped": failed, "fallback": `"fallback"`}},
	} {
		v, err := r.LoadWith(nil, map[string][]byte{"engine.cue": []byte("package m\n\naws_instance: web: {" + tc.engine + "}\n")})
		if err != nil && !strings.Contains(err.Error(), "output.") {
			t.Fatalf("%s: %v", tc.engine, err)
		}
		for out, want := range tc.want {
			x := v.LookupPath(cue.ParsePath("output." + out))
			got := ""
			switch b, err := x.MarshalJSON(); {
			case err == nil:
				got = string(b)
			case x.Err() == nil && x.IncompleteKind() == cue.StringKind:
				got = unknown
			default:
				got = failed
			}
			if got != want {
				t.Errorf("%s: output %s is %s, want %s", tc.engine, out, got, want)
			}
		}
	}
}
