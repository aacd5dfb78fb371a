package lint

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// fixedModule is conflictModule after its fix.
var fixedModule = strings.Replace(conflictModule, "= symbols", "= resource.symbols", 1)

// fixRoot lints root and writes its fixes, and returns what note was told.
func fixRoot(t *testing.T, root string) ([]string, error) {
	t.Helper()
	fx := Fix(mustRun(t, []Target{{Dir: root}}, Options{}))
	if len(fx.Files) != 1 {
		t.Fatalf("fixes change %v, want one file", fx.Names())
	}
	var notes []string
	err := fx.Write(func(s string) { notes = append(notes, s) })
	return notes, err
}

func readString(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFixWritesThroughSymlinks(t *testing.T) {
	root := writeTree(t, map[string]string{"real/main.tf": conflictModule, "m/other.tf": "# nothing to fix\n"})
	link := filepath.Join(root, "m", "main.tf")
	if err := os.Symlink(filepath.Join("..", "real", "main.tf"), link); err != nil {
		t.Fatal(err)
	}
	if _, err := fixRoot(t, filepath.Join(root, "m")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("m/main.tf is no longer a symbolic link: %v, %v", fi.Mode(), err)
	}
	if got := readString(t, filepath.Join(root, "real", "main.tf")); got != fixedModule {
		t.Errorf("the link's target after the fix:\n%s", got)
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "m")); len(entries) != 2 {
		t.Errorf("m holds %v after the fix", entries)
	}
}

func TestFixKeepsModeOwnerAndGroup(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": conflictModule})
	main := filepath.Join(root, "main.tf")
	mode := os.FileMode(0o640) | os.ModeSetuid | os.ModeSetgid | os.ModeSticky
	if err := os.Chmod(main, mode); err != nil {
		t.Fatal(err)
	}
	uid, gid := os.Getuid(), os.Getgid()
	if uid == 0 {
		// Root may give the file to anyone, and the fix must keep that.
		uid, gid = 12345, 23456
		if err := os.Chown(main, uid, gid); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(main, mode); err != nil { // chown cleared setuid
			t.Fatal(err)
		}
	}
	if _, err := fixRoot(t, root); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(main)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != mode {
		t.Errorf("mode after the fix = %v, want %v", fi.Mode(), mode)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if int(st.Uid) != uid || int(st.Gid) != gid {
		t.Errorf("owner after the fix = %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
	}
	if got := readString(t, main); got != fixedModule {
		t.Errorf("after the fix:\n%s", got)
	}
}

func TestFixEditsHardLinksInPlace(t *testing.T) {
	root := writeTree(t, map[string]string{"m/main.tf": conflictModule})
	main := filepath.Join(root, "m", "main.tf")
	other := filepath.Join(root, "elsewhere.tf")
	if err := os.Link(main, other); err != nil {
		t.Fatal(err)
	}
	notes, err := fixRoot(t, filepath.Join(root, "m"))
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "main.tf has 2 hard links: edited in place") {
		t.Errorf("notes = %q, want one about the hard links", notes)
	}
	for _, name := range []string{main, other} {
		if got := readString(t, name); got != fixedModule {
			t.Errorf("%s after the fix:\n%s", name, got)
		}
	}
	a, _ := os.Stat(main)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Error("the hard link is broken")
	}
}

