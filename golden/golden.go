// Package golden runs golden tests kept as txtar archives
// (golang.org/x/tools/txtar): one archive per case, with the inputs and the
// expected outputs side by side.
//
// In an archive, every file whose name starts with "want/" is an expected
// output; every other file is an input. A test function receives the case,
// typically writes the inputs to a temporary directory with
// [Case.Materialize], runs the code under test and returns its outputs keyed
// by name. Output "diagnostics" is compared with the section
// "want/diagnostics", and so on.
//
//	func TestConfig(t *testing.T) {
//		golden.Run(t, "testdata/config", func(t *testing.T, c *golden.Case) map[string]string {
//			dir := c.Materialize(t)
//			...
//			return map[string]string{"diagnostics": out}
//		})
//	}
//
// Run the tests with -update to rewrite the want/ sections from the actual
// outputs:
//
//	go test ./golden -update
package golden

import (
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// WantPrefix starts the name of every expected-output section of an archive.
const WantPrefix = "want/"

// DirPlaceholder replaces the path of a materialized case directory in outputs,
// so that expected outputs do not depend on where the test ran.
const DirPlaceholder = "$DIR"

var update = flag.Bool("update", false, "rewrite the want/ sections of golden txtar archives from the actual outputs")

// Case is one txtar archive.
type Case struct {
	// Name is the archive's file name without the .txtar suffix; it is also
	// the name of the subtest.
	Name string
	// Path is the archive's path.
	Path string
	// Comment is the text before the archive's first file.
	Comment string
	// Files are the input files, in archive order: every file whose name does
	// not start with "want/".
	Files []txtar.File

	archive *txtar.Archive
	dirs    []string // directories made by Materialize, replaced in outputs
}

// Input returns the content of the input file with the given name.
func (c *Case) Input(name string) (string, bool) {
	for _, f := range c.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

// Want returns the expected output with the given name (the content of the
// section "want/"+name).
func (c *Case) Want(name string) (string, bool) {
	for _, f := range c.archive.Files {
		if f.Name == WantPrefix+name {
			return string(f.Data), true
		}
	}
	return "", false
}

// Materialize writes the input files into a new temporary directory, which
// is removed when the test ends, and returns its path. Names with slashes
// make sub-directories. Run replaces the path with $DIR in the outputs.
func (c *Case) Materialize(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := writeFiles(dir, c.Files); err != nil {
		t.Fatalf("%s: %v", c.Path, err)
	}
	c.dirs = append(c.dirs, dir)
	return dir
}

// RootDir is the root module's directory of the case materialized in
// dir: the directory its input "root" names (an example beside its
// modules, as repositories hold them), or dir itself.
func (c *Case) RootDir(dir string) string {
	if root, ok := c.Input("root"); ok {
		return filepath.Join(dir, filepath.FromSlash(strings.TrimSpace(root)))
	}
	return dir
}

func writeFiles(dir string, files []txtar.File) error {
	for _, f := range files {
		name := path.Clean(f.Name)
		if path.IsAbs(name) || name == "." || name == ".." || strings.HasPrefix(name, "../") {
			return fmt.Errorf("input file name %q leaves the case directory", f.Name)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ReplaceDir returns s with every occurrence of dir (as given and with its
// symbolic links resolved) replaced by $DIR.
func ReplaceDir(s, dir string) string {
	if dir == "" {
		return s
	}
	olds := []string{dir}
	if resolved, err := filepath.EvalSymlinks(dir); err == nil && resolved != dir {
		olds = append(olds, resolved)
	}
	// Longest first, so that a path that contains the other is replaced whole.
	sort.Slice(olds, func(i, j int) bool { return len(olds[i]) > len(olds[j]) })
	for _, old := range olds {
		s = strings.ReplaceAll(s, old, DirPlaceholder)
	}
	return s
}

// Load reads the archive at name as a Case.
func Load(name string) (*Case, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	ar := txtar.Parse(data)
	c := &Case{
		Name:    strings.TrimSuffix(filepath.Base(name), ".txtar"),
		Path:    name,
		Comment: string(ar.Comment),
		archive: ar,
	}
	seen := map[string]bool{}
	for _, f := range ar.Files {
		if seen[f.Name] {
			return nil, fmt.Errorf("%s: file %q appears twice", name, f.Name)
		}
		seen[f.Name] = true
		if !strings.HasPrefix(f.Name, WantPrefix) {
			c.Files = append(c.Files, f)
		}
	}
	return c, nil
}

// Run runs fn as a subtest for every *.txtar archive in dir, in name order,
// and compares the outputs that fn returns with the archive's want/
// sections. A difference, a want/ section that fn did not produce, and an
// output without a want/ section are test errors; with -update the archive
// is rewritten instead (inputs, comment and order kept). Outputs are
// compared after the paths of the case's materialized directories are
// replaced with $DIR and a final newline is added to a non-empty output
// (txtar sections always end in one).
func Run(t *testing.T, dir string, fn func(t *testing.T, c *Case) map[string]string) {
	t.Helper()
	// Absolute, so that a case may change the working directory.
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no *.txtar archives in %s", dir)
	}
	sort.Strings(paths)
	for _, p := range paths {
		c, err := Load(p)
		if err != nil {
			t.Error(err)
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			got := fn(t, c)
			if t.Failed() && *update {
				// fn reported an error (t.Error, not t.Fatal): do not
				// rewrite the archive from a run known to be wrong.
				t.Logf("%s: not updated because the test failed", c.Path)
				return
			}
			for name, out := range got {
				for _, d := range c.dirs {
					out = ReplaceDir(out, d)
				}
				got[name] = out
			}
			res := compare(c.archive, got)
			if *update {
				if res.changed {
					if err := writeFileAtomic(c.Path, txtar.Format(res.updated)); err != nil {
						t.Fatal(err)
					}
					t.Logf("updated %s", c.Path)
				}
				return
			}
			for _, problem := range res.problems {
				t.Errorf("%s: %s", c.Path, problem)
			}
			if len(res.problems) > 0 {
				t.Logf("run the test with -update to accept the actual outputs")
			}
		})
	}
}

// result is the comparison of an archive's want/ sections with the outputs
// of a run.
type result struct {
	problems []string       // what differs, one readable message each
	updated  *txtar.Archive // the archive with want/ sections from the outputs
	changed  bool           // whether updated differs from the archive
}

// compare checks the outputs against the want/ sections of ar and builds the
// archive that -update would write: sections keep their order, sections no
// longer produced are dropped, new outputs are appended in name order.
func compare(ar *txtar.Archive, got map[string]string) result {
	var res result
	res.updated = &txtar.Archive{Comment: ar.Comment}
	seen := map[string]bool{}
	for _, f := range ar.Files {
		name, isWant := strings.CutPrefix(f.Name, WantPrefix)
		if !isWant {
			res.updated.Files = append(res.updated.Files, f)
			continue
		}
		seen[name] = true
		out, ok := got[name]
		if !ok {
			res.problems = append(res.problems, fmt.Sprintf("section %s%s is in the archive, but the test produced no output %q", WantPrefix, name, name))
			res.changed = true
			continue
		}
		out = withFinalNewline(out)
		if out != string(f.Data) {
			res.problems = append(res.problems, fmt.Sprintf("output %q differs from %s%s (-want +got):\n%s", name, WantPrefix, name, Diff(string(f.Data), out)))
			res.changed = true
		}
		res.updated.Files = append(res.updated.Files, txtar.File{Name: f.Name, Data: []byte(out)})
	}
	var added []string
	for name := range got {
		if !seen[name] {
			added = append(added, name)
		}
	}
	slices.Sort(added)
	for _, name := range added {
		out := withFinalNewline(got[name])
		res.problems = append(res.problems, fmt.Sprintf("the test produced output %q, but the archive has no section %s%s; got:\n%s", name, WantPrefix, name, indent(out)))
		res.updated.Files = append(res.updated.Files, txtar.File{Name: WantPrefix + name, Data: []byte(out)})
		res.changed = true
	}
	return res
}

func withFinalNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

func indent(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		b.WriteString("\t")
		b.WriteString(line)
	}
	return b.String()
}

// writeFileAtomic replaces the file at name with data: it writes a temporary
// file in the same directory and renames it over the original, so that an
// interrupted update never leaves a half-written archive. The file mode is
// kept.
func writeFileAtomic(name string, data []byte) (err error) {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
