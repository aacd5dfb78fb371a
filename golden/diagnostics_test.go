package golden

import (
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func TestDiagnostics(t *testing.T) {
	dir := filepath.Join("tmp", "mod")
	rng := func(file string, l1, c1, l2, c2 int) *hcl.Range {
		return &hcl.Range{
			Filename: filepath.Join(dir, file),
			Start:    hcl.Pos{Line: l1, Column: c1},
			End:      hcl.Pos{Line: l2, Column: c2},
		}
	}
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Later line", Detail: "In b.", Subject: rng("b.tf", 3, 1, 3, 5)},
		{Severity: hcl.DiagWarning, Summary: "A warning", Detail: "Two\nlines.", Subject: rng("a.tf", 2, 1, 2, 9)},
		{Severity: hcl.DiagError, Summary: "Earlier line", Subject: rng("b.tf", 1, 7, 1, 12)},
		{Severity: hcl.DiagError, Summary: "No range", Detail: "Anywhere."},
		{Severity: hcl.DiagError, Summary: "Outside", Subject: &hcl.Range{Filename: "elsewhere.tf"}},
	}
	want := "-: error: No range; Anywhere.\n" +
		"a.tf:2,1-2,9: warning: A warning; Two\\nlines.\n" +
		"b.tf:1,7-1,12: error: Earlier line\n" +
		"b.tf:3,1-3,5: error: Later line; In b.\n" +
		"elsewhere.tf:0,0-0,0: error: Outside\n"
	if got := Diagnostics(dir, diags); got != want {
		t.Errorf("Diagnostics:\n%s", Diff(want, got))
	}
	if got := Diagnostics(dir, nil); got != "(no diagnostics)\n" {
		t.Errorf("Diagnostics(nil) = %q", got)
	}
}
