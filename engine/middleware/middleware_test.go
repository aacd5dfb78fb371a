package middleware

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/functions"
)

// testBin is the test binary, which runs as a fake middleware (see fake).
var testBin = func() string {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return exe
}()

// fakeBlock is a middleware block running the fake middleware in mode,
// with more environment variables (and FAKE_NAME set to its name) and
// more arguments (HCL lines).
func fakeBlock(name, mode string, env map[string]string, more ...string) string {
	all := map[string]string{fakeEnv: mode, "FAKE_NAME": name}
	maps.Copy(all, env)
	var b strings.Builder
	fmt.Fprintf(&b, "middleware %q {\n  command = %s\n", name, strconv.Quote(testBin))
	if !slices.ContainsFunc(more, func(s string) bool { return strings.Contains(s, "metadata_key") }) {
		fmt.Fprintf(&b, "  metadata_key = %q\n", name)
	}
	b.WriteString("  env = {\n")
	for _, k := range slices.Sorted(maps.Keys(all)) {
		fmt.Fprintf(&b, "    %s = %s\n", k, strconv.Quote(all[k]))
	}
	b.WriteString("  }\n")
	for _, line := range more {
		b.WriteString("  " + line + "\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// loadModule writes src as main.tf of a new module and loads it.
func loadModule(t *testing.T, src string) *config.Module {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatalf("loading:\n%s\n%v", src, diags)
	}
	return m
}

// syncBuffer is a bytes.Buffer for several writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start starts the module's middleware, failing the test on errors, and
// checks when the test ends that Close left no process behind.
func start(t *testing.T, m *config.Module, opts Options) *Chain {
	t.Helper()
	c, diags := startAllowing(t, m, opts)
	if diags.HasErrors() {
		t.Fatalf("Start: %v", diags)
	}
	return c
}

func startAllowing(t *testing.T, m *config.Module, opts Options) (*Chain, hcl.Diagnostics) {
	t.Helper()
	opts.Enabled = opts.Enabled || len(opts.Only) == 0
	if opts.Stderr == nil {
		opts.Stderr = &syncBuffer{}
	}
	if opts.ShutdownGrace == 0 {
		opts.ShutdownGrace = 500 * time.Millisecond
	}
	c, diags := Start(context.Background(), m, opts)
	pids := pidsOf(c)
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		assertGone(t, pids...)
	})
	return c, diags
}

func pidsOf(c *Chain) []int { return slices.Clone(c.launched) }

// alive tells whether a process exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}

// assertGone checks that the processes are gone, giving a process that
// was orphaned a moment to be reaped.
func assertGone(t *testing.T, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Errorf("process %d is still running", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func closeChain(t *testing.T, c *Chain) {
	t.Helper()
	pids := pidsOf(c)
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	assertGone(t, pids...)
}

func instance(typ, name string) Resource {
	return Resource{
		Provider: "registry.opentofu.org/hashicorp/" + strings.SplitN(typ, "_", 2)[0],
		Type:     typ,
		Name:     name,
		Address:  typ + "." + name,
		Action:   "create",
		After:    cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name)}),
		Config:   cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name)}),
	}
}

