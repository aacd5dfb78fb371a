package golden_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/golden"
	"github.com/tofucue/tofucue/internal/cli"
)

// TestVerify converts the HCL module of each case in verify/ with
// `hcl2cue convert -o cue .`, applies the case's edits to the CUE files,
// and runs `hcl2cue verify [ARGS] . cue`. An edit is a line of the input
// file "edits": FILE|OLD|NEW, replacing the one occurrence of OLD in the
// converted FILE with NEW (a deliberate change, to see verify report
// it). The flags are the lines of "args"; those that say where modules
// are (--module-source, --strict-modules, --allow-read) are the
// conversion's too. The input "root", where there is one, names the root
// module's directory within the case (an example beside its modules);
// otherwise it is the case's directory. want/verify holds the exit status
// and the report, want/stderr the diagnostics.
func TestVerify(t *testing.T) {
	golden.Run(t, "verify", func(t *testing.T, c *golden.Case) map[string]string {
		dir := c.Materialize(t)
		dir = c.RootDir(dir)
		t.Chdir(dir)
		var args, convertArgs []string
		if s, ok := c.Input("args"); ok {
			for line := range strings.Lines(s) {
				if line = strings.TrimSpace(line); line != "" {
					args = append(args, line)
					if strings.HasPrefix(line, "--module-source") || strings.HasPrefix(line, "--strict-modules") || strings.HasPrefix(line, "--allow-read") {
						convertArgs = append(convertArgs, line)
					}
				}
			}
		}
		var stdout, stderr bytes.Buffer
		if code := cli.Hcl2cue(append(append([]string{"convert", "-o", "cue"}, convertArgs...), "."), &stdout, &stderr); code != 0 {
			t.Fatalf("convert exited %d: %s", code, stderr.String())
		}
		if s, ok := c.Input("edits"); ok {
			for line := range strings.Lines(s) {
				line = strings.TrimRight(line, "\n")
				if line == "" {
					continue
				}
				parts := strings.SplitN(line, "|", 3)
				if len(parts) != 3 {
					t.Fatalf("edit %q: want FILE|OLD|NEW", line)
				}
				p := filepath.Join("cue", parts[0])
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if n := strings.Count(string(b), parts[1]); n != 1 {
					t.Fatalf("edit %q: OLD occurs %d times in %s:\n%s", line, n, parts[0], b)
				}
				if err := os.WriteFile(p, []byte(strings.Replace(string(b), parts[1], parts[2], 1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		stdout.Reset()
		stderr.Reset()
		code := cli.Hcl2cue(append(append([]string{"verify"}, args...), ".", "cue"), &stdout, &stderr)
		out := map[string]string{"verify": fmt.Sprintf("exit %d\n%s", code, stdout.String())}
		if stderr.Len() > 0 {
			out["stderr"] = stderr.String()
		}
		return out
	})
}
