package golden

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

const sampleArchive = `comment line
-- main.tf --
variable "a" {}
-- sub/other.tf --
# other
-- want/first --
one
two
-- want/second --
alpha
`

func writeArchive(t *testing.T, content string) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "case.txtar")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

func TestLoad(t *testing.T) {
	_, p := writeArchive(t, sampleArchive)
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "case" {
		t.Errorf("Name = %q, want %q", c.Name, "case")
	}
	if c.Comment != "comment line\n" {
		t.Errorf("Comment = %q", c.Comment)
	}
	var names []string
	for _, f := range c.Files {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "main.tf,sub/other.tf" {
		t.Errorf("input files = %s, want main.tf,sub/other.tf", got)
	}
	if w, ok := c.Want("second"); !ok || w != "alpha\n" {
		t.Errorf("Want(second) = %q, %v", w, ok)
	}
	if _, ok := c.Want("main.tf"); ok {
		t.Errorf("Want(main.tf) found an input file")
	}
	if in, ok := c.Input("sub/other.tf"); !ok || in != "# other\n" {
		t.Errorf("Input(sub/other.tf) = %q, %v", in, ok)
	}
}

func TestLoadDuplicateFile(t *testing.T) {
	_, p := writeArchive(t, "-- a --\nx\n-- a --\ny\n")
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), `"a" appears twice`) {
		t.Fatalf("Load = %v, want an error about the duplicate file", err)
	}
}

func TestMaterialize(t *testing.T) {
	_, p := writeArchive(t, sampleArchive)
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	dir := c.Materialize(t)
	for name, want := range map[string]string{
		"main.tf":      "variable \"a\" {}\n",
		"sub/other.tf": "# other\n",
	} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Error(err)
			continue
		}
		if string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "want")); !os.IsNotExist(err) {
		t.Errorf("want/ sections were materialized (stat: %v)", err)
	}
}

func TestMaterializeRejectsEscapingNames(t *testing.T) {
	for _, name := range []string{"../x.tf", "/abs.tf", "a/../../x.tf"} {
		err := writeFiles(t.TempDir(), []txtar.File{{Name: name, Data: []byte("x")}})
		if err == nil {
			t.Errorf("writeFiles(%q) = nil, want an error", name)
		}
	}
}

func TestReplaceDir(t *testing.T) {
	dir := t.TempDir()
	got := ReplaceDir("open "+dir+"/main.tf: no such file; "+dir, dir)
	if want := "open $DIR/main.tf: no such file; $DIR"; got != want {
		t.Errorf("ReplaceDir = %q, want %q", got, want)
	}
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if got := ReplaceDir(resolved+"/x", link); got != "$DIR/x" {
		t.Errorf("ReplaceDir through a symbolic link = %q, want $DIR/x", got)
	}
	if got := ReplaceDir("x", ""); got != "x" {
		t.Errorf("ReplaceDir with empty dir = %q", got)
	}
}

func TestCompare(t *testing.T) {
	base := txtar.Parse([]byte(sampleArchive))
	tests := []struct {
		name     string
		got      map[string]string
		problems []string // substrings, one per expected problem, in order
		archive  string   // the archive -update would write
	}{
		{
			name:    "match",
			got:     map[string]string{"first": "one\ntwo\n", "second": "alpha"},
			archive: sampleArchive,
		},
		{
			name:     "mismatch shows a diff",
			got:      map[string]string{"first": "one\nTWO\n", "second": "alpha\n"},
			problems: []string{"output \"first\" differs from want/first (-want +got):\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n"},
			archive:  strings.Replace(sampleArchive, "two", "TWO", 1),
		},
		{
			name:     "want section not produced",
			got:      map[string]string{"first": "one\ntwo\n"},
			problems: []string{`section want/second is in the archive, but the test produced no output "second"`},
			archive:  strings.TrimSuffix(sampleArchive, "-- want/second --\nalpha\n"),
		},
		{
			name:     "output without want section",
			got:      map[string]string{"first": "one\ntwo\n", "second": "alpha\n", "third": "3", "new": "n\n"},
			problems: []string{`produced output "new", but the archive has no section want/new`, `produced output "third", but the archive has no section want/third; got:` + "\n\t3\n"},
			archive:  sampleArchive + "-- want/new --\nn\n-- want/third --\n3\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := compare(base, tt.got)
			if len(res.problems) != len(tt.problems) {
				t.Fatalf("got %d problems, want %d:\n%s", len(res.problems), len(tt.problems), strings.Join(res.problems, "\n"))
			}
			for i, p := range tt.problems {
				if !strings.Contains(res.problems[i], p) {
					t.Errorf("problem %d = %q, want it to contain %q", i, res.problems[i], p)
				}
			}
			if res.changed != (len(tt.problems) > 0) {
				t.Errorf("changed = %v with %d problems", res.changed, len(tt.problems))
			}
			if got := string(txtar.Format(res.updated)); got != tt.archive {
				t.Errorf("updated archive:\n%s", Diff(tt.archive, got))
			}
		})
	}
}