// metaJSON renders a metadata value as JSON, for comparisons.
func metaJSON(t *testing.T, v cty.Value) map[string]any {
	t.Helper()
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func logLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func wantError(t *testing.T, diags hcl.Diagnostics, summary string, detail ...string) {
	t.Helper()
	for _, d := range diags {
		if d.Severity != hcl.DiagError || d.Summary != summary {
			continue
		}
		ok := true
		for _, s := range detail {
			if !strings.Contains(d.Detail, s) {
				ok = false
			}
		}
		if ok {
			return
		}
	}
	t.Errorf("want an error %q with %q in its detail, got %v", summary, detail, diags)
}

func TestDisabledStartsNothing(t *testing.T) {
	// The command refers to a variable that is not given: with middleware
	// disabled nothing is evaluated.
	m := loadModule(t, `
middleware "naming" {
  metadata_key = "naming"
  command      = var.bin
}
middleware "cost" {
  metadata_key = "cost"
  command      = "cost-estimate"
}
terraform { middleware = [middleware.naming, middleware.cost] }
`)
	c, diags := Start(context.Background(), m, Options{})
	if len(diags) > 0 {
		t.Fatalf("diags: %v", diags)
	}
	defer closeChain(t, c)
	if got := c.Declared(); !slices.Equal(got, []string{"naming", "cost"}) {
		t.Errorf("Declared = %v", got)
	}
	if got := c.Running(); len(got) != 0 {
		t.Errorf("Running = %v", got)
	}
	want := "Middleware declared and not run: naming, cost (pass --middleware to run it)."
	if got := c.Note(); got != want {
		t.Errorf("Note = %q, want %q", got, want)
	}
	meta, diags := c.ResourceHook(context.Background(), PrePlan, "aws", instance("aws_instance", "web"))
	if meta != nil || diags != nil {
		t.Errorf("ResourceHook on a disabled chain = %v, %v", meta, diags)
	}
}

func TestHandshakeAndHook(t *testing.T) {
	m := loadModule(t, fakeBlock("a", "ok", map[string]string{"FAKE_STDERR": "hello from a"})+`
terraform { middleware = [middleware.a] }
`)
	stderr := &syncBuffer{}
	c := start(t, m, Options{Stderr: stderr})
	if got := c.Running(); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("Running = %v", got)
	}
	if c.Note() != "" {
		t.Errorf("Note = %q", c.Note())
	}
	meta, diags := c.ResourceHook(context.Background(), PostPlan, "aws", instance("aws_instance", "web"))
	if len(diags) > 0 {
		t.Fatalf("diags: %v", diags)
	}
	rec := metaJSON(t, meta["a"])
	if rec["by"] != "a" || rec["middleware"] != "a" || rec["action"] != "post-plan" || rec["planned_action"] != "Create" || rec["message"] != "a saw post-plan" {
		t.Errorf("record = %v", rec)
	}
	res := rec["resource"].(map[string]any)
	if res["type"] != "aws_instance" || res["name"] != "web" || res["address"] != "aws_instance.web" || res["mode"] != "managed" || res["provider"] != "registry.opentofu.org/hashicorp/aws" {
		t.Errorf("resource = %v", res)
	}
	params := rec["params"].(map[string]any)
	if params["resource_type"] != "aws_instance" || params["resource_name"] != "web" || params["planned_action"] != "Create" || params["before"] != nil {
		t.Errorf("params = %v", params)
	}
	if after := params["after"].(map[string]any); after["name"] != "web" {
		t.Errorf("after = %v", after)
	}
	closeChain(t, c)
	if got := stderr.String(); !strings.Contains(got, "[a] hello from a\n") {
		t.Errorf("stderr = %q", got)
	}
}

