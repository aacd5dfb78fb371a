//go:build unix

package functions

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The file functions read only regular files: a named pipe, which would
// block forever, or a directory is an error naming it (issue 35 item 5).
func TestFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		`file("pipe")`:             `"pipe" is a named pipe, not a regular file`,
		`filemd5("pipe")`:          `"pipe" is a named pipe, not a regular file`,
		`templatefile("pipe", {})`: `"pipe" is a named pipe, not a regular file`,
		`fileexists("pipe")`:       `"pipe" is a named pipe, not a regular file`,
		`file("dir")`:              `"dir" is a directory, not a regular file`,
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "test.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		_, diags = expr.Value(&hcl.EvalContext{Functions: Table(Options{BaseDir: dir})})
		if !strings.Contains(diags.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", src, diags, want)
		}
	}
	v, diags := eval(t, Options{BaseDir: dir}, `fileset(".", "*")`, nil)
	if diags.HasErrors() || v.LengthInt() != 0 {
		t.Errorf(`fileset(".", "*"): got %s, %v; want no files`, show(v), diags)
	}
}
