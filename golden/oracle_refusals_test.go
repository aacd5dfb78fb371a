package golden_test

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/convert"
	"github.com/tofucue/tofucue/golden"
	"github.com/tofucue/tofucue/internal/cli"
	"github.com/tofucue/tofucue/internal/opentofu"
)

// TestOracleRefusals compares both of our sides with OpenTofu on what
// OpenTofu refuses: each output of an archive of oracle/refusals is a
// case, planned alone (the module with only that output), that OpenTofu's
// plan fails on. want/opentofu holds, for each case, the summary of
// OpenTofu's first error, recorded by scripts/oracle (-oracle-live); the
// test plans each case with the HCL planner, and converts it and plans
// its CUE form, and each side agrees when its plan fails too (a case the
// converter leaves out is counted apart). A side that plans the case is a
// difference, to be listed in the archive's "divergences" with its
// reason, as in TestOracle. want/summary counts the cases and the
// agreement of each side.
func TestOracleRefusals(t *testing.T) {
	golden.Run(t, "oracle/refusals", func(t *testing.T, c *golden.Case) map[string]string {
		dir := c.Materialize(t)
		names := slices.Sorted(maps.Keys(outputBlocks(t, dir)))
		recorded := opentofuAnswers(t, c, func(tofu string) string {
			var b strings.Builder
			for _, name := range names {
				fmt.Fprintf(&b, "output.%s = %s\n", name, tofuRefusal(t, tofu, withOutputs(t, dir, func(n string) bool { return n == name })))
			}
			return b.String()
		})
		theirs := parseValues(t, recorded)
		found := map[string]string{}
		notConverted := 0
		for _, name := range names {
			key := "output." + name
			why, ok := theirs[key]
			if !ok {
				t.Errorf("%s: want/opentofu has no %s: record it with scripts/oracle", c.Path, key)
				continue
			}
			if !strings.HasPrefix(why, "error: ") {
				t.Errorf("%s: OpenTofu plans %s (%s): a refusal case must fail", c.Path, key, why)
				continue
			}
			src := withOutputs(t, dir, func(n string) bool { return n == name })
			if v, ok := planSide(t, src, "hcl", func(string) bool { return true }); ok {
				found["hcl "+key] = "plans " + v["output."+name+plannedSuffix]
			}
			switch v := cueSide(t, src, name); {
			case strings.HasPrefix(v, "plans"):
				found["cue "+key] = v
			case strings.HasPrefix(v, "not converted"):
				found["cue "+key] = v
				notConverted++
			}
		}
		checkDivergences(t, c, found, func(key string) string {
			_, name, _ := strings.Cut(key, " ")
			return fmt.Sprintf(", where OpenTofu refuses it (%s)", strings.TrimPrefix(theirs[name], "error: "))
		})
		count := func(side string) int {
			n := 0
			for key := range found {
				if strings.HasPrefix(key, side+" ") {
					n++
				}
			}
			return n
		}
		hclAccepts, cueAccepts := count("hcl"), count("cue")-notConverted
		sum := fmt.Sprintf("cases: %d\nhcl refuses: %d\nhcl accepts: %d\ncue refuses: %d\ncue accepts: %d\ncue not converted: %d\n",
			len(names), len(names)-hclAccepts, hclAccepts, len(names)-cueAccepts-notConverted, cueAccepts, notConverted)
		t.Logf("%s: %d cases OpenTofu refuses; the HCL side refuses %d, the CUE side %d", c.Name, len(names), len(names)-hclAccepts, len(names)-cueAccepts-notConverted)
		return map[string]string{"opentofu": recorded, "summary": sum}
	})
}

// errorLine is the summary of an error in OpenTofu's plain output.
var errorLine = regexp.MustCompile(`(?m)^[│ ]*Error: (.+)$`)

// tofuRefusal plans the module in dir with OpenTofu and returns "error: "
// and the summary of its first error, or "plans" when it plans.
func tofuRefusal(t *testing.T, tofu, dir string) string {
	t.Helper()
	r := opentofu.New(t, tofu, dir)
	r.Run("init", "-input=false", "-no-color")
	stdout, stderr, err := r.Try("plan", "-input=false", "-no-color")
	if err == nil {
		return "plans"
	}
	m := errorLine.FindSubmatch(append(stderr, stdout...))
	if m == nil {
		t.Fatalf("tofu plan failed without an error line: %v\n%s%s", err, stdout, stderr)
	}
	return "error: " + strings.TrimSpace(string(m[1]))
}

// cueSide converts the module in src, whose one output is name, and
// plans its CUE form. It returns "refuses" when the CUE form does not
// plan, "not converted: ..." when the conversion leaves the case out, and
// "plans VALUE" otherwise. The conversion is written as the converter
// makes it, without the convert command's check, which plans the HCL
// side and would refuse for it.
func cueSide(t *testing.T, src, name string) string {
	t.Helper()
	tree, diags := config.LoadTree(src, nil)
	if diags.HasErrors() {
		t.Fatalf("loading %s: %s", src, diags.Error())
	}
	rng := outputBlocks(t, src)[name]
	r := convert.Tree(tree, convert.Options{})
	for _, d := range r.Diagnostics {
		if d.Severity == hcl.DiagError && d.Subject != nil && d.Subject.Start.Byte >= rng.Start.Byte && d.Subject.End.Byte <= rng.End.Byte {
			return "not converted: " + d.Summary
		}
	}
	if !r.Complete() {
		t.Fatalf("%s: not converted: %s", name, r.Diagnostics.Error())
	}
	cueDir := filepath.Join(t.TempDir(), "cue")
	if err := r.Write(cueDir); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := cli.Hcl2cue([]string{"plan", "--json", "--lang", "cue", "--source", src, cueDir}, &stdout, &stderr); code != 0 {
		if code != cli.ExitFindings {
			t.Errorf("%s: plan --lang cue: exit %d, not a plan that fails:\n%s", name, code, stderr.String())
		}
		return "refuses"
	}
	return "plans " + plannedValues(t, stdout.Bytes())["output."+name+plannedSuffix]
}