func TestOrderProjectThenProvider(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	env := map[string]string{"FAKE_LOG": log}
	m := loadModule(t, fakeBlock("a", "ok", env)+fakeBlock("b", "ok", env)+fakeBlock("c", "ok", env)+`
terraform { middleware = [middleware.a, middleware.b] }
provider "aws" {
  alias      = "west"
  middleware = [middleware.c, middleware.a]
}
`)
	c := start(t, m, Options{})
	ctx := context.Background()
	if _, diags := c.ResourceHook(ctx, PrePlan, "aws.west", instance("aws_instance", "one")); len(diags) > 0 {
		t.Fatal(diags)
	}
	if _, diags := c.ResourceHook(ctx, PrePlan, "google", instance("google_compute_instance", "two")); len(diags) > 0 {
		t.Fatal(diags)
	}
	want := []string{
		"a pre-plan one", "b pre-plan one", "c pre-plan one", "a pre-plan one",
		"a pre-plan two", "b pre-plan two",
	}
	if got := logLines(t, log); !slices.Equal(got, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Stage hooks go to each running middleware once.
	if _, diags := c.StageHook(ctx, PlanStageStart, nil); len(diags) > 0 {
		t.Fatal(diags)
	}
	got := logLines(t, log)[len(want):]
	if !slices.Equal(got, []string{"a plan-stage-start <nil>", "b plan-stage-start <nil>", "c plan-stage-start <nil>"}) {
		t.Errorf("stage calls: %q", got)
	}
}

func TestCapabilities(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	m := loadModule(t, fakeBlock("a", "ok", map[string]string{"FAKE_LOG": log, "FAKE_CAPS": "post-plan,plan-stage-complete,future-hook"})+`
terraform { middleware = [middleware.a] }
`)
	c, diags := startAllowing(t, m, Options{})
	if diags.HasErrors() || len(diags) != 1 || diags[0].Summary != "Unknown middleware capabilities" || !strings.Contains(diags[0].Detail, "future-hook") {
		t.Fatalf("want one warning about future-hook, got %v", diags)
	}
	ctx := context.Background()
	r := instance("aws_s3_bucket", "logs")
	for _, hook := range resourceHooks {
		if _, diags := c.ResourceHook(ctx, hook, "aws", r); len(diags) > 0 {
			t.Fatal(diags)
		}
	}
	for _, hook := range stageHooks {
		if _, diags := c.StageHook(ctx, hook, map[string]any{"resource_name": "stage"}); len(diags) > 0 {
			t.Fatal(diags)
		}
	}
	want := []string{"a post-plan logs", "a plan-stage-complete stage"}
	if got := logLines(t, log); !slices.Equal(got, want) {
		t.Errorf("calls = %q, want %q", got, want)
	}
	if _, diags := c.ResourceHook(ctx, "post-destroy", "aws", r); !diags.HasErrors() || diags[0].Summary != "Unknown middleware hook" {
		t.Errorf("unknown hook: %v", diags)
	}
	if _, diags := c.StageHook(ctx, PostPlan, nil); !diags.HasErrors() || diags[0].Summary != "Unknown middleware hook" {
		t.Errorf("resource hook as a stage hook: %v", diags)
	}
}

func TestMetadataOverwrite(t *testing.T) {
	m := loadModule(t, fakeBlock("a", "ok", nil, `metadata_key = "shared"`)+
		fakeBlock("b", "ok", nil, `metadata_key = "shared"`)+
		fakeBlock("c", "ok", nil)+`
terraform { middleware = [middleware.a, middleware.c, middleware.b] }
provider "aws" { middleware = [middleware.c] }
`)
	c := start(t, m, Options{})
	meta, diags := c.ResourceHook(context.Background(), PostPlan, "aws", instance("aws_instance", "web"))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got := slices.Sorted(maps.Keys(meta)); !slices.Equal(got, []string{"c", "shared"}) {
		t.Fatalf("keys = %v", got)
	}
	if by := metaJSON(t, meta["shared"])["by"]; by != "b" {
		t.Errorf("shared written last by %v, want b", by)
	}
	// c ran twice (project, then provider): the second call's metadata
	// is the one kept.
	if call := metaJSON(t, meta["c"])["call"]; call != 2.0 {
		t.Errorf("c's kept call = %v, want 2", call)
	}
}

func TestPreHookFailStopsChain(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	env := map[string]string{"FAKE_LOG": log}
	m := loadModule(t, fakeBlock("a", "ok", env)+
		fakeBlock("b", "ok", map[string]string{"FAKE_LOG": log, "FAKE_FAIL": "pre-plan"})+
		fakeBlock("c", "ok", env)+`
terraform { middleware = [middleware.a, middleware.b, middleware.c] }
`)
	c := start(t, m, Options{})
	meta, diags := c.ResourceHook(context.Background(), PrePlan, "aws", instance("aws_instance", "web"))
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %v", diags)
	}
	wantError(t, diags, `Middleware "b" failed pre-plan`, "aws_instance.web: b rejects web")
	if got := logLines(t, log); !slices.Equal(got, []string{"a pre-plan web", "b pre-plan web"}) {
		t.Errorf("calls = %q: c must not run after b's fail", got)
	}
	if _, ok := meta["a"]; !ok {
		t.Errorf("a's metadata is lost: %v", meta)
	}
	if d := diags[0]; d.Subject == nil || d.Subject.Start.Line != 10 {
		t.Errorf("subject = %v, want b's block", d.Subject)
	}
	// Stage start hooks stop at the first fail as well.
	m = loadModule(t, fakeBlock("a", "ok", map[string]string{"FAKE_FAIL": "apply-stage-start", "FAKE_LOG": log})+fakeBlock("b", "ok", env)+`
terraform { middleware = [middleware.a, middleware.b] }
`)
	c = start(t, m, Options{})
	_ = os.Remove(log)
	_, diags = c.StageHook(context.Background(), ApplyStageStart, map[string]any{"resource_name": "all"})
	wantError(t, diags, `Middleware "a" failed apply-stage-start`, "a rejects all")
	if got := logLines(t, log); !slices.Equal(got, []string{"a apply-stage-start all"}) {
		t.Errorf("calls = %q", got)
	}
}

