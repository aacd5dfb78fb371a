package convert

import (
	"strings"
	"testing"
)

// TestPostconditionSelf checks that a postcondition referring to self is
// checked against the instance's attributes, those the engine fills in
// too: it holds for one instance and fails for the other.
func TestPostconditionSelf(t *testing.T) {
	r, _ := convertSource(t, map[string]string{"main.tf": `
data "http" "this" {
  for_each = { a = "https://a.example", b = "https://b.example" }
  url      = each.value
  lifecycle {
    postcondition {
      condition     = strcontains(self.response_body, "ok")
      error_message = "${each.key} failed."
    }
  }
}
`})
	if r.Diagnostics.HasErrors() {
		t.Fatal(r.Diagnostics.Error())
	}
	engine := func(a, b string) []byte {
		return []byte("package m\n\ndata: http: this: a: response_body: \"" + a + "\"\ndata: http: this: b: response_body: \"" + b + "\"\n")
	}
	if _, err := r.LoadWith(nil, map[string][]byte{"engine.cue": engine("ok", "ok too")}); err != nil {
		t.Errorf("both hold: %v", err)
	}
	_, err := r.LoadWith(nil, map[string][]byte{"engine.cue": engine("ok", "down")})
	if err == nil || !strings.Contains(err.Error(), `data.http.this.b._postcondition."0".condition`) {
		t.Errorf("b fails: got %v", err)
	}
}
