package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		name     string
		src      string
		want     Counts
		template bool
	}{
		{
			name: "auto commas are not tokens",
			src:  "a: 1\nb: 2\n",
			want: Counts{Lines: 2, Tokens: 6},
		},
		{
			name: "typed commas are",
			src:  "a: 1, b: 2\n",
			want: Counts{Lines: 1, Tokens: 7},
		},
		{
			name: "every line counts, a last one without newline too",
			src:  "a: 1\n\n// c\n\nb: 2",
			want: Counts{Lines: 5, Tokens: 6},
		},
		{
			name: "bottom",
			src:  "a: x == _|_\nb: [if y != _|_ {1}]\n",
			want: Counts{Lines: 2, Tokens: 16, Bottom: 2},
		},
		{
			name: "constructs in comments",
			src:  "// a == _|_\na: 1 // _|_ 'error' [a][0]\n",
			want: Counts{Lines: 2, Tokens: 3},
		},
		{
			name: "error probe",
			src:  "a: (*x | 'error') & string\n",
			want: Counts{Lines: 1, Tokens: 10, Error: 1},
		},
		{
			name: "'error' in double quotes, and other strings",
			src:  "a: \"'error'\"\nb: \"error\"\nc: 'error '\nd: #'error'#\n",
			want: Counts{Lines: 4, Tokens: 12},
		},
		{
			name: "index by 0 of a reference",
			src:  "a: x[0]\nb: x.y[0]\n",
			want: Counts{Lines: 2, Tokens: 14},
		},
		{
			name: "index by 0 of a list literal",
			src:  "a: [b][0]\nc: [if d {1}][0]\ne: [[b][0]][0]\nf: {x: [[1], 2][0]}\n",
			want: Counts{Lines: 4, Tokens: 49, Index0: 5},
		},
		{
			name: "index by 0 of an index, a slice or a string",
			src:  "a: x[1][0]\nb: x[k][0][0]\nc: x[1:2][0]\nd: {a: [1]}[\"a\"][0]\n",
			want: Counts{Lines: 4, Tokens: 47},
		},
		{
			name: "other indexes after a bracket",
			src:  "a: [b][1]\nc: [b][0.0]\nd: [b] [x]\n",
			want: Counts{Lines: 3, Tokens: 24},
		},
		{
			name: "index by 0 after a parenthesis",
			src:  "a: (b)[0]\n",
			want: Counts{Lines: 1, Tokens: 8},
		},
		{
			name: "an interpolation: its segments are a token each",
			src:  "a: \"x \\(b) y\"\n",
			want: Counts{Lines: 1, Tokens: 5},
		},
		{
			name: "constructs inside interpolations, not in their text",
			src:  "a: \"_|_ \\((b)[0]) 'error' \\([c][0] | _|_) ][0]\"\n",
			want: Counts{Lines: 1, Tokens: 19, Bottom: 1, Index0: 1},
		},
		{
			name: "nested interpolations",
			src:  "a: \"x \\(\"y \\(_|_) z\") w\"\n",
			want: Counts{Lines: 1, Tokens: 7, Bottom: 1},
		},
		{
			name: "multi-line strings",
			src:  "a: \"\"\"\n\t_|_ 'error' [a][0]\n\t\"\"\"\nb: '''\n\tx\n\t'''\n",
			want: Counts{Lines: 6, Tokens: 6},
		},
		{
			name: "attributes are a token each",
			src:  "a: 1 @resource(aws_vpc.main[*])\n",
			want: Counts{Lines: 1, Tokens: 4},
		},
		{
			name:     "a template",
			src:      "package p\n\nimport (\n\t\"list\"\n\tt \"x.local/p/tofu\"\n)\n\n_module: {\n\t// The module in m.\n\t\"m\": {}\n}\n",
			want:     Counts{Lines: 11, Tokens: 16},
			template: true,
		},
		{
			name:     "a template, one import",
			src:      "package p\nimport \"list\"\n_module: \"m\": x: list.Sum([1])\n",
			want:     Counts{Lines: 3, Tokens: 18},
			template: true,
		},
		{
			name: "_module later",
			src:  "package p\n\na: 1\n_module: {}\n",
			want: Counts{Lines: 4, Tokens: 9},
		},
		{
			name: "fields named package and import",
			src:  "package: 1\nimport: 2\n_module: {}\n",
			want: Counts{Lines: 3, Tokens: 10},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, template, err := Count("x.cue", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want || template != tc.template {
				t.Errorf("Count(%q) = %+v, template %v; want %+v, template %v", tc.src, got, template, tc.want, tc.template)
			}
		})
	}
}

func TestCountError(t *testing.T) {
	if _, _, err := Count("x.cue", []byte("a: \"b\n")); err == nil || !strings.Contains(err.Error(), "x.cue:1:") {
		t.Errorf("Count of an unterminated string: error %v; want one at x.cue:1", err)
	}
}

