package inputs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// TestPrecedence sets variable x in every combination of sources and
// checks which one wins, as OpenTofu orders them.
func TestPrecedence(t *testing.T) {
	const decl = `variable "x" {
  type    = string
  default = "default"
}
`
	tests := []struct {
		name       string
		files      map[string]string // besides main.tf
		src        Sources
		want       string
		wantSource string // a suffix of the source
	}{
		{name: "default", want: "default", wantSource: "default"},
		{name: "env over default", src: Sources{Environ: []string{"HOME=/root", "TF_VAR_x=env"}}, want: "env", wantSource: "TF_VAR_x"},
		{name: "later env entry wins", src: Sources{Environ: []string{"TF_VAR_x=first", "TF_VAR_x=second"}}, want: "second", wantSource: "TF_VAR_x"},
		{name: "env without equals is ignored", src: Sources{Environ: []string{"TF_VAR_x"}}, want: "default", wantSource: "default"},
		{name: "auto files not read unless asked", files: map[string]string{"terraform.tfvars": `x = "tfvars"`},
			src: Sources{Environ: []string{"TF_VAR_x=env"}}, want: "env", wantSource: "TF_VAR_x"},
		{name: "terraform.tfvars over env", files: map[string]string{"terraform.tfvars": `x = "tfvars"`},
			src: Sources{Environ: []string{"TF_VAR_x=env"}, AutoFiles: true}, want: "tfvars", wantSource: "terraform.tfvars"},
		{name: "terraform.tfvars.json over terraform.tfvars", files: map[string]string{"terraform.tfvars": `x = "tfvars"`, "terraform.tfvars.json": `{"x": "json"}`},
			src: Sources{AutoFiles: true}, want: "json", wantSource: "terraform.tfvars.json"},
		{name: "auto.tfvars over terraform.tfvars.json", files: map[string]string{"terraform.tfvars.json": `{"x": "json"}`, "a.auto.tfvars": `x = "auto"`},
			src: Sources{AutoFiles: true}, want: "auto", wantSource: "a.auto.tfvars"},
		{name: "auto files in lexical order", files: map[string]string{"b.auto.tfvars": `x = "b"`, "a.auto.tfvars.json": `{"x": "a"}`, "c.auto.tfvars": `x = "c"`, "c.auto.tfvars.json": `{"x": "c-json"}`},
			src: Sources{AutoFiles: true}, want: "c-json", wantSource: "c.auto.tfvars.json"},
		{name: "other tfvars files are not auto files", files: map[string]string{"prod.tfvars": `x = "prod"`, "auto.tfvars.bak": `x = "bak"`},
			src: Sources{AutoFiles: true}, want: "default", wantSource: "default"},
		{name: "var-file over auto files", files: map[string]string{"z.auto.tfvars": `x = "auto"`, "prod.tfvars": `x = "prod"`},
			src: Sources{AutoFiles: true, VarFiles: []string{"prod.tfvars"}}, want: "prod", wantSource: "prod.tfvars"},
		{name: "var-files in order", files: map[string]string{"one.tfvars": `x = "one"`, "two.tfvars.json": `{"x": "two"}`},
			src: Sources{VarFiles: []string{"two.tfvars.json", "one.tfvars"}}, want: "one", wantSource: "one.tfvars"},
		{name: "var over auto files and env", files: map[string]string{"terraform.tfvars": `x = "tfvars"`},
			src: Sources{AutoFiles: true, Environ: []string{"TF_VAR_x=env"}, Vars: []string{"x=cli"}}, want: "cli", wantSource: "--var"},
		{name: "vars in order", src: Sources{Vars: []string{"x=one", "x=two"}}, want: "two", wantSource: "--var"},
		{name: "without Args a var beats a var-file", files: map[string]string{"f.tfvars": `x = "file"`},
			src: Sources{Vars: []string{"x=cli"}, VarFiles: []string{"f.tfvars"}}, want: "cli", wantSource: "--var"},
		{name: "Args: var-file after var wins", files: map[string]string{"f.tfvars": `x = "file"`},
			src: Sources{Args: []Arg{{Value: "x=cli"}, {File: true, Value: "f.tfvars"}}}, want: "file", wantSource: "f.tfvars"},
		{name: "Args: var after var-file wins", files: map[string]string{"f.tfvars": `x = "file"`},
			src: Sources{Args: []Arg{{File: true, Value: "f.tfvars"}, {Value: "x=cli"}}}, want: "cli", wantSource: "--var"},
		{name: "value may contain equals signs", src: Sources{Vars: []string{"x=a=b"}}, want: "a=b", wantSource: "--var"},
		{name: "empty value", src: Sources{Vars: []string{"x="}}, want: "", wantSource: "--var"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"main.tf": decl}
			for k, v := range tc.files {
				files[k] = v
			}
			m := loadModule(t, files)
			src := tc.src
			for i, f := range src.VarFiles {
				src.VarFiles[i] = filepath.Join(m.Dir, f)
			}
			for i, a := range src.Args {
				if a.File {
					src.Args[i].Value = filepath.Join(m.Dir, a.Value)
				}
			}
			got, diags := Collect(m, src)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			in := got["x"]
			sameValue(t, in.Value, str(tc.want))
			if !strings.HasSuffix(in.Source, tc.wantSource) || in.Synthesized {
				t.Errorf("source %q (synthesized %v), want %q", in.Source, in.Synthesized, tc.wantSource)
			}
		})
	}
}

