package convert

import (
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
)

// TestTryUnknown checks try with two and three arguments, can and lookup
// with a default where an argument is not known yet (a computed attribute
// the engine gives as its type): the result stays unknown, as in
// OpenTofu, instead of falling back as if the argument were an error;
// once known, it is taken.
func TestTryUnknown(t *testing.T) {
	r, _ := convertSource(t, map[string]string{"main.tf": `
resource "aws_instance" "web" {
  ami = "ami-1"
}

locals {
  obj = { a = 1 }
  # A module output, typically: try of a string not known yet.
  id = try(aws_instance.web.id, "")
}

output "nested" {
  value = try(local.id, "none")
}

output "three" {
  value = try(aws_instance.web.id, local.obj.missing, "fallback")
}

output "second" {
  value = try(local.obj.missing, aws_instance.web.id, "fallback")
}

output "can" {
  value = can(aws_instance.web.id)
}

output "two" {
  value = try(aws_instance.web.id, "fallback")
}

output "object" {
  value = try(aws_instance.web, null)
}

output "tag" {
  value = lookup({ name = "web-${aws_instance.web.id}" }, "name", "none")
}
`})
	if r.Diagnostics.HasErrors() {
		t.Fatal(r.Diagnostics.Error())
	}
	for _, tc := range []struct {
		engine string
		want   map[string]string // output -> JSON, "" for not concrete
	}{
		{"aws_instance: web: id: string", map[string]string{"three": "", "second": "", "can": "", "two": "", "object": "", "tag": "", "nested": ""}},
		{`aws_instance: web: id: "i-1"`, map[string]string{"three": `"i-1"`, "second": `"i-1"`, "can": "true", "two": `"i-1"`, "object": `{"ami":"ami-1","id":"i-1"}`, "tag": `"web-i-1"`, "nested": `"i-1"`}},
		// No id at all: an attribute the resource does not have is an
		// error, in OpenTofu too.
		{`aws_instance: web: ami: "ami-1"`, map[string]string{"three": `"fallback"`, "second": `"fallback"`, "can": "false", "two": `"fallback"`, "object": `{"ami":"ami-1"}`, "nested": `""`}},
	} {
		v, err := r.LoadWith(nil, map[string][]byte{"engine.cue": []byte("package m\n\n" + tc.engine + "\n")})
		if err != nil {
			t.Fatalf("%s: %v", tc.engine, err)
		}
		for out, want := range tc.want {
			x := v.LookupPath(cue.ParsePath("output." + out))
			b, err := x.MarshalJSON()
			switch {
			case want == "" && err == nil:
				t.Errorf("%s: output %s is %s, want it unknown", tc.engine, out, b)
			case want != "" && err != nil:
				t.Errorf("%s: output %s: %v, want %s", tc.engine, out, err, want)
			case want != "" && string(b) != want:
				t.Errorf("%s: output %s is %s, want %s", tc.engine, out, b, want)
			}
		}
	}
}

// TestPendingOf checks the value a try is while an argument is not known
// yet: the type of a scalar kind that the last argument has and no other
// contradicts, _ where the kind is not known (OpenTofu's try of a value
// not known yet is not known, of no type) and for a map.
func TestPendingOf(t *testing.T) {
	tests := []struct {
		kinds []kind
		want  string
	}{
		{[]kind{kindUnknown, kindString}, "string"},
		{[]kind{kindUnknown, kindInt}, "number"},
		{[]kind{kindNumber, kindInt}, "number"},
		{[]kind{kindUnknown, kindUnknown, kindBool}, "bool"},
		{[]kind{kindNull, kindString}, "string"},
		{[]kind{kindString, kindBool}, "_"},
		{[]kind{kindList, kindString}, "_"},
		{[]kind{kindUnknown, kindNull}, "_"},
		{[]kind{kindString, kindUnknown}, "_"},
		{[]kind{kindUnknown, kindMap}, "_"},
	}
	for _, tt := range tests {
		got := ""
		if x := pendingOf(tt.kinds); x != nil {
			got = x.(*ast.Ident).Name
		}
		if got != tt.want {
			t.Errorf("pendingOf(%v) = %q, want %q", tt.kinds, got, tt.want)
		}
	}
}
