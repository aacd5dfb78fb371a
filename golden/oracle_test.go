package golden_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/convert"
	"github.com/tofucue/tofucue/golden"
	"github.com/tofucue/tofucue/internal/cli"
	"github.com/tofucue/tofucue/internal/opentofu"
)

var oracleLive = flag.Bool("oracle-live", false, "plan and apply each oracle case with the OpenTofu that TOFUCUE_OPENTOFU names and compare its values with want/opentofu (with -update, record them)")

// TestOracle compares both of our sides with OpenTofu on the modules of
// oracle/. Each archive is a module of cases: every output, and the input
// of every terraform_data resource, is a case, valued when planned and
// (for outputs) after apply. want/opentofu holds OpenTofu's values,
// recorded by scripts/oracle from a real OpenTofu (-oracle-live, which
// also checks that the recording is still OpenTofu's); the test plans the
// module with the HCL planner and with its CUE form and compares each
// value with OpenTofu's. A disagreement must be listed, with its reason,
// in the archive's input file "divergences" (lines "hcl NAME: reason" or
// "cue NAME: reason"), and a listed one must still disagree. A case the
// converter does not convert is left out of the CUE side and listed as
// "cue NAME: not converted: reason". want/summary counts the cases and
// the agreement of each side.
func TestOracle(t *testing.T) {
	golden.Run(t, "oracle", func(t *testing.T, c *golden.Case) map[string]string {
		dir := c.Materialize(t)
		recorded := opentofuAnswers(t, c, func(tofu string) string { return formatValues(tofuValues(t, tofu, dir)) })
		theirs := parseValues(t, recorded)
		found := map[string]string{}
		hclValues := planValues(t, dir, "hcl", nil)
		notConverted := unconvertedCases(t, dir)
		for name, why := range notConverted {
			found["cue "+name] = "not converted: " + why
		}
		cueValues := planValues(t, dir, "cue", notConverted)
		for _, name := range slices.Sorted(maps.Keys(theirs)) {
			for _, side := range []struct {
				name   string
				values map[string]string
			}{{"hcl", hclValues}, {"cue", cueValues}} {
				key := side.name + " " + name
				if _, skip := found[key]; skip {
					continue
				}
				got, ok := side.values[name]
				switch {
				case !ok:
					found[key] = "no value"
				case got != theirs[name]:
					found[key] = fmt.Sprintf("%s, OpenTofu %s", got, theirs[name])
				}
			}
		}
		// A case is an expression (an output, a terraform_data input),
		// with one value when planned and, for an output, one after
		// apply: it agrees when every value does.
		summary := map[string]int{}
		cases := map[string]bool{}
		for name := range theirs {
			cases[caseOf(name)] = true
		}
		summary["cases"] = len(cases)
		for _, side := range []string{"hcl", "cue"} {
			differs, unconverted := map[string]bool{}, map[string]bool{}
			for key, why := range found {
				if s, name, _ := strings.Cut(key, " "); s == side {
					if strings.HasPrefix(why, "not converted: ") {
						unconverted[caseOf(name)] = true
					} else {
						differs[caseOf(name)] = true
					}
				}
			}
			summary[side+" differs"] = len(differs)
			summary[side+" not converted"] = len(unconverted)
			summary[side+" agrees"] = len(cases) - len(differs) - len(unconverted)
		}
		checkDivergences(t, c, found, nil)
		var sum strings.Builder
		for _, k := range []string{"cases", "hcl agrees", "hcl differs", "cue agrees", "cue differs", "cue not converted"} {
			fmt.Fprintf(&sum, "%s: %d\n", k, summary[k])
		}
		t.Logf("%s: %d cases; HCL side agrees on %d; CUE side agrees on %d, differs on %d, does not convert %d",
			c.Name, summary["cases"], summary["hcl agrees"], summary["cue agrees"], summary["cue differs"], summary["cue not converted"])
		return map[string]string{"opentofu": recorded, "summary": sum.String()}
	})
}

