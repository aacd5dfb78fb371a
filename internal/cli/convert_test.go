package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/tofucue/tofucue/convert"
)

// partialModule calls a provider-defined function, which hcl2cue never
// converts.
const partialModule = "output \"arn\" {\n  value = provider::aws::arn_parse(\"x\")\n}\n"

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// readFile returns the content of path, failing the test when it cannot
// be read.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestConvertSingle(t *testing.T) {
	root := writeTree(t, map[string]string{
		"clean/main.tf":   cleanModule,
		"partial/main.tf": partialModule,
		"broken/main.tf":  brokenModule,
		"notes/README.md": "",
		"computed/main.tf": `resource "google_x" "u" {
  spec {
    a = "x"
  }
}

locals {
  e = coalesce(try(google_x.u.spec[0].eff, null), try(google_x.u.spec[0].other, null))
}

output "e" {
  value = local.e
}
`,
	})
	j := func(parts ...string) string { return filepath.Join(append([]string{root}, parts...)...) }

	t.Run("stdout is a txtar archive", func(t *testing.T) {
		code, stdout, stderr := run(t, hcl2cue, "convert", j("clean"))
		checkRun(t, code, stdout, stderr, ExitOK, nil, nil)
		if stderr != "" {
			t.Errorf("stderr: %s", stderr)
		}
		a := txtar.Parse([]byte(stdout))
		var names []string
		files := map[string]string{}
		for _, f := range a.Files {
			names = append(names, f.Name)
			files[f.Name] = string(f.Data)
		}
		if strings.Join(names, " ") != "main.cue cue.mod/module.cue" {
			t.Errorf("archive files = %v", names)
		}
		if !strings.Contains(files["main.cue"], "package clean") || !strings.Contains(files["main.cue"], "@input(region)") || !strings.Contains(files["main.cue"], "@output(region)") {
			t.Errorf("main.cue:\n%s", files["main.cue"])
		}
		if !strings.HasPrefix(files["cue.mod/module.cue"], convert.Marker) {
			t.Errorf("cue.mod/module.cue:\n%s", files["cue.mod/module.cue"])
		}
	})

	t.Run("-o writes the CUE module", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		for range 2 { // the second run replaces the first's output
			code, stdout, stderr := run(t, hcl2cue, "convert", "-o", out, j("clean"))
			checkRun(t, code, stdout, stderr, ExitOK, nil, nil)
			if stdout != "" || stderr != "" {
				t.Errorf("output:\n%s\n%s", stdout, stderr)
			}
		}
		if mod := readFile(t, filepath.Join(out, "cue.mod", "module.cue")); !strings.HasPrefix(mod, convert.Marker) || !strings.Contains(mod, `"tofucue.local/clean@v0"`) {
			t.Errorf("cue.mod/module.cue:\n%s", mod)
		}
		if src := readFile(t, filepath.Join(out, "main.cue")); !strings.Contains(src, "@input(region)") {
			t.Errorf("main.cue:\n%s", src)
		}
	})

	wantDiag := []string{
		"Error: Provider function not converted\n",
		"  on " + j("partial", "main.tf") + " line 2",
		`   2:   value = provider::aws::arn_parse("x")`,
	}

	t.Run("partial writes nothing", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := run(t, hcl2cue, "convert", "-o", out, j("partial"))
		checkRun(t, code, stdout, stderr, ExitFindings, nil, append(wantDiag, "hcl2cue: 1 construct not converted; nothing written (--allow-partial"))
		if exists(out) {
			t.Errorf("%s was written", out)
		}
		code, stdout, stderr = run(t, hcl2cue, "convert", j("partial"))
		checkRun(t, code, stdout, stderr, ExitFindings, nil, wantDiag)
		if stdout != "" {
			t.Errorf("stdout:\n%s", stdout)
		}
	})

	t.Run("partial with --allow-partial", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := run(t, hcl2cue, "convert", "--allow-partial", "-o", out, j("partial"))
		checkRun(t, code, stdout, stderr, ExitFindings, nil, append(wantDiag, "hcl2cue: 1 construct not converted; written with placeholders"))
		if src := readFile(t, filepath.Join(out, "main.cue")); !strings.Contains(src, `error("hcl2cue: not converted: Provider function not converted`) {
			t.Errorf("main.cue:\n%s", src)
		}
		if !exists(filepath.Join(out, "cue.mod", "module.cue")) {
			t.Errorf("no cue.mod/module.cue")
		}
		code, stdout, stderr = run(t, hcl2cue, "convert", "--allow-partial", j("partial"))
		checkRun(t, code, stdout, stderr, ExitFindings, []string{"-- main.cue --\n", `error("hcl2cue: not converted:`}, wantDiag)
	})

	t.Run("loading error", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := run(t, hcl2cue, "convert", "-o", out, j("broken"))
		checkRun(t, code, stdout, stderr, ExitError, nil, []string{
			"Error: Unsupported block type\n",
			`   3: resources "aws_instance" "web" {}`,
			"hcl2cue: " + j("broken") + ": the module does not load; nothing converted",
		})
		if exists(out) || stdout != "" {
			t.Errorf("wrote %q or printed:\n%s", out, stdout)
		}
	})

	t.Run("refuses to replace another directory", func(t *testing.T) {
		out := t.TempDir()
		keep := filepath.Join(out, "keep.txt")
		if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := run(t, hcl2cue, "convert", "-o", out, j("clean"))
		checkRun(t, code, stdout, stderr, ExitError, nil, []string{"was not written by hcl2cue"})
		if readFile(t, keep) != "mine" || exists(filepath.Join(out, "main.cue")) {
			t.Errorf("%s was changed", out)
		}
	})

	t.Run("fails without a plan, plans", func(t *testing.T) {
		// Without a plan, google_x.u.spec[0].eff is missing, so both
		// tries give null and coalesce fails; in a plan it is unknown.
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := run(t, hcl2cue, "convert", "-o", out, j("computed"))
		checkRun(t, code, stdout, stderr, ExitOK, nil, []string{
			"Warning: Converted module checked by planning it",
			"index out of range",
		})
		if src := readFile(t, filepath.Join(out, "main.cue")); !strings.Contains(src, "_local_e:") {
			t.Errorf("main.cue:\n%s", src)
		}
	})

	runCases(t, hcl2cue, []cliCase{
		{name: "not a module directory", args: []string{"convert", j("notes")}, code: ExitError, stderr: []string{"not a module directory", j("notes", "...") + " converts"}},
		{name: "missing directory", args: []string{"convert", j("nope")}, code: ExitError, stderr: []string{"no such file or directory"}},
		{name: "a file", args: []string{"convert", j("clean", "main.tf")}, code: ExitError, stderr: []string{"not a directory"}},
		{name: "help", args: []string{"convert", "--help"}, code: ExitOK, stdout: []string{"--allow-partial", "--jobs", "Exit status: 0"}},
	})
}

