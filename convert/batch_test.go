package convert

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/internal/testtree"
)

// providerCall is an output whose value calls a provider-defined
// function, which is never converted.
func providerCall(name string) string {
	return "output \"" + name + "\" {\n  value = provider::aws::arn_parse(\"" + name + "\")\n}\n"
}

func TestBatch(t *testing.T) {
	root := testtree.Write(t, map[string]string{
		"a/main.tf": "variable \"region\" {\n  type = string\n}\n\noutput \"region\" {\n  value = var.region\n}\n",
		"b/main.tf": providerCall("x") + providerCall("y"),
		"c/main.tf": providerCall("z") + "variable \"v\" {\n  default = 1\n}\n",
		// An override file is not converted.
		"c/override.tf": "variable \"v\" {\n  default = 2\n}\n",
		// An unknown block type: a loading error.
		"d/main.tf": "variable \"region\" {}\n\nresources \"aws_instance\" \"web\" {}\n",
		// A placeholder inside an interpolation fails to build as an
		// "invalid interpolation" without its message: still partial.
		"e/main.tf": "locals {\n  name = \"x-${provider::aws::arn_parse(\"e\")}\"\n}\n\noutput \"name\" {\n  value = local.name\n}\n",
	})
	names := []string{"d", "b", "a", "e", "c"}
	dirs := make([]string, len(names))
	for i, n := range names {
		dirs[i] = filepath.Join(root, n)
	}

	var calls [][2]int
	s := Batch(dirs, BatchOptions{Jobs: 4}, func(done, total int) { calls = append(calls, [2]int{done, total}) })

	if len(calls) != len(dirs)+1 {
		t.Errorf("progress called %d times, want %d: %v", len(calls), len(dirs)+1, calls)
	}
	for i, c := range calls {
		if c != [2]int{i, len(dirs)} {
			t.Errorf("progress call %d = %v, want [%d %d]", i, c, i, len(dirs))
		}
	}

	type row struct {
		dir, status, reason string
		err                 bool
	}
	rows := func(s *Summary) []row {
		var out []row
		for _, m := range s.Modules {
			out = append(out, row{filepath.Base(m.Dir), m.Status().String(), m.FirstReason(), m.Err != nil})
		}
		return out
	}
	want := []row{
		{"d", "failed", "main.tf:3,1: Unsupported block type", false},
		{"b", "partial", "main.tf:2,11: Provider function not converted", false},
		{"a", "converted", "", false},
		{"e", "partial", "main.tf:2,15: Provider function not converted", false},
		{"c", "partial", "main.tf:2,11: Provider function not converted", false},
	}
	got := rows(s)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("modules:\n got %v\nwant %v", got, want)
	}
	for _, m := range s.Modules {
		if m.Err != nil {
			t.Errorf("%s: %v", m.Dir, m.Err)
		}
	}

	for _, tt := range []struct {
		st   Status
		want int
	}{{Converted, 1}, {Partial, 3}, {Failed, 1}} {
		if n := s.Count(tt.st); n != tt.want {
			t.Errorf("Count(%s) = %d, want %d", tt.st, n, tt.want)
		}
	}
	if s.Status() != Failed {
		t.Errorf("Status = %s, want failed", s.Status())
	}

	wantReasons := []ReasonCount{
		{"Provider function not converted", 4},
		{"Override file not converted", 1},
	}
	if r := s.Reasons(); !reflect.DeepEqual(r, wantReasons) {
		t.Errorf("Reasons = %v, want %v", r, wantReasons)
	}

	// One job gives the same result.
	one := Batch(dirs, BatchOptions{Jobs: 1}, nil)
	if got1 := rows(one); !reflect.DeepEqual(got1, got) {
		t.Errorf("jobs=1:\n got %v\nwant %v", got1, got)
	}
	if !reflect.DeepEqual(one.Reasons(), s.Reasons()) {
		t.Errorf("jobs=1: Reasons = %v, want %v", one.Reasons(), s.Reasons())
	}
}

func TestBatchEmpty(t *testing.T) {
	var calls [][2]int
	s := Batch(nil, BatchOptions{}, func(done, total int) { calls = append(calls, [2]int{done, total}) })
	if len(s.Modules) != 0 || s.Status() != Converted || len(s.Reasons()) != 0 {
		t.Errorf("empty batch: %+v", s)
	}
	if !reflect.DeepEqual(calls, [][2]int{{0, 0}}) {
		t.Errorf("progress calls = %v", calls)
	}
}

func TestBatchStatusOrder(t *testing.T) {
	converted := &ModuleResult{Result: &Result{}}
	failed := &ModuleResult{}
	if s := (&Summary{Modules: []*ModuleResult{converted}}); s.Status() != Converted {
		t.Errorf("all converted: %s", s.Status())
	}
	if s := (&Summary{Modules: []*ModuleResult{failed, converted}}); s.Status() != Failed {
		t.Errorf("one failed: %s", s.Status())
	}
}

