// Package opentofu runs a real OpenTofu for the tests that compare with
// it: offline (no CLI configuration, no checkpoint), in a copy of a
// module, which only terraform_data and outputs let plan and apply
// without a provider download.
package opentofu

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Runner runs OpenTofu commands in a temporary copy of a module.
type Runner struct {
	t    testing.TB
	tofu string
	// Dir is the copy's directory.
	Dir string
}

// New copies the module in dir into a temporary directory, removed when
// the test ends, for the OpenTofu binary tofu to run in.
func New(t testing.TB, tofu, dir string) *Runner {
	t.Helper()
	work := t.TempDir()
	if err := os.CopyFS(work, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return &Runner{t: t, tofu: tofu, Dir: work}
}

// Run runs `tofu ARGS...` and returns its standard output; a failure
// ends the test with OpenTofu's output.
func (r *Runner) Run(args ...string) []byte {
	r.t.Helper()
	out, stderr, err := r.Try(args...)
	if err != nil {
		r.t.Fatalf("tofu %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
	}
	return out
}

// Try runs `tofu ARGS...` and returns its standard output and standard
// error, and the error of a run that fails, for a run that is meant to
// fail.
func (r *Runner) Try(args ...string) (stdout, stderr []byte, err error) {
	r.t.Helper()
	cmd := exec.Command(r.tofu, args...)
	cmd.Dir = r.Dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=/dev/null", "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	out, err := cmd.Output()
	return out, errBuf.Bytes(), err
}