// batchTree is a tree of three modules, one of them converted in part.
func batchTree(t *testing.T) string {
	return writeTree(t, map[string]string{
		"net/main.tf":         cleanModule,
		"net/sub/main.tf":     "output \"x\" {\n  value = 1\n}\n",
		"storage/main.tf":     partialModule,
		"docs/README.md":      "",
		".terraform/m/old.tf": partialModule, // hidden: skipped
	})
}

func TestConvertBatch(t *testing.T) {
	root := batchTree(t)
	wantSummary := "STATUS     MODULES\n" +
		"converted  2\n" +
		"partial    1\n" +
		"failed     0\n" +
		"total      3\n" +
		"\n" +
		"REASON                           CONSTRUCTS\n" +
		"Provider function not converted  1\n" +
		"\n" +
		"MODULE   STATUS     HCL  CUE  NOT CONVERTED\n" +
		"net      converted  7    7\n" +
		"net/sub  converted  3    5\n" +
		"storage  partial    3    5    main.tf:2,11: Provider function not converted\n"

	t.Run("no output directory", func(t *testing.T) {
		var first string
		for _, jobs := range []string{"1", "4"} {
			code, stdout, stderr := run(t, hcl2cue, "convert", "--jobs", jobs, root+"/...")
			checkRun(t, code, stdout, stderr, ExitFindings, nil, nil)
			if stdout != wantSummary {
				t.Errorf("jobs %s: summary:\n%s\nwant:\n%s", jobs, stdout, wantSummary)
			}
			if stderr != "" {
				t.Errorf("jobs %s: stderr (not a terminal):\n%s", jobs, stderr)
			}
			if first == "" {
				first = stdout
			} else if stdout != first {
				t.Errorf("jobs %s gives another summary:\n%s\nthan jobs 1:\n%s", jobs, stdout, first)
			}
		}
	})

	t.Run("-o writes the modules converted in full", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := run(t, hcl2cue, "convert", "-o", out, root+"/...")
		checkRun(t, code, stdout, stderr, ExitFindings, []string{
			wantSummary,
			"\nwrote 2 modules to " + out + "\n",
			"(modules converted in part are written only with --allow-partial)",
		}, nil)
		for _, p := range []string{"net/main.cue", "net/cue.mod/module.cue", "net/sub/main.cue", "net/sub/cue.mod/module.cue"} {
			if !exists(filepath.Join(out, p)) {
				t.Errorf("%s not written", p)
			}
		}
		if exists(filepath.Join(out, "storage")) {
			t.Errorf("partial module written")
		}
		// Again with --allow-partial and --recursive: the earlier output is
		// replaced, parents before children.
		code, stdout, stderr = run(t, hcl2cue, "convert", "-r", "--allow-partial", "-o", out, root)
		checkRun(t, code, stdout, stderr, ExitFindings, []string{wantSummary, "wrote 3 modules to " + out}, nil)
		if strings.Contains(stdout, "--allow-partial") {
			t.Errorf("hint printed with --allow-partial:\n%s", stdout)
		}
		for _, p := range []string{"net/main.cue", "net/sub/main.cue", "storage/main.cue", "storage/cue.mod/module.cue"} {
			if !exists(filepath.Join(out, p)) {
				t.Errorf("%s not written", p)
			}
		}
		if src := readFile(t, filepath.Join(out, "storage", "main.cue")); !strings.Contains(src, `error("hcl2cue: not converted:`) {
			t.Errorf("storage/main.cue:\n%s", src)
		}
	})

	// A module that reads its files at plan time embeds its directory's
	// files, but not those of an example beside it, whose own conversion
	// is written there.
	t.Run("an example below a module that embeds its files", func(t *testing.T) {
		tree := writeTree(t, map[string]string{
			"mod/main.tf": `variable "name" {
  type    = string
  default = "a.txt"
}

output "text" {
  value = file("${path.module}/${var.name}")
}
`,
			"mod/a.txt": "a\n",
			"mod/examples/simple/main.tf": `module "m" {
  source = "../.."
}

output "text" {
  value = module.m.text
}
`,
			"mod/examples/simple/src/handler.py": "print()\n",
		})
		out := filepath.Join(t.TempDir(), "out")
		// The example converts in part: file() of a module outside its
		// directory is not embedded.
		code, stdout, stderr := run(t, hcl2cue, "convert", "--allow-partial", "-o", out, tree+"/...")
		checkRun(t, code, stdout, stderr, ExitFindings, []string{"converted  1\npartial    1\n", "wrote 2 modules to " + out}, nil)
		for _, p := range []string{"mod/a.txt", "mod/examples/simple/main.cue"} {
			if !exists(filepath.Join(out, p)) {
				t.Errorf("%s not written", p)
			}
		}
		if exists(filepath.Join(out, "mod", "examples", "simple", "src", "handler.py")) {
			t.Error("the example's file was embedded in mod's conversion")
		}
	})

	t.Run("a module that does not load", func(t *testing.T) {
		tree := writeTree(t, map[string]string{
			"a/main.tf": cleanModule,
			"b/main.tf": brokenModule,
		})
		code, stdout, stderr := run(t, hcl2cue, "convert", tree+"/...")
		checkRun(t, code, stdout, stderr, ExitError, []string{
			"converted  1\npartial    0\nfailed     1\ntotal      2\n",
			"b       failed     -    -    main.tf:3,1: Unsupported block type\n",
		}, nil)
		if strings.Contains(stdout, "REASON  ") || stderr != "" {
			t.Errorf("unexpected output:\n%s\n%s", stdout, stderr)
		}
	})

	t.Run("--verify", func(t *testing.T) {
		code, stdout, stderr := run(t, hcl2cue, "convert", "--verify", root+"/...")
		checkRun(t, code, stdout, stderr, ExitFindings, []string{
			"MODULE   STATUS     HCL  CUE  VERIFY  NOT CONVERTED\n" +
				"net      converted  7    7    equal\n" +
				"net/sub  converted  3    5    equal\n" +
				"storage  partial    3    5    -       main.tf:2,11: Provider function not converted\n",
		}, nil)
	})

	runCases(t, hcl2cue, []cliCase{
		{name: "everything converted", args: []string{"convert", filepath.Join(root, "net") + "/..."}, code: ExitOK, stdout: []string{"converted  2\npartial    0\nfailed     0\ntotal      2\n"}},
		{name: "everything converted and verified", args: []string{"convert", "--verify", filepath.Join(root, "net") + "/..."}, code: ExitOK, stdout: []string{"sub     converted  3    5    equal\n"}},
		{name: "--verify of one module", args: []string{"convert", "--verify", filepath.Join(root, "net")}, code: ExitError, stderr: []string{"--verify goes with DIR/..."}},
		{name: "no module below", args: []string{"convert", filepath.Join(root, "docs") + "/..."}, code: ExitError, stderr: []string{"no module directory"}},
		{name: "a file with --recursive", args: []string{"convert", "-r", filepath.Join(root, "net", "main.tf")}, code: ExitError, stderr: []string{"not a directory"}},
	})
}

