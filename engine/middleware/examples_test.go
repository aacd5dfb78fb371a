package middleware

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"golang.org/x/tools/txtar"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/functions"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/examples/*.txtar from the Go example's output")

// exampleDir is the examples' directory, from this package's.
const exampleDir = "../../examples/middleware"

var (
	buildOnce sync.Once
	goExample string
	buildErr  error
)

// goExampleBinary builds examples/middleware/naming-cost once per run.
func goExampleBinary(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "naming-cost")
		if err != nil {
			buildErr = err
			return
		}
		goExample = filepath.Join(dir, "naming-cost")
		cmd := exec.Command("go", "build", "-o", goExample, "./"+filepath.Join(exampleDir, "naming-cost"))
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return goExample
}

// exampleCommand is how each example runs: its command and arguments.
func exampleCommand(tb testing.TB, lang string) (string, []string) {
	tb.Helper()
	switch lang {
	case "go":
		return goExampleBinary(tb), nil
	case "python":
		py, err := exec.LookPath("python3")
		if err != nil {
			tb.Skip("python3 is not installed")
		}
		script, err := filepath.Abs(filepath.Join(exampleDir, "naming-cost-python", "naming_cost.py"))
		if err != nil {
			tb.Fatal(err)
		}
		return py, []string{script}
	}
	tb.Fatalf("no example in %s", lang)
	return "", nil
}

// exampleContext gives var.middleware = {command, args} for the cases'
// middleware blocks.
func exampleContext(command string, args []string) *hcl.EvalContext {
	argVals := make([]cty.Value, len(args))
	for i, a := range args {
		argVals[i] = cty.StringVal(a)
	}
	argList := cty.ListValEmpty(cty.String)
	if len(args) > 0 {
		argList = cty.ListVal(argVals)
	}
	return &hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{
			"middleware": cty.ObjectVal(map[string]cty.Value{
				"command": cty.StringVal(command),
				"args":    argList,
			}),
		}),
	}}
}

// TestExamples runs the cases in testdata/examples against both example
// middlewares, as real processes. A case is a module (its .tf files), a
// "calls" file and the "want" output. Each line of calls is a hook call:
//
//	HOOK PROVIDER_KEY ADDRESS ACTION {"before": ..., "after": ..., "config": ...}
//	STAGE_HOOK {params}
//
// The output lists, for each call, its diagnostics and the metadata
// records returned; the start's diagnostics come first. Both examples
// must give the same output.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("testdata/examples/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, lang := range []string{"go", "python"} {
				t.Run(lang, func(t *testing.T) {
					got := runExampleCase(t, ar, lang)
					want := section(ar, "want")
					if got == want {
						return
					}
					if *update && lang == "go" {
						setSection(ar, "want", got)
						if err := os.WriteFile(file, txtar.Format(ar), 0o600); err != nil {
							t.Fatal(err)
						}
						return
					}
					t.Errorf("output differs.\ngot:\n%s\nwant:\n%s", got, want)
				})
			}
		})
	}
}

func section(ar *txtar.Archive, name string) string {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	return ""
}

func setSection(ar *txtar.Archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
}

func runExampleCase(t *testing.T, ar *txtar.Archive, lang string) string {
	dir := t.TempDir()
	for _, f := range ar.Files {
		if strings.HasSuffix(f.Name, ".tf") {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	command, args := exampleCommand(t, lang)
	stderr := &syncBuffer{}
	c, diags := Start(context.Background(), m, Options{
		Enabled:       true,
		Timeout:       20 * time.Second,
		ShutdownGrace: time.Second,
		Stderr:        stderr,
		EvalContext:   exampleContext(command, args),
	})
	pids := pidsOf(c)
	defer func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
		assertGone(t, pids...)
	}()

	var out strings.Builder
	writeDiags(&out, diags)
	sc := bufio.NewScanner(strings.NewReader(section(ar, "calls")))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fmt.Fprintf(&out, "> %s\n", callTitle(line))
		meta, diags := exampleCall(t, c, line)
		writeDiags(&out, diags)
		for _, key := range slices.Sorted(maps.Keys(meta)) {
			b, err := ctyjson.Marshal(meta[key], meta[key].Type())
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%s = %s\n", key, b)
		}
	}
	return out.String()
}

// callTitle is a call line without its values.
func callTitle(line string) string {
	if i := strings.Index(line, " {"); i >= 0 {
		return line[:i]
	}
	return line
}

