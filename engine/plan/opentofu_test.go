package plan_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tofucue/tofucue/engine/plan"
	"github.com/tofucue/tofucue/internal/cli"
	"github.com/tofucue/tofucue/internal/opentofu"
)

// The modules in testdata/opentofu/ are planned by tofucue and compared
// with the JSON plan that OpenTofu itself wrote for them, kept beside each
// module as NAME.json (without "timestamp", which changes in every run).
// To regenerate those files with a real OpenTofu (built as .ci/run builds
// it):
//
//	TOFUCUE_OPENTOFU=~/.cache/tofucue/bin/tofu go test ./engine/plan -run TestOpenTofuLive -update-opentofu
//
// With TOFUCUE_OPENTOFU set and no flag, TestOpenTofuLive plans each module
// with that OpenTofu and compares with it directly.
var updateOpenTofu = flag.Bool("update-opentofu", false, "rewrite testdata/opentofu/*.json from the OpenTofu that TOFUCUE_OPENTOFU names")

// extensions are the top-level keys of tofucue's JSON plan that OpenTofu
// 1.12 does not write, each with its reason.
var extensions = map[string]string{
	"applied_values":          "the state after the simulated apply",
	"synthesized_variables":   "the variables whose values --synthesize made up",
	"notes":                   "remarks for the reader",
	"__middleware_metadata__": "what middleware returned",
	"applyable":               "Terraform's plan format has it; OpenTofu 1.12's does not",
	"complete":                "Terraform's plan format has it; OpenTofu 1.12's does not",
}

// absent are the top-level keys that OpenTofu writes and tofucue's plan
// never has, each with its reason.
var absent = map[string]string{
	"resource_drift": "there is no prior state, so nothing drifts",
	"checks":         "check results are reported as diagnostics, not in the plan",
}

// normalized are the top-level keys left out of the stored plans.
var normalized = map[string]string{
	"timestamp": "it changes in every run",
}

func fixtures(t *testing.T) []string {
	entries, err := os.ReadDir("testdata/opentofu")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join("testdata", "opentofu", e.Name()))
		}
	}
	if len(dirs) == 0 {
		t.Fatal("no modules in testdata/opentofu")
	}
	return dirs
}

// TestOpenTofuConfiguration compares tofucue's JSON plan of each module in
// testdata/opentofu/ with the one OpenTofu wrote: the configuration block
// field by field, the planned values of the resources attribute by
// attribute, the top-level keys and the types of their values,
// terraform_version, errored, applyable and complete.
func TestOpenTofuConfiguration(t *testing.T) {
	for _, dir := range fixtures(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want := readJSON(t, dir+".json")
			compareWithOpenTofu(t, ourPlan(t, dir), want)
		})
	}
}

// TestOpenTofuConfigurationCUE compares the plan of each module's CUE
// form (`hcl2cue plan --lang cue --source DIR`) with OpenTofu's, as
// TestOpenTofuConfiguration does: its configuration is that of the HCL
// module it was converted from.
func TestOpenTofuConfigurationCUE(t *testing.T) {
	for _, dir := range fixtures(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cueDir := t.TempDir()
			var stdout, stderr bytes.Buffer
			if code := cli.Hcl2cue([]string{"convert", "-o", cueDir, dir}, &stdout, &stderr); code != 0 {
				t.Fatalf("hcl2cue convert %s: exit %d\n%s", dir, code, stderr.String())
			}
			stdout.Reset()
			if code := cli.Hcl2cue([]string{"plan", "--json", "--lang", "cue", "--source", dir, cueDir}, &stdout, &stderr); code != 0 {
				t.Fatalf("hcl2cue plan --lang cue %s: exit %d\n%s", dir, code, stderr.String())
			}
			compareWithOpenTofu(t, decodeJSON(t, "hcl2cue plan --lang cue --json", stdout.Bytes()), readJSON(t, dir+".json"))
		})
	}
}