// TestFlagValue keeps the order of interleaved --var and --var-file
// options.
func TestFlagValue(t *testing.T) {
	var src Sources
	vars, files := src.VarFlag(), src.VarFileFlag()
	for _, step := range []struct {
		f *FlagValue
		v string
	}{{files, "a.tfvars"}, {vars, "x=1"}, {files, "b.tfvars"}} {
		if err := step.f.Set(step.v); err != nil {
			t.Fatal(err)
		}
	}
	want := []Arg{{File: true, Value: "a.tfvars"}, {Value: "x=1"}, {File: true, Value: "b.tfvars"}}
	if len(src.Args) != len(want) {
		t.Fatalf("args %v", src.Args)
	}
	for i := range want {
		if src.Args[i] != want[i] {
			t.Errorf("arg %d = %v, want %v", i, src.Args[i], want[i])
		}
	}
	if vars.String() != "x=1" || files.String() != "a.tfvars,b.tfvars" || vars.Type() == "" {
		t.Errorf("String: %q %q", vars.String(), files.String())
	}
}

// TestParsing checks how --var and TF_VAR_ values are read for each kind of
// type constraint, and .tfvars.json values.
func TestParsing(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `
variable "untyped" {}
variable "str" {
  type = string
}
variable "n" {
  type = number
}
variable "flag" {
  type = bool
}
variable "ids" {
  type = list(string)
}
variable "tags" {
  type = map(string)
}
variable "anything" {
  type = any
}
variable "cfg" {
  type = object({ name = string, size = optional(number, 1) })
}
variable "legacy_list" {
  type = list
}
`})
	tests := []struct {
		name  string
		src   Sources
		v     string
		want  cty.Value
		files map[string]string
	}{
		{name: "untyped is a literal string", src: Sources{Vars: []string{`untyped=[1, 2]`}}, v: "untyped", want: str("[1, 2]")},
		{name: "string is literal", src: Sources{Vars: []string{`str=["a"]`}}, v: "str", want: str(`["a"]`)},
		{name: "string keeps quotes", src: Sources{Vars: []string{`str="quoted"`}}, v: "str", want: str(`"quoted"`)},
		{name: "number from literal", src: Sources{Vars: []string{`n=15`}}, v: "n", want: num(15)},
		{name: "bool from literal", src: Sources{Environ: []string{`TF_VAR_flag=true`}}, v: "flag", want: cty.True},
		{name: "list from expression", src: Sources{Vars: []string{`ids=["a", 1]`}}, v: "ids", want: cty.ListVal(strs("a", "1"))},
		{name: "list from env expression", src: Sources{Environ: []string{`TF_VAR_ids=["x","y"]`}}, v: "ids", want: cty.ListVal(strs("x", "y"))},
		{name: "map from expression", src: Sources{Vars: []string{`tags={ env = "prod", "team-name" = 7 }`}}, v: "tags",
			want: cty.MapVal(obj{"env": str("prod"), "team-name": str("7")})},
		{name: "map from multi-line env expression", src: Sources{Environ: []string{"TF_VAR_tags={\n  a = \"1\"\n  b = \"2\"\n}"}}, v: "tags",
			want: cty.MapVal(obj{"a": str("1"), "b": str("2")})},
		{name: "any reads an expression", src: Sources{Vars: []string{`anything=[1, "x"]`}}, v: "anything", want: cty.TupleVal([]cty.Value{num(1), str("x")})},
		{name: "any reads a quoted string", src: Sources{Vars: []string{`anything="x"`}}, v: "anything", want: str("x")},
		{name: "object with defaults", src: Sources{Vars: []string{`cfg={name = "a"}`}}, v: "cfg", want: cty.ObjectVal(obj{"name": str("a"), "size": num(1)})},
		{name: "bare list keyword reads an expression", src: Sources{Vars: []string{`legacy_list=["a"]`}}, v: "legacy_list", want: cty.ListVal(strs("a"))},
		{name: "null from an expression", src: Sources{Vars: []string{`ids=null`}}, v: "ids", want: cty.NullVal(cty.List(cty.String))},
		{name: "json file", files: map[string]string{"v.tfvars.json": `{"ids": ["a", 1, true], "cfg": {"name": "n", "size": 3}}`}, v: "ids",
			want: cty.ListVal(strs("a", "1", "true"))},
		{name: "json strings are literal", files: map[string]string{"v.tfvars.json": `{"str": "${var.x} %{ if }"}`}, v: "str", want: str("${var.x} %{ if }")},
		{name: "json detected by its brace", files: map[string]string{"vars": ` {"n": 3}`}, v: "n", want: num(3)},
		{name: "hcl file without tfvars extension", files: map[string]string{"vars.txt": `n = 4`}, v: "n", want: num(4)},
		{name: "tfvars heredoc", files: map[string]string{"v.tfvars": "str = <<EOT\nline\nEOT\n"}, v: "str", want: str("line\n")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			if tc.files != nil {
				dir := t.TempDir()
				for name, text := range tc.files {
					p := filepath.Join(dir, name)
					if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
					src.VarFiles = append(src.VarFiles, p)
				}
			}
			src.Synthesize = true // the other variables are not the point here
			got, diags := Collect(m, src)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			sameValue(t, got[tc.v].Value, tc.want)
			if got[tc.v].Synthesized {
				t.Errorf("%s was synthesized", tc.v)
			}
		})
	}
}