func TestWriteProgress(t *testing.T) {
	tests := []struct {
		done, total int
		want        string
	}{
		{0, 4, "\rconverting 0/4 [>                             ]"},
		{1, 4, "\rconverting 1/4 [=======>                      ]"},
		{4, 4, "\rconverting 4/4 [==============================]"},
		{0, 0, "\rconverting 0/0 [>                             ]"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		writeProgress(&b, tt.done, tt.total)
		if b.String() != tt.want {
			t.Errorf("writeProgress(%d, %d) = %q, want %q", tt.done, tt.total, b.String(), tt.want)
		}
	}
	if isTerminal(&bytes.Buffer{}) {
		t.Errorf("a buffer is a terminal")
	}
}

func TestCutPattern(t *testing.T) {
	tests := []struct {
		arg, root string
		ok        bool
	}{
		{"...", ".", true},
		{"a/...", "a", true},
		{"/...", "/", true},
		{"a", "a", false},
		{"", "", false},
	}
	for _, tt := range tests {
		root, ok := cutPattern(tt.arg)
		if root != filepath.FromSlash(tt.root) || ok != tt.ok {
			t.Errorf("cutPattern(%q) = %q, %v; want %q, %v", tt.arg, root, ok, tt.root, tt.ok)
		}
	}
}
