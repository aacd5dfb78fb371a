package plan

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func TestUniqueDiagnostics(t *testing.T) {
	at := func(line, col int) *hcl.Range {
		return &hcl.Range{Filename: "m.cue", Start: hcl.Pos{Line: line, Column: col}, End: hcl.Pos{Line: line, Column: col + 1}}
	}
	diag := func(summary, detail string, r *hcl.Range) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: r}
	}
	const oob = "x.y: index out of range [0] with length 0."
	in := hcl.Diagnostics{
		diag("Invalid nested block", oob, at(3, 5)),
		diag("Invalid value", oob, at(3, 9)),     // the same error, met in the argument
		diag("Invalid value", oob, at(4, 5)),     // another line
		diag("Invalid value", "other", at(3, 5)), // another error
		diag("No schema", "", at(7, 1)),          // no detail: the summary tells
		diag("No schema", "", at(7, 2)),          // the same
		diag("Missing argument", "", at(7, 1)),   // another
		diag("Invalid value", oob, nil),          // no subject
		diag("Invalid value", oob, nil),          // the same
	}
	got := UniqueDiagnostics(in)
	want := []int{0, 2, 3, 4, 6, 7}
	if len(got) != len(want) {
		t.Fatalf("kept %d diagnostics, want %d: %v", len(got), len(want), got)
	}
	for i, j := range want {
		if got[i] != in[j] {
			t.Errorf("diagnostic %d is %v, want %v", i, got[i], in[j])
		}
	}
}