// TestBadInput gives malformed values and files: each is a diagnostic with
// a position where there is one, never a panic.
func TestBadInput(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `
variable "ids" {
  type    = list(string)
  default = []
}
variable "n" {
  type    = number
  default = 0
}
`})
	tests := []struct {
		name    string
		src     Sources
		files   map[string]string
		summary string
		file    string // the subject's file name (base), "" for none
		line    int
		column  int
	}{
		{name: "var syntax error", src: Sources{Vars: []string{`ids=["a",`}}, summary: "Missing expression", file: "<value for var.ids>", line: 1, column: 6},
		{name: "var syntax error on a later line", src: Sources{Vars: []string{"ids=[\n\"a\"\n\"b\"]"}}, summary: "Missing item separator", file: "<value for var.ids>", line: 3, column: 1},
		{name: "var refers to a variable", src: Sources{Vars: []string{`ids=[var.x]`}}, summary: "Variables not allowed", file: "<value for var.ids>", line: 1, column: 2},
		{name: "var calls a function", src: Sources{Vars: []string{`ids=concat([])`}}, summary: "Function calls not allowed", file: "<value for var.ids>", line: 1, column: 1},
		{name: "env syntax error", src: Sources{Environ: []string{`TF_VAR_ids={`}}, summary: "Missing expression", file: "<value for var.ids>", line: 1, column: 2},
		{name: "var without equals", src: Sources{Vars: []string{`ids`}}, summary: "Invalid --var option"},
		{name: "var name with trailing space", src: Sources{Vars: []string{`ids = ["a"]`}}, summary: "Invalid --var option"},
		{name: "var of the wrong type", src: Sources{Vars: []string{`n=abc`}}, summary: "Invalid value for input variable", file: "main.tf", line: 6, column: 1},
		{name: "tfvars syntax error", files: map[string]string{"bad.tfvars": "n = 1\nids = [\n"}, summary: "Missing expression", file: "bad.tfvars", line: 3, column: 1},
		{name: "tfvars unclosed string", files: map[string]string{"bad.tfvars": "n = \"abc\n"}, summary: "Unterminated template string", file: "bad.tfvars", line: 1, column: 9},
		{name: "tfvars variable block", files: map[string]string{"bad.tfvars": "variable \"n\" {\n  default = 1\n}\n"}, summary: "Variable declaration in .tfvars file", file: "bad.tfvars", line: 1, column: 1},
		{name: "tfvars other block", files: map[string]string{"bad.tfvars": "n = 1\nlocals {\n}\n"}, summary: "Unexpected \"locals\" block", file: "bad.tfvars", line: 2, column: 1},
		{name: "tfvars reference", files: map[string]string{"bad.tfvars": "n = local.x\n"}, summary: "Variables not allowed", file: "bad.tfvars", line: 1, column: 5},
		{name: "tfvars wrong type", files: map[string]string{"bad.tfvars": "\n  n = [1]\n"}, summary: "Invalid value for input variable", file: "bad.tfvars", line: 2, column: 7},
		{name: "json syntax error", files: map[string]string{"bad.tfvars.json": "{\"n\": }"}, summary: "Missing JSON value", file: "bad.tfvars.json", line: 1, column: 7},
		{name: "json not an object", files: map[string]string{"bad.tfvars.json": "[1]"}, summary: "Incorrect JSON value type", file: "bad.tfvars.json", line: 1, column: 1},
		{name: "missing file", src: Sources{VarFiles: []string{"/nonexistent/x.tfvars"}}, summary: "Failed to read variables file"},
		{name: "directory as file", files: map[string]string{"d.auto.tfvars/x": ""}, summary: "Failed to read variables file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			if tc.files != nil {
				dir := t.TempDir()
				for name, text := range tc.files {
					p := filepath.Join(dir, filepath.FromSlash(name))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
					top := filepath.Join(dir, strings.Split(name, "/")[0])
					src.VarFiles = append(src.VarFiles, top)
				}
			}
			got, diags := Collect(m, src)
			var found *hcl.Diagnostic
			for _, d := range diags {
				if d.Severity == hcl.DiagError && d.Summary == tc.summary {
					found = d
					break
				}
			}
			if found == nil {
				t.Fatalf("no error %q in %v", tc.summary, diags)
			}
			if tc.file == "" {
				if found.Subject != nil {
					t.Errorf("subject %v, want none", found.Subject)
				}
			} else if found.Subject == nil || filepath.Base(found.Subject.Filename) != tc.file || found.Subject.Start.Line != tc.line || found.Subject.Start.Column != tc.column {
				t.Errorf("subject %v, want %s:%d,%d", found.Subject, tc.file, tc.line, tc.column)
			}
			if len(got) != 2 {
				t.Errorf("got %d inputs, want every declared variable", len(got))
			}
		})
	}
}