func TestPostHookFailRunsAll(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	failing := map[string]string{"FAKE_LOG": log, "FAKE_FAIL": "post-apply"}
	m := loadModule(t, fakeBlock("a", "ok", failing)+fakeBlock("b", "ok", failing)+
		fakeBlock("c", "ok", map[string]string{"FAKE_LOG": log})+`
terraform { middleware = [middleware.a, middleware.b] }
provider "aws" { middleware = [middleware.c] }
`)
	c := start(t, m, Options{})
	meta, diags := c.ResourceHook(context.Background(), PostApply, "aws", instance("aws_instance", "web"))
	if len(diags) != 2 {
		t.Fatalf("want two errors, got %v", diags)
	}
	wantError(t, diags, `Middleware "a" failed post-apply`, "a rejects web")
	wantError(t, diags, `Middleware "b" failed post-apply`, "b rejects web")
	if got := logLines(t, log); !slices.Equal(got, []string{"a post-apply web", "b post-apply web", "c post-apply web"}) {
		t.Errorf("calls = %q", got)
	}
	if len(meta) != 3 {
		t.Errorf("metadata of all three wanted: %v", meta)
	}
	if rec := metaJSON(t, meta["c"]); rec["applied_action"] != "Create" {
		t.Errorf("post-apply record = %v", rec)
	}
}

// TestFaults runs each kind of broken middleware: the call gives a clear
// error naming the middleware and the hook, a later call fails at once,
// and no process is left.
func TestFaults(t *testing.T) {
	cases := []struct {
		mode    string
		timeout time.Duration
		want    []string
	}{
		{"crash", 0, []string{"it exited unexpectedly (exit status 2)", "its last lines on stderr: panic: policy engine exploded"}},
		{"hang", 300 * time.Millisecond, []string{"it did not answer post-plan (request 2) within 300ms"}},
		{"garbage", 0, []string{`it wrote a line that is not a JSON object: "this is not json"`}},
		{"wrong-id", 0, []string{"it answered with id 1002, which matches no request (it was asked request 2)"}},
		{"rpc-error", 0, []string{"it answered with JSON-RPC error -32000: internal failure"}},
		{"bad-result", 0, []string{`its result must be an object with a status, but it is "just a string"`}},
		{"no-status", 0, []string{`its result has no status (it must be "success" or "fail"): {"message":"hi"}`}},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			m := loadModule(t, fakeBlock("broken", tc.mode, nil)+`
terraform { middleware = [middleware.broken] }
`)
			c := start(t, m, Options{Timeout: tc.timeout})
			pid := c.running["broken"].pid
			began := time.Now()
			_, diags := c.ResourceHook(context.Background(), PostPlan, "aws", instance("aws_instance", "web"))
			if took := time.Since(began); took > 5*time.Second {
				t.Errorf("the call took %s", took)
			}
			want := append([]string{`Middleware "broken" could not run post-plan for aws_instance.web: `}, tc.want...)
			wantError(t, diags, `Middleware "broken" error`, want...)
			protocolFault := tc.mode != "rpc-error" && tc.mode != "bad-result" && tc.mode != "no-status"
			if protocolFault {
				// The middleware is stopped at once and later calls fail
				// without waiting.
				assertGone(t, pid)
				began = time.Now()
				_, diags = c.ResourceHook(context.Background(), PostPlan, "aws", instance("aws_instance", "db"))
				if took := time.Since(began); took > 100*time.Millisecond {
					t.Errorf("a call to a broken middleware took %s", took)
				}
				wantError(t, diags, `Middleware "broken" error`, append([]string{"for aws_instance.db: "}, tc.want...)...)
			}
			closeChain(t, c)
		})
	}
}

