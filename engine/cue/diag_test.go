package cue

import (
	"strings"
	"testing"

	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"
)

// libraryError is an error of a library function, as CUE gives it for a
// builtin that fails inside tofu/core.cue: its position is the library's,
// and the module's line that called it is among its input positions.
type libraryError struct {
	pos    token.Pos
	inputs []token.Pos
}

func (e *libraryError) Position() token.Pos         { return e.pos }
func (e *libraryError) InputPositions() []token.Pos { return e.inputs }
func (e *libraryError) Error() string               { return "cannot use null as string" }
func (e *libraryError) Path() []string              { return []string{"x"} }
func (e *libraryError) Msg() (string, []any)        { return e.Error(), nil }

var _ errors.Error = (*libraryError)(nil)

// TestErrorDiagsAtModule checks that a diagnostic points at the module's
// own line where an error has a position there, not at the function
// library's, and at the library's where it has no other.
func TestErrorDiagsAtModule(t *testing.T) {
	pos := func(name string, line int) token.Pos {
		f := token.NewFile(name, -1, 1000)
		lines := make([]int, 0, line)
		for i := range line {
			lines = append(lines, i*10)
		}
		f.SetLines(lines)
		return f.Pos(lines[line-1], token.NoRelPos)
	}
	lib, mod := pos("/cue/tofu/core.cue", 25), pos("/cue/main.cue", 7)
	tests := []struct {
		name      string
		err       *libraryError
		file      string
		line      int
		alsoAtLib bool
	}{
		{name: "library and module", err: &libraryError{pos: lib, inputs: []token.Pos{mod}}, file: "/cue/main.cue", line: 7, alsoAtLib: true},
		{name: "library only", err: &libraryError{pos: lib}, file: "/cue/tofu/core.cue", line: 25},
		{name: "module only", err: &libraryError{pos: mod}, file: "/cue/main.cue", line: 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := errorDiags(tt.err, "Invalid value", nil)
			if len(diags) != 1 || diags[0].Subject == nil {
				t.Fatalf("diags = %v", diags)
			}
			if got := diags[0].Subject; got.Filename != tt.file || got.Start.Line != tt.line {
				t.Errorf("subject = %s:%d, want %s:%d", got.Filename, got.Start.Line, tt.file, tt.line)
			}
			if got := strings.Contains(diags[0].Detail, "also at /cue/tofu/core.cue:25:"); got != tt.alsoAtLib {
				t.Errorf("detail = %q: names the library's position %v, want %v", diags[0].Detail, got, tt.alsoAtLib)
			}
		})
	}
}