// TestCheckLoads checks which CUE errors are internal errors: any in a
// module converted in full, only those that no placeholder explains in a
// module converted in part.
func TestCheckLoads(t *testing.T) {
	placeholder := "x: error(\"" + placeholderPrefix + "Provider function not converted: f()\")\n"
	partial := func(src string) *Result {
		return &Result{
			Package: "p", ModulePath: "tofucue.local/p",
			Files:       []File{{Name: "main.cue", Source: []byte("package p\n\n" + src)}},
			Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Provider function not converted"}},
		}
	}
	withTemplate := func(tmpl string) *Result {
		return &Result{
			Package: "p", ModulePath: "tofucue.local/p", Modules: []string{"m"},
			Files: []File{
				{Name: "main.cue", Source: []byte("package p\n\nmodule: a: {\n\t_mod: _module[\"m\"] & {_arg: {}}\n\t_out: _mod.x\n}\n")},
				{Name: "module_m.cue", Source: []byte("package p\n\n" + tmpl), Template: true},
			},
		}
	}
	tests := []struct {
		name    string
		res     *Result
		wantErr string
	}{
		{
			name: "complete",
			res:  &Result{Package: "p", ModulePath: "tofucue.local/p", Files: []File{{Name: "main.cue", Source: []byte("package p\n\nx: 1\n")}}},
		},
		{
			name:    "complete with a conflict",
			res:     &Result{Package: "p", ModulePath: "tofucue.local/p", Files: []File{{Name: "main.cue", Source: []byte("package p\n\nx: 1\nx: 2\n")}}},
			wantErr: "conflicting values",
		},
		{
			// The interpolation fails at the input's null default only:
			// OpenTofu plans the module with other values.
			name: "complete with an error at an input's default",
			res:  &Result{Package: "p", ModulePath: "tofucue.local/p", Files: []File{{Name: "main.cue", Source: []byte("package p\n\n_var: x: *null | string @input(x)\ny: \"a-\\(_var.x)\"\n")}}},
		},
		{
			// A data source argument null by default, which the
			// provider decides where it is computed.
			name: "complete with an error at an argument null by default",
			res:  &Result{Package: "p", ModulePath: "tofucue.local/p", Files: []File{{Name: "main.cue", Source: []byte("package p\n\nd: {r: *null | _} @data(d)\ny: \"a-\\(d.r)\"\n")}}},
		},
		{
			name:    "complete with an error for every input",
			res:     &Result{Package: "p", ModulePath: "tofucue.local/p", Files: []File{{Name: "main.cue", Source: []byte("package p\n\n_var: x: *\"b\" | string @input(x)\ny: \"a-\\(null)\\(_var.x)\"\n")}}},
			wantErr: "invalid interpolation",
		},
		{
			name:    "complete with a syntax error",
			res:     &Result{Package: "p", ModulePath: "tofucue.local/p", Files: []File{{Name: "main.cue", Source: []byte("package p\n\nx: {\n")}}},
			wantErr: "loading the converted module",
		},
		{
			// A called module's template is compiled: its references
			// must resolve.
			name:    "template with an undefined reference",
			res:     withTemplate("_module: m: {\n\tx: nope\n} @source(m)\n"),
			wantErr: `reference "nope" not found`,
		},
		{
			// A template is not evaluated: its errors at its defaults
			// are not the conversion's, and the planner evaluates its
			// instances.
			name: "template with a conflict",
			res:  withTemplate("_module: m: {\n\tx: 1 & 2\n} @source(m)\n"),
		},
		{name: "placeholder", res: partial(placeholder)},
		{name: "placeholder used", res: partial(placeholder + "y: x\nz: \"a-\\(x)\"\n")},
		{name: "placeholder and a conflict", res: partial(placeholder + "y: 1\ny: 2\n"), wantErr: "conflicting values"},
		{name: "partial with a syntax error", res: partial(placeholder + "y: {\n"), wantErr: "loading the converted module"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkLoads(tt.res)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestPlaceholderInForEach: a for_each whose expression is not converted
// makes tofu.#forEach fail, which reports the failure at the call, lines
// above the placeholder; the conversion is partial, not an internal error
// (fabric's tests/examples_e2e/setup_module).
func TestPlaceholderInForEach(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"main.tf":      "resource \"terraform_data\" \"each\" {\n  for_each = local.from_json\n  input    = each.key\n}\n",
		"more.tf.json": `{"locals": {"from_json": {"a": "x"}}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mr := Dir(dir, Options{})
	if mr.Result == nil || mr.Result.Complete() {
		t.Fatalf("want a partial conversion, got %+v", mr)
	}
	if mr.Err != nil {
		t.Errorf("the conversion with placeholders does not load: %v", mr.Err)
	}
}