// write writes files (by slash-separated path) below dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMeasure(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	write(t, src, map[string]string{
		"root/main.tf":            "a\nb\nc\nd\n",
		"root/x.tofu":             "e\nf",
		"root/x.tf":               "hidden by x.tofu\n",
		"root/override.tf":        "not counted\n",
		"root/notes.txt":          "not configuration\n",
		"root/child/main.tf":      "a\nb\n",
		"root/child/vars.tf.json": "{\n}\n",
	})
	write(t, out, map[string]string{
		"root/cue.mod/module.cue":        "module: \"x.local/root\"\nlanguage: version: \"v0.9.0\"\n",
		"root/cue.mod/hcl2cue-files.txt": "// Written by hcl2cue convert.\n",
		"root/main.cue":                  "package root\n\na: [b][0]\nc: _|_\n",
		"root/x.cue":                     "package root\n\nd: (*e | 'error')\n",
		"root/module_child.cue":          "package root\n\n_module: \"child\": [x][0]\n",
		"root/tofu/core.cue":             "package tofu\n\n#f: [_|_][0]\n",
		"root/child/cue.mod/module.cue":  "module: \"x.local/child\"\n",
		"root/child/main.cue":            "package child\n\nx: 1\n",
		"root/child/tofu/core.cue":       "package tofu\n",
		"root/child/data/embedded.json":  "{}\n",
	})
	mods, err := Measure(out, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Module{
		{
			Path:      "root",
			HCLLines:  6,
			Own:       Counts{Lines: 7, Tokens: 23, Bottom: 1, Error: 1, Index0: 1},
			Templates: Counts{Lines: 3, Tokens: 12, Index0: 1},
			Library:   Counts{Lines: 3, Tokens: 10, Bottom: 1, Index0: 1},
		},
		{
			Path:     "root/child",
			HCLLines: 4,
			Own:      Counts{Lines: 3, Tokens: 5},
			Library:  Counts{Lines: 1, Tokens: 2},
		},
	}
	if len(mods) != len(want) {
		t.Fatalf("Measure found %d modules; want %d", len(mods), len(want))
	}
	for i, m := range mods {
		if *m != want[i] {
			t.Errorf("module %d = %+v\nwant %+v", i, *m, want[i])
		}
	}

	// A .cue file outside every module is an error, and so is a module
	// without HCL source.
	write(t, out, map[string]string{"stray/a.cue": "a: 1\n"})
	if _, err := Measure(out, src, nil); err == nil || !strings.Contains(err.Error(), "not in a converted module") {
		t.Errorf("Measure with a stray file: error %v", err)
	}
	if err := os.RemoveAll(filepath.Join(out, "stray")); err != nil {
		t.Fatal(err)
	}
	write(t, out, map[string]string{"gone/cue.mod/module.cue": "module: \"x.local/gone\"\n"})
	if _, err := Measure(out, src, nil); err == nil {
		t.Errorf("Measure with a module without source: no error")
	}
}

func TestSummarize(t *testing.T) {
	mods := []*Module{
		{Path: "a", HCLLines: 10, Own: Counts{Lines: 10, Bottom: 1}},                                                  // ratio 1, 10 per 100
		{Path: "b", HCLLines: 10, Own: Counts{Lines: 30, Error: 3, Index0: 3}, Library: Counts{Lines: 40, Index0: 4}}, // 3, 20 per 100
		{Path: "c", HCLLines: 10, Own: Counts{Lines: 20}, Templates: Counts{Lines: 20, Bottom: 2}},                    // 2, 0 per 100
		{Path: "d", HCLLines: 10, Own: Counts{Lines: 40, Bottom: 4}},                                                  // 4, 10 per 100
	}
	s := Summarize(mods, 3)
	if s.MedianRatio != 2.5 {
		t.Errorf("median ratio %v; want 2.5", s.MedianRatio)
	}
	if got := Summarize(mods[:3], 0).MedianRatio; got != 2 {
		t.Errorf("median ratio of three %v; want 2", got)
	}
	if s.Own.Lines != 100 || s.All.Lines != 160 || s.All.Constructs() != 17 {
		t.Errorf("own %+v, all %+v", s.Own, s.All)
	}
	if s.OwnRate.Total != 11 || s.AllRate.Bottom != 100*7.0/160 {
		t.Errorf("rates %+v, %+v", s.OwnRate, s.AllRate)
	}
	var worst []string
	for _, m := range s.Worst {
		worst = append(worst, m.Path)
	}
	// b first; a and d tie on 10 per 100, d with more constructs.
	if got := strings.Join(worst, " "); got != "b d a" {
		t.Errorf("worst %s; want b d a", got)
	}
}

// TestKeep checks that Keep leaves the declarations it is given, by
// their attribute's name (a trailing [*] aside), inside their
// namespaces, and drops the others, the fields of no declaration and
// the namespaces left empty.
func TestKeep(t *testing.T) {
	src := `package m

import "tofucue.local/m/tofu"

// The CIDR.
_var_cidr: string @input(cidr)
_var_other: bool @input(other)
_local_x: 1
aws_vpc: {
	main: {cidr_block: _var_cidr} @resource(aws_vpc.main)
	other: {} @resource(aws_vpc.other)
}
aws_subnet: {
	main: [for x in [1] {vpc_id: aws_vpc.main.id}] @resource(aws_subnet.main[*])
}
output: {
	id: aws_vpc.main.id @output(id)
	gone: (tofu.#one & {#args: [[]]}).out @output(gone)
}
_terraform: {required_version: ">= 1.6"} @terraform()
`
	got, err := Keep("m.cue", []byte(src), map[string]bool{"cidr": true, "aws_vpc.main": true, "id": true})
	if err != nil {
		t.Fatal(err)
	}
	want := `package m

import "tofucue.local/m/tofu"

// The CIDR.
_var_cidr: string @input(cidr)
aws_vpc: {
	main: {cidr_block: _var_cidr} @resource(aws_vpc.main)
}
output: {
	id: aws_vpc.main.id @output(id)
}
`
	if string(got) != want {
		t.Errorf("Keep:\n%s\nwant:\n%s", got, want)
	}
	if got, _ := Keep("m.cue", []byte(src), map[string]bool{"aws_subnet.main": true}); !strings.Contains(string(got), "@resource(aws_subnet.main[*])") {
		t.Errorf("Keep of aws_subnet.main lost the declaration with [*]:\n%s", got)
	}
	if _, err := Keep("m.cue", []byte("a: {"), nil); err == nil {
		t.Error("Keep of CUE that does not parse gave no error")
	}
}