// A write to the file after the lint's check and before the rename is
// kept, and the fix refused.
func TestFixRefusesFileChangedBeforeRename(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": conflictModule})
	main := filepath.Join(root, "main.tf")
	edited := strings.Replace(conflictModule, "legacy", "legacx", 1) // same size
	beforeRename = func(target string) {
		if err := os.WriteFile(target, []byte(edited), 0o644); err != nil {
			t.Error(err)
		}
	}
	defer func() { beforeRename = nil }()
	_, err := fixRoot(t, root)
	if err == nil || !strings.Contains(err.Error(), "main.tf: changed on disk while tofulint ran; not fixed") {
		t.Errorf("Write = %v, want an error saying the file changed", err)
	}
	if got := readString(t, main); got != edited {
		t.Errorf("the edit made meanwhile is lost:\n%s", got)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 {
		t.Errorf("the refused fix left %v", entries)
	}
}

func TestFixRemovesStaleTemporaryFiles(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": conflictModule})
	// A process that has exited, and one that runs (this test's parent).
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	dead, live := cmd.Process.Pid, os.Getppid()
	stale := ".main.tf.tofulint-" + strconv.Itoa(dead) + "-123456"
	running := ".main.tf.tofulint-" + strconv.Itoa(live) + "-654321"
	unrelated := ".main.tf.tofulint-notmine"
	for _, n := range []string{stale, running, unrelated} {
		if err := os.WriteFile(filepath.Join(root, n), []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	notes, err := fixRoot(t, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], stale) || !strings.Contains(notes[0], "did not finish") {
		t.Errorf("notes = %q, want one about %s", notes, stale)
	}
	var names []string
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{running, unrelated, "main.tf"}; strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("directory after the fix: %v, want %v", names, want)
	}
}

func TestTempOwner(t *testing.T) {
	for name, want := range map[string]int{
		".main.tf.tofulint-42-123":      42,
		".a.tofulint-b.tf.tofulint-7-0": 7,
		".main.tf.tofulint-123":         0, // an earlier version's name: no pid
		"main.tf.tofulint-42-123":       0,
		".main.tf.tofulint-42-12x":      0,
		".main.tf.tofulint--1-2":        0,
		".tofulint-42-1":                0,
	} {
		got, ok := tempOwner(name)
		if ok != (want != 0) || got != want {
			t.Errorf("tempOwner(%q) = %d, %v; want %d", name, got, ok, want)
		}
	}
}

func TestDiffPath(t *testing.T) {
	for _, c := range []struct{ cwd, name, want string }{
		{"/work/repo", "/work/repo/m/main.tf", "m/main.tf"},
		{"/work/repo", "m/main.tf", "m/main.tf"},
		{"/work/repo", "./m/../m/main.tf", "m/main.tf"},
		{"/work/repo", "/elsewhere/main.tf", "elsewhere/main.tf"},
		{"/work/repo", "../other/main.tf", "work/other/main.tf"},
		{"/", "/abs/main.tf", "abs/main.tf"},
		{"", "m/main.tf", "m/main.tf"},
		{"", "/abs/main.tf", "abs/main.tf"},
	} {
		if got := diffPath(c.cwd, c.name); got != c.want {
			t.Errorf("diffPath(%q, %q) = %q, want %q", c.cwd, c.name, got, c.want)
		}
	}
}

// A file linted under two names (itself and a link to it) is fixed once.
func TestFixWritesFileUnderTwoNamesOnce(t *testing.T) {
	root := writeTree(t, map[string]string{"real/main.tf": conflictModule})
	if err := os.Symlink(filepath.Join("real", "main.tf"), filepath.Join(root, "alias.tf")); err != nil {
		t.Fatal(err)
	}
	fx := Fix(mustRun(t, []Target{{Dir: root}, {Dir: filepath.Join(root, "real")}}, Options{}))
	if len(fx.Files) != 2 {
		t.Fatalf("fixes change %v, want both names", fx.Names())
	}
	if err := fx.Write(nil); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(root, "real", "main.tf")); got != fixedModule {
		t.Errorf("after the fix:\n%s", got)
	}
}

// An interrupt before Write writes nothing, and says so; lint.Run lints
// nothing after one.
func TestInterruptedFix(t *testing.T) {
	root := writeTree(t, map[string]string{"m/main.tf": conflictModule})
	fx := Fix(mustRun(t, []Target{{Dir: filepath.Join(root, "m")}}, Options{}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fx.Context = ctx
	if err := fx.Write(nil); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("got %v, want an interrupted error", err)
	}
	if got := readString(t, filepath.Join(root, "m", "main.tf")); got != conflictModule {
		t.Errorf("the file was written after the interrupt:\n%s", got)
	}
	rep := mustRun(t, []Target{{Dir: filepath.Join(root, "m")}}, Options{Context: ctx})
	if len(rep.Findings)+len(rep.Diagnostics) != 0 {
		t.Errorf("an interrupted run linted: %d findings, %d diagnostics", len(rep.Findings), len(rep.Diagnostics))
	}
}