// TestUndeclared checks OpenTofu's treatment of values for variables that
// the module does not declare.
func TestUndeclared(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `variable "x" {
  default = "d"
}`})
	t.Run("var is an error", func(t *testing.T) {
		_, diags := Collect(m, Sources{Vars: []string{"y=1"}})
		want := `Value for undeclared variable: A variable named "y" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`
		if errs := errorsOf(diags); len(errs) != 1 || errs[0] != want {
			t.Errorf("errors %q", errs)
		}
	})
	t.Run("env is ignored", func(t *testing.T) {
		_, diags := Collect(m, Sources{Environ: []string{"TF_VAR_y=1", "TF_VAR_z=[unparsable"}})
		if len(diags) != 0 {
			t.Errorf("diagnostics %v", diags)
		}
	})
	t.Run("files give warnings", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "a.tfvars")
		if err := os.WriteFile(p, []byte("x = \"1\"\nb = 1\na = 2\nc = 3\nd = 4\nbad = var.q\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, diags := Collect(m, Sources{VarFiles: []string{p}})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		warns := warningsOf(diags)
		if len(warns) != 3 {
			t.Fatalf("warnings %q", warns)
		}
		wantFirst := `Value for undeclared variable: The root module does not declare a variable named "a" but a value was found in file "` + p + `". If you meant to use this value, add a "variable" block to the configuration.` +
			"\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization."
		if warns[0] != wantFirst {
			t.Errorf("first warning\n%q\nwant\n%q", warns[0], wantFirst)
		}
		if !strings.Contains(warns[1], `named "b"`) {
			t.Errorf("second warning %q", warns[1])
		}
		if warns[2] != "Values for undeclared variables: In addition to the other similar warnings shown, 2 other variable(s) defined without being declared." {
			t.Errorf("summary warning %q", warns[2])
		}
		if d := diags[0]; d.Subject == nil || d.Subject.Start.Line != 3 {
			t.Errorf("warning subject %v, want line 3 of the file", d.Subject)
		}
		if len(got) != 1 || got["x"].Value.AsString() != "1" {
			t.Errorf("inputs %v", got)
		}
	})
}