func exampleCall(t *testing.T, c *Chain, line string) (map[string]cty.Value, hcl.Diagnostics) {
	t.Helper()
	head, values, _ := strings.Cut(line, " {")
	if values != "" {
		values = "{" + values
	}
	fields := strings.Fields(head)
	ctx := context.Background()
	if slices.Contains(stageHooks, fields[0]) {
		params := map[string]any{}
		if values != "" {
			if err := json.Unmarshal([]byte(values), &params); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
		}
		return c.StageHook(ctx, fields[0], params)
	}
	if len(fields) != 4 {
		t.Fatalf("want HOOK PROVIDER ADDRESS ACTION {values}: %s", line)
	}
	r := Resource{Address: fields[2], Action: fields[3], Mode: "managed"}
	parts := strings.Split(fields[2], ".")
	if parts[0] == "data" {
		r.Mode, parts = "data", parts[1:]
	}
	r.Type, r.Name = parts[0], parts[1]
	providerName, _, _ := strings.Cut(fields[1], ".")
	r.Provider = "registry.opentofu.org/hashicorp/" + providerName
	if values != "" {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(values), &raw); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		var sensitive []string
		if b, ok := raw["sensitive"]; ok {
			if err := json.Unmarshal(b, &sensitive); err != nil {
				t.Fatalf("%s: sensitive: %v", line, err)
			}
		}
		for name, dst := range map[string]*cty.Value{"before": &r.Before, "after": &r.After, "config": &r.Config} {
			if b, ok := raw[name]; ok {
				ty, err := ctyjson.ImpliedType(b)
				if err != nil {
					t.Fatal(err)
				}
				if *dst, err = ctyjson.Unmarshal(b, ty); err != nil {
					t.Fatal(err)
				}
				*dst = markSensitive(t, *dst, name, sensitive)
			}
		}
	}
	return c.ResourceHook(ctx, fields[0], fields[1], r)
}

// markSensitive marks the parts of v (the value called name) that paths
// such as "after.tags" name.
func markSensitive(t *testing.T, v cty.Value, name string, paths []string) cty.Value {
	t.Helper()
	v, err := cty.Transform(v, func(p cty.Path, v cty.Value) (cty.Value, error) {
		key := name
		for _, step := range p {
			switch s := step.(type) {
			case cty.GetAttrStep:
				key += "." + s.Name
			case cty.IndexStep:
				if s.Key.Type() == cty.String {
					key += "." + s.Key.AsString()
				} else {
					key += "." + s.Key.AsBigFloat().String()
				}
			}
		}
		if slices.Contains(paths, key) {
			return v.Mark(functions.SensitiveMark), nil
		}
		return v, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func writeDiags(out *strings.Builder, diags hcl.Diagnostics) {
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		at := ""
		if d.Subject != nil {
			at = fmt.Sprintf("%s:%d: ", filepath.Base(d.Subject.Filename), d.Subject.Start.Line)
		}
		fmt.Fprintf(out, "%s%s: %s; %s\n", at, sev, d.Summary, d.Detail)
	}
}

// TestGoExampleConcurrent sends the Go example, which declares that it
// takes concurrent requests, many at once: each answer must reach its own
// call.
func TestGoExampleConcurrent(t *testing.T) {
	m := loadModule(t, `
variable "middleware" {}
middleware "cost" {
  metadata_key = "cost"
  command      = var.middleware.command
  args         = var.middleware.args
}
provider "aws" { middleware = [middleware.cost] }
`)
	c := start(t, m, Options{EvalContext: exampleContext(goExampleBinary(t), nil)})
	if !c.running["cost"].concurrent {
		t.Fatal("the Go example does not declare concurrent")
	}
	sizes := []string{"t3.nano", "t3.micro", "t3.small", "t3.medium", "m5.large", "m5.xlarge"}
	var wg sync.WaitGroup
	for i := range 48 {
		wg.Go(func() {
			size := sizes[i%len(sizes)]
			r := instance("aws_instance", fmt.Sprint("vm", i))
			r.After = cty.ObjectVal(map[string]cty.Value{"instance_type": cty.StringVal(size)})
			meta, diags := c.ResourceHook(context.Background(), PostPlan, "aws", r)
			if len(diags) > 0 {
				t.Error(diags)
				return
			}
			// The price tells which request an answer was for.
			rec := metaJSON(t, meta["cost"])
			want := hourlyPrice[size] / 10000
			if got := rec["estimated_cost"].(map[string]any)["hourly"]; got != want {
				t.Errorf("%s (%s): hourly %v, want %v", r.Address, size, got, want)
			}
		})
	}
	wg.Wait()
}

// hourlyPrice is the example's price table for aws_instance, in
// ten-thousandths of a dollar an hour.
var hourlyPrice = map[string]float64{"t3.nano": 52, "t3.micro": 104, "t3.small": 208, "t3.medium": 416, "m5.large": 960, "m5.xlarge": 1920}