func TestCrashAtStart(t *testing.T) {
	m := loadModule(t, fakeBlock("a", "ok", nil)+fakeBlock("b", "crash-init", nil)+`
terraform { middleware = [middleware.a, middleware.b] }
`)
	c, diags := startAllowing(t, m, Options{})
	if len(c.launched) != 2 {
		t.Errorf("a and b were not both started: launched %v", c.launched)
	}
	assertGone(t, c.launched...)
	wantError(t, diags, "Middleware failed to start", `Middleware "b" failed its initialize handshake: it exited unexpectedly (exit status 3); its last lines on stderr: fatal: cannot load policy file`)
	if got := c.Running(); len(got) != 0 {
		t.Errorf("after a failed start, Running = %v", got)
	}
	if _, diags := c.ResourceHook(context.Background(), PrePlan, "aws", instance("aws_instance", "web")); diags != nil {
		t.Errorf("hooks of a failed chain: %v", diags)
	}
}

func TestStartErrors(t *testing.T) {
	m := loadModule(t, `
variable "bin" { type = string }
middleware "missing" {
  metadata_key = "missing"
  command      = "/nonexistent/middleware"
}
middleware "evaluated" {
  metadata_key = "evaluated"
  command      = var.bin
  env          = { TOFUCUE_FAKE_MIDDLEWARE = "ok" }
}
terraform { middleware = [middleware.missing, middleware.evaluated] }
`)
	_, diags := startAllowing(t, m, Options{})
	wantError(t, diags, "Middleware argument needs evaluation", `The command of middleware "evaluated" refers to other values`)

	ectx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{"bin": cty.StringVal(testBin)}),
	}}
	_, diags = startAllowing(t, m, Options{EvalContext: ectx})
	wantError(t, diags, "Middleware failed to start", `Middleware "missing" could not be started: fork/exec /nonexistent/middleware: no such file or directory.`)
	if len(diags) != 1 {
		t.Errorf("only missing fails to start (evaluated is stopped): %v", diags)
	}

	_, diags = startAllowing(t, m, Options{Only: []string{"nope"}})
	wantError(t, diags, "Unknown middleware", `--middleware-only names "nope", but the module declares no middleware by that name (it declares missing, evaluated).`)
}

func TestOnly(t *testing.T) {
	m := loadModule(t, fakeBlock("a", "ok", nil)+fakeBlock("b", "ok", nil)+fakeBlock("lonely", "ok", nil)+`
terraform { middleware = [middleware.a, middleware.b] }
`)
	c := start(t, m, Options{Only: []string{"b", "lonely"}})
	if got := c.Running(); !slices.Equal(got, []string{"b"}) {
		t.Errorf("Running = %v", got)
	}
	want := "Middleware declared and not run: a (not named by --middleware-only); lonely (attached to nothing)."
	if got := c.Note(); got != want {
		t.Errorf("Note = %q, want %q", got, want)
	}
	meta, diags := c.ResourceHook(context.Background(), PostPlan, "aws", instance("aws_instance", "web"))
	if len(diags) > 0 || len(meta) != 1 || meta["b"] == cty.NilVal {
		t.Errorf("only b runs: %v %v", meta, diags)
	}
}

