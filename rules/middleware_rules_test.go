package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tofucue/tofucue/config"
)

// TestMiddlewareLoadDiagnosticsClaimed checks that the loader's
// diagnostics about middleware blocks and lists are claimed by the
// middleware rules, each by one, so that they are not loading errors and
// the rules still run over the module.
func TestMiddlewareLoadDiagnosticsClaimed(t *testing.T) {
	dir := t.TempDir()
	src := `middleware "m" {
  middleware_key = "k"
  command        = ["x"]
  args           = "y"
  env            = ["z"]
  send_sensitive = "maybe"
  metadata_key   = var.k
  hooks {}
}

middleware "n" {}

terraform {
  middleware = ["middleware.m", var.list]
}

provider "aws" {
  middleware = var.list
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := config.Load(dir)
	if len(diags) < 10 {
		t.Fatalf("want at least 10 loader diagnostics, got %d: %s", len(diags), diags.Error())
	}
	if errs := LoadErrors(diags); errs.HasErrors() {
		t.Errorf("unclaimed loader errors: %s", errs.Error())
	}
	for _, d := range diags {
		n := 0
		for _, r := range []*Rule{MiddlewareBlock, MiddlewareReference} {
			if r.Claims(d) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: claimed by %d middleware rules", d.Error(), n)
		}
	}
}