func TestRunMatchesAndReplacesDir(t *testing.T) {
	dir, _ := writeArchive(t, "-- main.tf --\nx\n-- want/path --\n$DIR/main.tf\n")
	ran := 0
	Run(t, dir, func(t *testing.T, c *Case) map[string]string {
		ran++
		d := c.Materialize(t)
		return map[string]string{"path": filepath.Join(d, "main.tf")}
	})
	if ran != 1 {
		t.Errorf("fn ran %d times, want 1", ran)
	}
}

func TestRunUpdate(t *testing.T) {
	const before = "comment\n-- in.txt --\nhello\n-- want/upper --\nstale\n-- want/gone --\nbye\n"
	const after = "comment\n-- in.txt --\nhello\n-- want/upper --\nHELLO\n-- want/added --\n5\n"
	dir, p := writeArchive(t, before)
	fn := func(_ *testing.T, c *Case) map[string]string {
		in, _ := c.Input("in.txt")
		return map[string]string{"upper": strings.ToUpper(in), "added": "5"}
	}

	saved := *update
	*update = true
	Run(t, dir, fn)
	*update = saved // keep the -update the whole package was run with

	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != after {
		t.Fatalf("archive after -update:\n%s", Diff(after, string(data)))
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after update = %v, want 0600", fi.Mode().Perm())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after update, want only the archive", len(entries))
	}
	// The rewritten archive now passes without -update.
	Run(t, dir, fn)
}

func TestWriteFileAtomicKeepsOriginalOnError(t *testing.T) {
	dir := t.TempDir()
	// Renaming over a directory fails, and the temporary file must go.
	target := filepath.Join(dir, "target")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(target, []byte("x")); err == nil {
		t.Fatal("writeFileAtomic over a non-empty directory succeeded")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("left %d entries, want only the original", len(entries))
	}
}

// TestRunReportsFailures runs Run in a child test process, because a
// failing golden test must fail its *testing.T, which cannot be observed
// from inside the same test.
func TestRunReportsFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	tests := []struct {
		name    string
		archive string
		output  []string
	}{
		{
			name:    "mismatch",
			archive: "-- want/out --\nline 1\nold\nline 3\n",
			output:  []string{"differs from want/out (-want +got):", "@@ -1,3 +1,3 @@", " line 1", "-old", "+new", " line 3", "-update"},
		},
		{
			name:    "missing output",
			archive: "-- want/out --\nline 1\nnew\nline 3\n-- want/extra --\nx\n",
			output:  []string{`section want/extra is in the archive, but the test produced no output "extra"`},
		},
		{
			name:    "unexpected output",
			archive: "",
			output:  []string{`produced output "out", but the archive has no section want/out`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, p := writeArchive(t, tt.archive)
			cmd := exec.Command(os.Args[0], "-test.run=^TestChildRun$", "-test.v")
			cmd.Env = append(os.Environ(), "GOLDEN_CHILD_DIR="+dir)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("child test passed, want a failure; output:\n%s", out)
			}
			var exitErr *exec.ExitError
			if !errors.As(err, &exitErr) {
				t.Fatalf("running the child: %v", err)
			}
			for _, s := range tt.output {
				if !strings.Contains(string(out), s) {
					t.Errorf("child output does not contain %q:\n%s", s, out)
				}
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tt.archive {
				t.Errorf("archive changed without -update:\n%s", data)
			}
		})
	}
}

// TestChildRun is the child process of TestRunReportsFailures.
func TestChildRun(t *testing.T) {
	dir := os.Getenv("GOLDEN_CHILD_DIR")
	if dir == "" {
		t.Skip("only runs as the child of TestRunReportsFailures")
	}
	Run(t, dir, func(*testing.T, *Case) map[string]string {
		return map[string]string{"out": "line 1\nnew\nline 3\n"}
	})
}