func TestRedaction(t *testing.T) {
	m := loadModule(t, fakeBlock("hidden", "ok", nil)+fakeBlock("trusted", "ok", nil, "send_sensitive = true")+`
terraform { middleware = [middleware.hidden, middleware.trusted] }
`)
	c := start(t, m, Options{})
	sensitive := func(v cty.Value) cty.Value { return v.Mark(functions.SensitiveMark) }
	r := Resource{
		Provider: "registry.opentofu.org/hashicorp/aws",
		Type:     "aws_db_instance",
		Name:     "main",
		Action:   "update",
		// The password becomes sensitive between before and after; the
		// token is sensitive in the configuration only; the port is
		// unknown.
		Before: cty.ObjectVal(map[string]cty.Value{
			"password": cty.StringVal("old-secret"),
			"auth":     cty.ObjectVal(map[string]cty.Value{"token": cty.StringVal("t1"), "user": cty.StringVal("admin")}),
			"port":     cty.NumberIntVal(5432),
			"tags":     cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("main")}),
		}),
		After: cty.ObjectVal(map[string]cty.Value{
			"password": sensitive(cty.StringVal("new-secret")),
			"auth":     cty.ObjectVal(map[string]cty.Value{"token": cty.StringVal("t2"), "user": cty.StringVal("admin")}),
			"port":     cty.UnknownVal(cty.Number),
			"tags":     cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("main")}),
		}),
		Config: cty.ObjectVal(map[string]cty.Value{
			"password": cty.StringVal("new-secret"),
			"auth":     cty.ObjectVal(map[string]cty.Value{"token": sensitive(cty.StringVal("t2")), "user": cty.StringVal("admin")}),
			"port":     cty.NullVal(cty.Number),
			"tags":     sensitive(cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("main")})),
		}),
	}
	meta, diags := c.ResourceHook(context.Background(), PrePlan, "aws", r)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	got := func(key string) string {
		params := metaJSON(t, meta[key])["params"].(map[string]any)
		var b strings.Builder
		for _, k := range []string{"before", "after", "config", "before_sensitive", "after_sensitive", "config_sensitive", "after_unknown", "planned_action", "resource_address"} {
			v, _ := json.Marshal(params[k])
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
		return b.String()
	}
	const sens = `{"auth":{"token":true},"password":true,"tags":true}`
	wantHidden := `before: {"auth":{"token":"(sensitive value)","user":"admin"},"password":"(sensitive value)","port":5432,"tags":"(sensitive value)"}
after: {"auth":{"token":"(sensitive value)","user":"admin"},"password":"(sensitive value)","port":null,"tags":"(sensitive value)"}
config: {"auth":{"token":"(sensitive value)","user":"admin"},"password":"(sensitive value)","port":null,"tags":"(sensitive value)"}
before_sensitive: ` + sens + `
after_sensitive: ` + sens + `
config_sensitive: ` + sens + `
after_unknown: {"port":true}
planned_action: "Update"
resource_address: null
`
	if g := got("hidden"); g != wantHidden {
		t.Errorf("without send_sensitive:\n%s\nwant:\n%s", g, wantHidden)
	}
	wantTrusted := `before: {"auth":{"token":"t1","user":"admin"},"password":"old-secret","port":5432,"tags":{"Name":"main"}}
after: {"auth":{"token":"t2","user":"admin"},"password":"new-secret","port":null,"tags":{"Name":"main"}}
config: {"auth":{"token":"t2","user":"admin"},"password":"new-secret","port":null,"tags":{"Name":"main"}}
before_sensitive: ` + sens + `
after_sensitive: ` + sens + `
config_sensitive: ` + sens + `
after_unknown: {"port":true}
planned_action: "Update"
resource_address: null
`
	if g := got("trusted"); g != wantTrusted {
		t.Errorf("with send_sensitive:\n%s\nwant:\n%s", g, wantTrusted)
	}

	// A wholly sensitive value, and sensitive values in stage hook
	// parameters.
	r.After = sensitive(r.After)
	meta, diags = c.ResourceHook(context.Background(), PostPlan, "aws", r)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	params := metaJSON(t, meta["hidden"])["params"].(map[string]any)
	if params["after"] != Redacted || params["before"] != Redacted || params["after_sensitive"] != true {
		t.Errorf("wholly sensitive after: %v", params)
	}
	meta, diags = c.StageHook(context.Background(), PlanStageComplete, map[string]any{
		"resources": []Resource{r},
		"output":    sensitive(cty.StringVal("s3cr3t")),
		"count":     2,
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	hidden, _ := json.Marshal(metaJSON(t, meta["hidden"])["params"])
	if strings.Contains(string(hidden), "secret") || strings.Contains(string(hidden), "s3cr3t") || !strings.Contains(string(hidden), `"count":2`) {
		t.Errorf("stage params without send_sensitive: %s", hidden)
	}
	trusted, _ := json.Marshal(metaJSON(t, meta["trusted"])["params"])
	if !strings.Contains(string(trusted), `"output":"s3cr3t"`) || !strings.Contains(string(trusted), `"password":"new-secret"`) {
		t.Errorf("stage params with send_sensitive: %s", trusted)
	}
}

func TestConcurrency(t *testing.T) {
	for _, concurrent := range []bool{false, true} {
		t.Run(fmt.Sprint("concurrent=", concurrent), func(t *testing.T) {
			flag := "0"
			if concurrent {
				flag = "1"
			}
			m := loadModule(t, fakeBlock("slow", "ok", map[string]string{"FAKE_CONCURRENT": flag, "FAKE_DELAY": "150"})+`
terraform { middleware = [middleware.slow] }
`)
			c := start(t, m, Options{})
			const n = 4
			most := make([]float64, n)
			var wg sync.WaitGroup
			began := time.Now()
			for i := range n {
				wg.Go(func() {
					meta, diags := c.ResourceHook(context.Background(), PostPlan, "aws", instance("aws_instance", fmt.Sprint("i", i)))
					if len(diags) > 0 {
						t.Error(diags)
						return
					}
					most[i] = metaJSON(t, meta["slow"])["max_in_flight"].(float64)
				})
			}
			wg.Wait()
			took := time.Since(began)
			top := slices.Max(most)
			if concurrent && top < 2 {
				t.Errorf("a concurrent middleware never had two requests at once (took %s)", took)
			}
			if !concurrent && top != 1 {
				t.Errorf("a serial middleware had %v requests at once", top)
			}
			if !concurrent && took < n*150*time.Millisecond {
				t.Errorf("serial calls took %s, less than %d×150ms", took, n)
			}
		})
	}
}

func TestInterrupt(t *testing.T) {
	m := loadModule(t, fakeBlock("a", "hang", nil)+`
terraform { middleware = [middleware.a] }
`)
	ctx, cancel := context.WithCancel(context.Background())
	c, diags := Start(ctx, m, Options{Enabled: true, Timeout: time.Minute, ShutdownGrace: 200 * time.Millisecond, Stderr: &syncBuffer{}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	pid := c.running["a"].pid
	time.AfterFunc(100*time.Millisecond, cancel)
	began := time.Now()
	_, diags = c.ResourceHook(ctx, PostPlan, "aws", instance("aws_instance", "web"))
	if took := time.Since(began); took > 3*time.Second {
		t.Errorf("an interrupted call took %s", took)
	}
	wantError(t, diags, `Middleware "a" error`, "the operation was interrupted")
	// The chain closes itself when its context ends.
	assertGone(t, pid)
	if err := c.Close(); err != nil {
		t.Error(err)
	}
}

func TestCloseKillsStubborn(t *testing.T) {
	m := loadModule(t, fakeBlock("stubborn", "stubborn", nil)+`
terraform { middleware = [middleware.stubborn] }
`)
	c := start(t, m, Options{ShutdownGrace: 200 * time.Millisecond})
	pid := c.running["stubborn"].pid
	began := time.Now()
	if err := c.Close(); err != nil {
		t.Error(err)
	}
	if took := time.Since(began); took < 400*time.Millisecond || took > 3*time.Second {
		t.Errorf("Close took %s; want about two graces (EOF, then SIGTERM, both ignored)", took)
	}
	assertGone(t, pid)
}

func TestCloseKillsChildren(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	m := loadModule(t, fakeBlock("parent", "spawn", map[string]string{"FAKE_PIDFILE": pidfile})+`
terraform { middleware = [middleware.parent] }
`)
	c := start(t, m, Options{})
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(string(b))
	if !alive(child) {
		t.Fatalf("child %d is not running", child)
	}
	closeChain(t, c)
	assertGone(t, child)
}

// What a middleware starts outside its process group is killed too, and
// reaped: found by the marker in its environment, or, when it cleared its
// environment, as an orphan handed to this process as subreaper.
func TestCloseKillsDescendantsOutsideItsGroup(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"setsid":                    {"FAKE_SETSID": "1"},
		"setsid with a cleared env": {"FAKE_SETSID": "1", "FAKE_CLEARENV": "1"},
	} {
		t.Run(name, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			env["FAKE_PIDFILE"] = pidfile
			m := loadModule(t, fakeBlock("parent", "spawn", env)+`
terraform { middleware = [middleware.parent] }
`)
			c := start(t, m, Options{})
			b, err := os.ReadFile(pidfile)
			if err != nil {
				t.Fatal(err)
			}
			child, _ := strconv.Atoi(string(b))
			if !alive(child) {
				t.Fatalf("child %d is not running", child)
			}
			closeChain(t, c)
			// Gone at once, and reaped: no zombie left either.
			if err := syscall.Kill(child, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("after Close, process %d: kill -0 = %v, want ESRCH", child, err)
				_ = syscall.Kill(child, syscall.SIGKILL)
			}
		})
	}
}

// A middleware that writes a line longer than any buffer to stderr is
// drained and goes on; the line is shown cut, saying so.
func TestLongStderrLine(t *testing.T) {
	m := loadModule(t, fakeBlock("a", "ok", map[string]string{"FAKE_STDERR_BYTES": strconv.Itoa(3 << 20)})+`
terraform { middleware = [middleware.a] }
`)
	stderr := &syncBuffer{}
	c := start(t, m, Options{Stderr: stderr, Timeout: 10 * time.Second})
	if _, diags := c.ResourceHook(context.Background(), PostPlan, "aws", instance("aws_instance", "web")); len(diags) > 0 {
		t.Fatalf("diags: %v", diags)
	}
	closeChain(t, c)
	got := stderr.String()
	want := "[a] " + strings.Repeat("x", maxStderrLine) + fmt.Sprintf(" [line cut: %d more bytes not shown]\n[a] after the long line\n", 3<<20-maxStderrLine)
	if !strings.HasPrefix(got, want) {
		t.Errorf("stderr (%d bytes) starts %q...%q, want %q...%q", len(got), got[:min(len(got), 40)], got[max(0, min(len(got), len(want))-80):min(len(got), len(want))], want[:40], want[len(want)-80:])
	}
}

func TestEncodeShapes(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"list": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String).Mark(functions.SensitiveMark)}),
		"set":  cty.SetVal([]cty.Value{cty.NumberFloatVal(1.5), cty.NumberIntVal(2)}),
		"tup":  cty.TupleVal([]cty.Value{cty.True, cty.NullVal(cty.String)}),
		"big":  cty.MustParseNumberVal("123456789012345678901234567890"),
		"dyn":  cty.DynamicVal,
	})
	sens := sensitivePaths{}
	sens.add(v)
	for _, redact := range []bool{true, false} {
		enc := (&encoder{sens: sens, redact: redact}).encode(v)
		out, err := json.Marshal([]any{enc.value, enc.sensitive, enc.unknown})
		if err != nil {
			t.Fatal(err)
		}
		want := `[{"big":123456789012345678901234567890,"dyn":null,"list":["a","(sensitive value)"],"set":[1.5,2],"tup":[true,null]},{"list":[false,true]},{"dyn":true}]`
		if !redact {
			want = `[{"big":123456789012345678901234567890,"dyn":null,"list":["a",null],"set":[1.5,2],"tup":[true,null]},{"list":[false,true]},{"dyn":true,"list":[false,true]}]`
		}
		if string(out) != want {
			t.Errorf("redact=%v:\n got %s\nwant %s", redact, out, want)
		}
	}
}

// TestRelativeCommand runs a command given relative to the module's
// directory, where the middleware starts.
func TestRelativeCommand(t *testing.T) {
	m := loadModule(t, `
middleware "local" {
  metadata_key = "local"
  command      = "./bin/run-middleware"
  args         = ["ok"]
}
terraform { middleware = [middleware.local] }
`)
	bin := filepath.Join(m.Dir, "bin")
	if err := os.Mkdir(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\n[ -f main.tf ] || { echo 'not started in the module directory' >&2; exit 1; }\n" +
		fakeEnv + "=\"$1\" FAKE_NAME=local exec " + strconv.Quote(testBin) + "\n"
	if err := os.WriteFile(filepath.Join(bin, "run-middleware"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	c := start(t, m, Options{})
	meta, diags := c.ResourceHook(context.Background(), PostPlan, "aws", instance("aws_instance", "web"))
	if len(diags) > 0 || metaJSON(t, meta["local"])["by"] != "local" {
		t.Errorf("%v %v", meta, diags)
	}
}