// TestRequired checks a required variable without a value, with and
// without synthesis.
func TestRequired(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `variable "region" {
  type = string
}
variable "zones" {
  type = list(string)
}
variable "size" {
  type    = number
  default = 3
}
`})
	got, diags := Collect(m, Sources{Vars: []string{"zones=[\"a\"]"}})
	want := `No value for required variable: The root module input variable "region" is not set, and has no default value. Use a --var or --var-file command line argument to provide a value for this variable.`
	if errs := errorsOf(diags); len(errs) != 1 || errs[0] != want {
		t.Fatalf("errors %q", errs)
	}
	if d := diags[0]; d.Subject == nil || *d.Subject != m.Variables["region"].DeclRange() {
		t.Errorf("subject %v", d.Subject)
	}
	if r := got["region"]; r == nil || r.Value.IsKnown() || r.Value.Type() != cty.String || r.Source != "" {
		t.Errorf("region %#v", r)
	}
	if s := got["size"]; s.Source != "default" || !s.Value.RawEquals(num(3)) {
		t.Errorf("size %#v", s)
	}

	got, diags = Collect(m, Sources{Vars: []string{"zones=[\"a\"]"}, Synthesize: true})
	if len(diags) != 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	r := got["region"]
	if !r.Synthesized || r.Source != "synthesized" || !r.Value.RawEquals(str("region")) {
		t.Errorf("region %#v", r)
	}
	if z := got["zones"]; z.Synthesized || z.Source != "--var" {
		t.Errorf("zones %#v", z)
	}
	if s := got["size"]; s.Synthesized || s.Source != "default" {
		t.Errorf("size %#v", s)
	}
}

