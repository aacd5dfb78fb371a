//go:build unix

package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "main.tf"), []byte("x = 1\n"), 0o600))
	must(syscall.Mkfifo(filepath.Join(dir, "pipe.tf"), 0o600))
	must(os.Mkdir(filepath.Join(dir, "dir.tf"), 0o700))
	must(os.Symlink("main.tf", filepath.Join(dir, "link.tf")))
	must(os.Symlink("pipe.tf", filepath.Join(dir, "linkpipe.tf")))

	for _, name := range []string{"main.tf", "link.tf"} {
		b, err := ReadFile(filepath.Join(dir, name))
		if err != nil || string(b) != "x = 1\n" {
			t.Errorf("%s: got %q, %v", name, b, err)
		}
	}
	for name, want := range map[string]fs.FileMode{"pipe.tf": fs.ModeNamedPipe, "linkpipe.tf": fs.ModeNamedPipe, "dir.tf": fs.ModeDir} {
		_, err := ReadFile(filepath.Join(dir, name))
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Mode.Type() != want {
			t.Errorf("%s: got %v, want a NotRegularError of mode %v", name, err, want)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.tf")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing.tf: got %v, want ErrNotExist", err)
	}

	root, err := os.OpenRoot(dir)
	must(err)
	defer root.Close()
	if b, err := ReadFileIn(root, "link.tf"); err != nil || string(b) != "x = 1\n" {
		t.Errorf("in root, link.tf: got %q, %v", b, err)
	}
	if _, err := ReadFileIn(root, "linkpipe.tf"); err == nil || err.Error() != "linkpipe.tf is a named pipe, not a regular file" {
		t.Errorf("in root, linkpipe.tf: got %v", err)
	}
}

// TestReadOpenedPipe checks the second check: a pipe that the first stat
// did not see (as when a file is swapped for one) is refused without
// waiting for a writer.
func TestReadOpenedPipe(t *testing.T) {
	p := filepath.Join(t.TempDir(), "p")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	regular := func(string) (fs.FileInfo, error) { return os.Stat(os.Args[0]) }
	_, err := read(p, regular, func(name string) (*os.File, error) { return os.OpenFile(name, openFlags, 0) })
	var nr *NotRegularError
	if !errors.As(err, &nr) || nr.Mode.Type() != fs.ModeNamedPipe {
		t.Errorf("got %v, want a NotRegularError for a named pipe", err)
	}
}

// TestReadDevice checks that a device node (here one like /dev/zero, which
// never ends) is refused before it is opened. Making one needs root.
func TestReadDevice(t *testing.T) {
	p := filepath.Join(t.TempDir(), "zero.tf")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o600, 1<<8|5); err != nil {
		t.Skipf("cannot make a device node: %v", err)
	}
	_, err := ReadFile(p)
	var nr *NotRegularError
	if !errors.As(err, &nr) || nr.Mode&fs.ModeDevice == 0 {
		t.Errorf("got %v, want a NotRegularError for a device", err)
	}
}
