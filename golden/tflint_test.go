package golden_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tofucue/tofucue/golden"
	"github.com/tofucue/tofucue/internal/cli"
)

// TestTFLintConfig runs tofulint over each case in tflint/, a module
// configured by a .tflint.hcl: want/lint is the compact output, exit status
// and stderr (the notices about the file); then tofulint --init writes the
// equivalent .tofulint.hcl (want/init: its stderr and status;
// want/.tofulint.hcl: the file), and linting again with it must give the
// same findings.
func TestTFLintConfig(t *testing.T) {
	golden.Run(t, "tflint", func(t *testing.T, c *golden.Case) map[string]string {
		dir := c.Materialize(t)
		lint := func() (string, string) {
			var stdout, stderr bytes.Buffer
			code := cli.Tofulint([]string{"--format", "compact", "--chdir", dir}, &stdout, &stderr)
			return stdout.String(), fmt.Sprintf("exit %d\n%s%s", code, stdout.String(), stderr.String())
		}
		findings, out := lint()
		var stderr bytes.Buffer
		code := cli.Tofulint([]string{"--init", "--chdir", dir}, &bytes.Buffer{}, &stderr)
		outputs := map[string]string{"lint": out, "init": fmt.Sprintf("exit %d\n%s", code, stderr.String())}
		if written, err := os.ReadFile(filepath.Join(dir, ".tofulint.hcl")); err == nil {
			outputs[".tofulint.hcl"] = string(written)
			if again, _ := lint(); again != findings {
				t.Errorf("with the written .tofulint.hcl:\n%s\nwith .tflint.hcl:\n%s", again, findings)
			}
		}
		return outputs
	})
}