// opentofuAnswers is what OpenTofu makes of an oracle archive: with
// -oracle-live, what live gives from the OpenTofu that TOFUCUE_OPENTOFU
// names; otherwise the archive's want/opentofu, recorded earlier.
func opentofuAnswers(t *testing.T, c *golden.Case, live func(tofu string) string) string {
	t.Helper()
	if *oracleLive {
		tofu := os.Getenv("TOFUCUE_OPENTOFU")
		if tofu == "" {
			t.Fatal("-oracle-live needs TOFUCUE_OPENTOFU, the OpenTofu binary")
		}
		return live(tofu)
	}
	recorded, ok := c.Want("opentofu")
	if !ok {
		t.Fatalf("%s has no want/opentofu: record it with scripts/oracle", c.Path)
	}
	return recorded
}

// checkDivergences checks the differences found, by key ("hcl NAME" or
// "cue NAME"), against the archive's input file "divergences" (lines
// "hcl NAME: reason" or "cue NAME: reason", # comments): each difference
// must be listed there, and each listed one must still be found. explain
// adds to a difference's message.
func checkDivergences(t *testing.T, c *golden.Case, found map[string]string, explain func(key string) string) {
	t.Helper()
	documented := map[string]string{}
	if s, ok := c.Input("divergences"); ok {
		for line := range strings.Lines(s) {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			key, reason, ok := strings.Cut(line, ": ")
			if !ok || (!strings.HasPrefix(key, "hcl ") && !strings.HasPrefix(key, "cue ")) {
				t.Fatalf("divergence %q: want \"hcl NAME: reason\" or \"cue NAME: reason\"", line)
			}
			documented[key] = reason
		}
	}
	for _, key := range slices.Sorted(maps.Keys(found)) {
		if _, ok := documented[key]; !ok {
			more := ""
			if explain != nil {
				more = explain(key)
			}
			t.Errorf("%s: %s: %s%s; not in the archive's divergences", c.Path, key, found[key], more)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(documented)) {
		if _, ok := found[key]; !ok {
			t.Errorf("%s: divergence %q no longer diverges: remove it", c.Path, key)
		}
	}
}

// unknownValue stands for a value not known until apply.
const unknownValue = "(known after apply)"

// The names of a case's values: output.NAME planned and after apply, and
// terraform_data.NAME[KEY].input planned.
const (
	plannedSuffix = " (planned)"
	appliedSuffix = " (applied)"
)

// caseOf is the case a value belongs to: its name without the suffix
// that says when it was taken.
func caseOf(name string) string {
	return strings.TrimSuffix(strings.TrimSuffix(name, plannedSuffix), appliedSuffix)
}

// formatValues writes values one per line, "NAME = VALUE", sorted.
func formatValues(values map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(values)) {
		fmt.Fprintf(&b, "%s = %s\n", k, values[k])
	}
	return b.String()
}

func parseValues(t *testing.T, s string) map[string]string {
	out := map[string]string{}
	for line := range strings.Lines(s) {
		line = strings.TrimRight(line, "\n")
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, " = ")
		if !ok {
			t.Fatalf("want/opentofu: line %q is not NAME = VALUE", line)
		}
		out[k] = v
	}
	return out
}

// tofuValues plans and applies the module in dir with OpenTofu, with
// local state, and returns the cases' values.
func tofuValues(t *testing.T, tofu, dir string) map[string]string {
	t.Helper()
	r := opentofu.New(t, tofu, dir)
	run := r.Run
	run("init", "-input=false", "-no-color")
	run("plan", "-input=false", "-no-color", "-out=plan.bin")
	values := plannedValues(t, run("show", "-json", "plan.bin"))
	run("apply", "-input=false", "-no-color", "-auto-approve", "plan.bin")
	var outs map[string]struct {
		Value json.RawMessage `json:"value"`
	}
	decode(t, run("output", "-json"), &outs)
	for name, o := range outs {
		values["output."+name+appliedSuffix] = canonical(t, o.Value)
	}
	return values
}