// TestOpenTofuLive plans each module of testdata/opentofu/ with the real
// OpenTofu that TOFUCUE_OPENTOFU names and compares as
// TestOpenTofuConfiguration does; with -update-opentofu it rewrites the
// stored plans instead.
func TestOpenTofuLive(t *testing.T) {
	tofu := os.Getenv("TOFUCUE_OPENTOFU")
	if tofu == "" {
		t.Skip("TOFUCUE_OPENTOFU names no OpenTofu binary")
	}
	cmd := exec.Command(tofu, "version", "-json")
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=/dev/null")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s version: %v", tofu, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil || strings.TrimSuffix(v.Version, "-dev") != plan.OpenTofuVersion {
		t.Fatalf("%s is OpenTofu %q, want %s (%v)", tofu, v.Version, plan.OpenTofuVersion, err)
	}
	for _, dir := range fixtures(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			theirs := tofuPlan(t, tofu, dir)
			if ts, ok := theirs["timestamp"].(string); !ok {
				t.Errorf("OpenTofu wrote no timestamp")
			} else if _, err := time.Parse(time.RFC3339, ts); err != nil {
				t.Errorf("OpenTofu's timestamp %q: %v", ts, err)
			}
			delete(theirs, "timestamp")
			if *updateOpenTofu {
				b, err := json.MarshalIndent(theirs, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(dir+".json", append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			compareWithOpenTofu(t, ourPlan(t, dir), theirs)
		})
	}
}

// tofuPlan runs tofu init, plan and show -json on a copy of dir, offline.
func tofuPlan(t *testing.T, tofu, dir string) map[string]any {
	r := opentofu.New(t, tofu, dir)
	r.Run("init", "-input=false", "-no-color")
	r.Run("plan", "-input=false", "-no-color", "-out=plan.bin")
	return decodeJSON(t, "tofu show -json", r.Run("show", "-json", "plan.bin"))
}

// ourPlan is `hcl2cue plan --json DIR`, decoded.
func ourPlan(t *testing.T, dir string) map[string]any {
	var stdout, stderr bytes.Buffer
	if code := cli.Hcl2cue([]string{"plan", "--json", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("hcl2cue plan --json %s: exit %d\n%s", dir, code, stderr.String())
	}
	return decodeJSON(t, "hcl2cue plan --json", stdout.Bytes())
}

func readJSON(t *testing.T, path string) map[string]any {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeJSON(t, path, b)
}

func decodeJSON(t *testing.T, what string, b []byte) map[string]any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return m
}

var versionPattern = regexp.MustCompile(`^\d+\.\d+\.\d+(-dev)?$`)

// compareWithOpenTofu reports every way ours differs from theirs, the plan
// OpenTofu wrote.
func compareWithOpenTofu(t *testing.T, ours, theirs map[string]any) {
	t.Helper()
	var diffs []string

	for _, k := range slices.Sorted(maps.Keys(theirs)) {
		if _, ok := ours[k]; !ok {
			if why, ok := absent[k]; ok {
				t.Logf("OpenTofu writes %q, tofucue does not: %s", k, why)
				continue
			}
			diffs = append(diffs, fmt.Sprintf("%s: OpenTofu writes it, tofucue does not", k))
			continue
		}
		if a, b := kind(ours[k]), kind(theirs[k]); a != b {
			diffs = append(diffs, fmt.Sprintf("%s: tofucue writes %s, OpenTofu %s", k, a, b))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(ours)) {
		if _, ok := theirs[k]; !ok {
			_, ext := extensions[k]
			_, norm := normalized[k]
			if !ext && !norm {
				diffs = append(diffs, fmt.Sprintf("%s: tofucue writes it, OpenTofu does not", k))
			}
		}
	}

	if v, _ := theirs["terraform_version"].(string); !versionPattern.MatchString(v) || strings.TrimSuffix(v, "-dev") != plan.OpenTofuVersion {
		diffs = append(diffs, fmt.Sprintf("terraform_version: OpenTofu wrote %q, want %s", v, plan.OpenTofuVersion))
	}
	if v := ours["terraform_version"]; v != plan.OpenTofuVersion {
		diffs = append(diffs, fmt.Sprintf("terraform_version: tofucue wrote %v, want %s", v, plan.OpenTofuVersion))
	}
	if ts, _ := ours["timestamp"].(string); ts == "" {
		diffs = append(diffs, "timestamp: tofucue wrote none")
	} else if _, err := time.Parse(time.RFC3339, ts); err != nil {
		diffs = append(diffs, fmt.Sprintf("timestamp: %v", err))
	}
	for _, k := range []string{"errored", "applyable", "complete"} {
		if _, ok := theirs[k]; ok && !reflect.DeepEqual(ours[k], theirs[k]) {
			diffs = append(diffs, fmt.Sprintf("%s: tofucue %v, OpenTofu %v", k, ours[k], theirs[k]))
		}
	}
	// OpenTofu writes no applyable or complete; ours must say what a
	// successful plan with changes is.
	changes, _ := theirs["resource_changes"].([]any)
	if ours["applyable"] != (len(changes) > 0) || ours["complete"] != true || ours["errored"] != false {
		diffs = append(diffs, fmt.Sprintf("applyable, complete, errored: tofucue %v, %v, %v; want %v, true, false", ours["applyable"], ours["complete"], ours["errored"], len(changes) > 0))
	}

	diffs = append(diffs, diffValues("configuration", ours["configuration"], theirs["configuration"])...)
	diffs = append(diffs, diffPlannedValues(ours, theirs)...)
	// OpenTofu sorts relevant_attributes by resource only, in no stable
	// order within one: compared as sets.
	diffs = append(diffs, diffValues("relevant_attributes", sortedAttrs(ours["relevant_attributes"]), sortedAttrs(theirs["relevant_attributes"]))...)
	for _, d := range diffs {
		t.Error(d)
	}
}

// diffPlannedValues compares the planned values of every resource that
// both plans have, attribute by attribute where both write one: what
// the module's expressions computed (OpenTofu leaves out what is not
// known, as tofucue does).
func diffPlannedValues(ours, theirs map[string]any) []string {
	byAddress := func(plan map[string]any) map[string]map[string]any {
		out := map[string]map[string]any{}
		pv, _ := plan["planned_values"].(map[string]any)
		root, _ := pv["root_module"].(map[string]any)
		rs, _ := root["resources"].([]any)
		for _, r := range rs {
			r, _ := r.(map[string]any)
			addr, _ := r["address"].(string)
			vals, _ := r["values"].(map[string]any)
			out[addr] = vals
		}
		return out
	}
	o, th := byAddress(ours), byAddress(theirs)
	var diffs []string
	for _, addr := range slices.Sorted(maps.Keys(th)) {
		ov, ok := o[addr]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("planned_values: %s: missing in tofucue", addr))
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(th[addr])) {
			if v, ok := ov[k]; ok {
				diffs = append(diffs, diffValues("planned_values."+addr+"."+k, v, th[addr][k])...)
			}
		}
	}
	return diffs
}

