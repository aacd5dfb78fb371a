package golden_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/golden"
)

// TestOracleCallsEveryFunction checks that every function of OpenTofu's
// table (package functions) is called by some module of oracle/ or
// oracle/refusals/, so that scripts/oracle compares each with OpenTofu
// itself: a function added to the table without a case fails here.
func TestOracleCallsEveryFunction(t *testing.T) {
	called := map[string]bool{}
	for _, pattern := range []string{"oracle/*.txtar", "oracle/refusals/*.txtar"} {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			c, err := golden.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range c.Files {
				if !strings.HasSuffix(f.Name, ".tf") {
					continue
				}
				file, diags := hclsyntax.ParseConfig(f.Data, f.Name, hcl.InitialPos)
				if diags.HasErrors() {
					t.Fatalf("%s: %s: %s", path, f.Name, diags.Error())
				}
				_ = hclsyntax.VisitAll(file.Body.(*hclsyntax.Body), func(n hclsyntax.Node) hcl.Diagnostics {
					if call, ok := n.(*hclsyntax.FunctionCallExpr); ok {
						called[strings.TrimPrefix(call.Name, "core::")] = true
					}
					return nil
				})
			}
		}
	}
	for _, s := range functions.Specs() {
		if !called[s.Name] {
			t.Errorf("no module of oracle/ calls %s: add a case to an archive of its area", s.Name)
		}
	}
}