// planValues plans the module in dir with one of our sides (for "cue",
// its CUE form, without the outputs of skip) and returns the cases'
// values: those of `hcl2cue plan --json`, with its applied_values. When
// the whole module does not plan, each output is planned alone (with
// the rest of the module), so that one case does not hide the others.
func planValues(t *testing.T, dir, side string, skip map[string]string) map[string]string {
	t.Helper()
	keep := func(name string) bool {
		_, skipped := skip["output."+name+plannedSuffix]
		return !skipped
	}
	if values, ok := planSide(t, dir, side, keep); ok {
		return values
	}
	values := map[string]string{}
	for name := range outputBlocks(t, dir) {
		if !keep(name) {
			continue
		}
		one, ok := planSide(t, dir, side, func(n string) bool { return n == name })
		if !ok {
			continue
		}
		for k, v := range one {
			// Every run plans the resources; an output is its own
			// run's.
			if _, seen := values[k]; !seen || strings.HasPrefix(k, "output.") {
				values[k] = v
			}
		}
	}
	return values
}

// planSide plans the module in dir, with only the outputs that keep
// takes, with one of our sides; ok is false when it does not plan.
func planSide(t *testing.T, dir, side string, keep func(output string) bool) (map[string]string, bool) {
	t.Helper()
	src := withOutputs(t, dir, keep)
	var stdout, stderr bytes.Buffer
	args := []string{"plan", "--json", src}
	if side == "cue" {
		cueDir := t.TempDir()
		if code := cli.Hcl2cue([]string{"convert", "-o", cueDir, src}, &stdout, &stderr); code != 0 {
			t.Logf("hcl2cue convert: exit %d\n%s", code, stderr.String())
			return nil, false
		}
		stdout.Reset()
		args = []string{"plan", "--json", "--lang", "cue", "--source", src, cueDir}
	}
	if code := cli.Hcl2cue(args, &stdout, &stderr); code != 0 {
		return nil, false
	}
	values := plannedValues(t, stdout.Bytes())
	var applied struct {
		Applied struct {
			Outputs map[string]struct {
				Value json.RawMessage `json:"value"`
			} `json:"outputs"`
		} `json:"applied_values"`
	}
	decode(t, stdout.Bytes(), &applied)
	for name, o := range applied.Applied.Outputs {
		values["output."+name+appliedSuffix] = canonical(t, o.Value)
	}
	return values, true
}