// TestNullable checks null values against nullable and defaults, from a
// file and from the command line.
func TestNullable(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `
variable "nullable_default" {
  type    = list(string)
  default = ["d"]
}
variable "strict_default" {
  type     = list(string)
  default  = ["d"]
  nullable = false
}
variable "strict_required" {
  type     = list(string)
  nullable = false
}
variable "nullable_required" {
  type = list(string)
}
variable "strict_object" {
  type     = object({ a = optional(string, "x") })
  default  = {}
  nullable = false
}
`})
	dir := t.TempDir()
	p := filepath.Join(dir, "null.tfvars")
	text := "nullable_default = null\nstrict_default = null\nnullable_required = null\nstrict_object = null\nstrict_required = null\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got, diags := Collect(m, Sources{VarFiles: []string{p}})
	wantErr := "Required variable not set: The given value is not suitable for var.strict_required defined at " + m.Variables["strict_required"].DeclRange().String() + ": required variable may not be set to null."
	if errs := errorsOf(diags); len(errs) != 1 || errs[0] != wantErr {
		t.Fatalf("errors %q", errs)
	}
	if d := diags[0]; d.Subject == nil || d.Subject.Start.Line != 5 || filepath.Base(d.Subject.Filename) != "null.tfvars" {
		t.Errorf("subject %v", d.Subject)
	}
	sameValue(t, got["nullable_default"].Value, cty.NullVal(cty.List(cty.String)))
	sameValue(t, got["strict_default"].Value, cty.ListVal(strs("d")))
	sameValue(t, got["nullable_required"].Value, cty.NullVal(cty.List(cty.String)))
	sameValue(t, got["strict_object"].Value, cty.ObjectVal(obj{"a": str("x")}))

	_, diags = Collect(m, Sources{Vars: []string{"strict_required=null", "nullable_required=[]"}})
	wantErr = `Required variable not set: Unsuitable value for var.strict_required set using --var="strict_required=...": required variable may not be set to null.`
	if errs := errorsOf(diags); len(errs) != 1 || errs[0] != wantErr {
		t.Fatalf("errors %q", errs)
	}
	_, diags = Collect(m, Sources{Environ: []string{"TF_VAR_strict_required=null", "TF_VAR_nullable_required=[]"}})
	wantErr = `Required variable not set: Unsuitable value for var.strict_required set using the TF_VAR_strict_required environment variable: required variable may not be set to null.`
	if errs := errorsOf(diags); len(errs) != 1 || errs[0] != wantErr {
		t.Fatalf("errors %q", errs)
	}
}

// TestSensitive checks that sensitive values are left unmarked and that a
// conversion error does not show them.
func TestSensitive(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `variable "password" {
  type      = string
  sensitive = true
}
variable "pin" {
  type      = number
  sensitive = true
  default   = 1
}
`})
	got, diags := Collect(m, Sources{Vars: []string{"password=hunter2"}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if v := got["password"].Value; v.IsMarked() || v.AsString() != "hunter2" {
		t.Errorf("password %#v", v)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "s.tfvars")
	if err := os.WriteFile(p, []byte("password = \"x\"\npin = \"1234x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags = Collect(m, Sources{VarFiles: []string{p}})
	errs := errorsOf(diags)
	if len(errs) != 1 || strings.Contains(errs[0], "1234x") || !strings.Contains(errs[0], "which is sensitive: a number is required. Invalid value defined at "+p+":2,7-14.") {
		t.Fatalf("errors %q", errs)
	}
	if d := diags[0]; *d.Subject != m.Variables["pin"].DeclRange() {
		t.Errorf("subject %v, want the declaration", d.Subject)
	}
}

// TestFilesRecorded checks that the sources of read files and parsed
// values are handed back for snippets.
func TestFilesRecorded(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `variable "ids" {
  type = list(string)
}`, "terraform.tfvars": `ids = ["a"]`})
	files := map[string][]byte{}
	_, diags := Collect(m, Sources{AutoFiles: true, Vars: []string{`ids=["b"]`}, Files: files})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if string(files[filepath.Join(m.Dir, "terraform.tfvars")]) != `ids = ["a"]` || string(files["<value for var.ids>"]) != `["b"]` {
		t.Errorf("files %q", files)
	}
}