// kind is the JSON kind of a decoded value.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a bool"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// diffValues lists the differences between two decoded JSON values, each
// with its path; array elements that have an "address" are named by it.
func diffValues(path string, ours, theirs any) []string {
	switch th := theirs.(type) {
	case map[string]any:
		o, ok := ours.(map[string]any)
		if !ok {
			break
		}
		var out []string
		for _, k := range slices.Sorted(maps.Keys(th)) {
			if _, ok := o[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: missing in tofucue; OpenTofu has %s", path, k, compact(th[k])))
				continue
			}
			out = append(out, diffValues(path+"."+k, o[k], th[k])...)
		}
		for _, k := range slices.Sorted(maps.Keys(o)) {
			if _, ok := th[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: only in tofucue: %s", path, k, compact(o[k])))
			}
		}
		return out
	case []any:
		o, ok := ours.([]any)
		if !ok || len(o) != len(th) {
			break
		}
		var out []string
		for i := range th {
			label := fmt.Sprint(i)
			if m, ok := th[i].(map[string]any); ok {
				if a, ok := m["address"].(string); ok {
					label = a
				}
			}
			out = append(out, diffValues(fmt.Sprintf("%s[%s]", path, label), o[i], th[i])...)
		}
		return out
	}
	if reflect.DeepEqual(ours, theirs) {
		return nil
	}
	return []string{fmt.Sprintf("%s:\n\ttofucue:  %s\n\tOpenTofu: %s", path, compact(ours), compact(theirs))}
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// sortedAttrs orders relevant_attributes entries by resource, then
// attribute path.
func sortedAttrs(v any) any {
	l, ok := v.([]any)
	if !ok {
		return v
	}
	l = slices.Clone(l)
	slices.SortFunc(l, func(a, b any) int { return strings.Compare(compact(a), compact(b)) })
	return l
}
