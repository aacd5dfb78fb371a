package golden_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/golden"
	"github.com/tofucue/tofucue/internal/cli"
)

// TestPlan runs `hcl2cue plan` on the module of each case in plan/: the
// flags are the lines of the input file "args" (module paths in them are
// relative to the case directory, which is the current directory of the
// run), and the lines of "env" are set in the environment (TF_VAR_...).
// want/plan holds the exit status and the text plan, want/stderr the
// diagnostics; a case with a want/plan.json section is also planned with
// --json. In env lines, $EXAMPLES is the repository's examples directory
// (for the example middleware).
func TestPlan(t *testing.T) {
	examples, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	golden.Run(t, "plan", func(t *testing.T, c *golden.Case) map[string]string {
		dir := c.Materialize(t)
		t.Chdir(dir)
		var args []string
		if s, ok := c.Input("args"); ok {
			for line := range strings.Lines(s) {
				if line = strings.TrimSpace(line); line != "" {
					args = append(args, line)
				}
			}
		}
		if s, ok := c.Input("env"); ok {
			for line := range strings.Lines(s) {
				if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
					t.Setenv(k, strings.ReplaceAll(v, "$EXAMPLES", examples))
				}
			}
		}
		run := func(extra ...string) (string, string) {
			var stdout, stderr bytes.Buffer
			code := cli.Hcl2cue(append(append(append([]string{"plan"}, args...), extra...), "."), &stdout, &stderr)
			unexample := func(s string) string { return strings.ReplaceAll(s, examples, "$EXAMPLES") }
			return unexample(fmt.Sprintf("exit %d\n%s", code, stdout.String())), unexample(stderr.String())
		}
		out := map[string]string{}
		out["plan"], out["stderr"] = run()
		if out["stderr"] == "" {
			delete(out, "stderr")
		}
		if _, ok := c.Want("plan.json"); ok {
			out["plan.json"], _ = run("--json")
		}
		return out
	})
}