// plannedValues reads a JSON plan's planned outputs and terraform_data
// inputs, with unknown parts as unknownValue.
func plannedValues(t *testing.T, b []byte) map[string]string {
	t.Helper()
	var p struct {
		Outputs map[string]struct {
			After        json.RawMessage `json:"after"`
			AfterUnknown json.RawMessage `json:"after_unknown"`
		} `json:"output_changes"`
		Resources []struct {
			Address string `json:"address"`
			Type    string `json:"type"`
			Change  struct {
				After        map[string]json.RawMessage `json:"after"`
				AfterUnknown map[string]json.RawMessage `json:"after_unknown"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	decode(t, b, &p)
	values := map[string]string{}
	for name, o := range p.Outputs {
		values["output."+name+plannedSuffix] = withUnknown(t, o.After, o.AfterUnknown)
	}
	for _, r := range p.Resources {
		if r.Type == "terraform_data" {
			values[r.Address+".input"+plannedSuffix] = withUnknown(t, r.Change.After["input"], r.Change.AfterUnknown["input"])
		}
	}
	return values
}

// withUnknown is the canonical JSON of a value with the parts that
// unknown marks (after_unknown) written as unknownValue.
func withUnknown(t *testing.T, value, unknown json.RawMessage) string {
	var v, u any
	if len(value) > 0 {
		v = decodeAny(t, value)
	}
	if len(unknown) > 0 {
		u = decodeAny(t, unknown)
	}
	var mark func(v, u any) any
	mark = func(v, u any) any {
		switch u := u.(type) {
		case bool:
			if u {
				return unknownValue
			}
		case map[string]any:
			m, _ := v.(map[string]any)
			out := map[string]any{}
			for k, x := range m {
				out[k] = x
			}
			for k, x := range u {
				out[k] = mark(out[k], x)
			}
			return out
		case []any:
			l, _ := v.([]any)
			out := slices.Clone(l)
			for i, x := range u {
				if i < len(out) {
					out[i] = mark(out[i], x)
				} else {
					out = append(out, mark(nil, x))
				}
			}
			return out
		}
		return v
	}
	return canonicalAny(mark(v, u))
}

func decode(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decoding %.200s: %v", b, err)
	}
}

func decodeAny(t *testing.T, b []byte) any {
	var v any
	decode(t, b, &v)
	return v
}

// canonical is the canonical JSON of a value: keys sorted, numbers in
// their shortest exact form; an absent value (unknown) is unknownValue.
func canonical(t *testing.T, b json.RawMessage) string {
	if len(b) == 0 {
		return unknownValue
	}
	return canonicalAny(decodeAny(t, b))
}

func canonicalAny(v any) string {
	var norm func(v any) any
	norm = func(v any) any {
		switch v := v.(type) {
		case json.Number:
			f, _, err := big.ParseFloat(string(v), 10, 512, big.ToNearestEven)
			if err != nil {
				return v
			}
			return json.Number(f.Text('g', -1))
		case map[string]any:
			out := map[string]any{}
			for k, x := range v {
				out[k] = norm(x)
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, x := range v {
				out[i] = norm(x)
			}
			return out
		}
		return v
	}
	if s, ok := v.(string); ok && s == unknownValue {
		return s
	}
	b, err := json.Marshal(norm(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.ReplaceAll(string(b), `"`+unknownValue+`"`, unknownValue)
}

// unconvertedCases converts the module in dir and returns the outputs
// that hold a "not converted" report, with its detail.
func unconvertedCases(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree, diags := config.LoadTree(dir, nil)
	if diags.HasErrors() {
		t.Fatalf("loading %s: %s", dir, diags.Error())
	}
	r := convert.Tree(tree, convert.Options{})
	blocks := outputBlocks(t, dir)
	out := map[string]string{}
	for _, d := range r.Diagnostics {
		if d.Severity != hcl.DiagError {
			continue
		}
		if d.Subject == nil {
			t.Fatalf("convert reports %q without a range", d.Summary)
		}
		name := ""
		for n, rng := range blocks {
			if filepath.Base(d.Subject.Filename) == "main.tf" && d.Subject.Start.Byte >= rng.Start.Byte && d.Subject.End.Byte <= rng.End.Byte {
				name = n
			}
		}
		if name == "" {
			t.Fatalf("convert reports %q (%s) at %s, outside an output of main.tf: only outputs may be left unconverted", d.Summary, d.Detail, d.Subject)
		}
		for _, k := range []string{plannedSuffix, appliedSuffix} {
			out["output."+name+k] = d.Summary + ": " + d.Detail
		}
	}
	return out
}

// outputBlocks are the ranges of the output blocks of main.tf in dir.
func outputBlocks(t *testing.T, dir string) map[string]hcl.Range {
	src, err := os.ReadFile(filepath.Join(dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	f, diags := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	out := map[string]hcl.Range{}
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		if b.Type == "output" && len(b.Labels) == 1 {
			out[b.Labels[0]] = b.Range()
		}
	}
	return out
}

// withOutputs copies the module in dir with only the outputs that keep
// takes and returns the copy's directory.
func withOutputs(t *testing.T, dir string, keep func(output string) bool) string {
	t.Helper()
	out := t.TempDir()
	if err := os.CopyFS(out, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(out, "main.tf")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	f, diags := hclwrite.ParseConfig(src, "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, b := range f.Body().Blocks() {
		if b.Type() == "output" && len(b.Labels()) == 1 && !keep(b.Labels()[0]) {
			f.Body().RemoveBlock(b)
		}
	}
	if err := os.WriteFile(p, f.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}
