package source

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is the error for a path that is not a regular file
// (after following symbolic links): a directory, a named pipe, a device, a
// socket. Reading one could block forever (a pipe with no writer, a
// terminal) or never end (/dev/zero).
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, DescribeMode(e.Mode))
}

// DescribeMode names the kind of file that mode is, with its article: "a
// directory", "a named pipe", ...
func DescribeMode(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&fs.ModeSocket != 0:
		return "a unix domain socket"
	case mode&fs.ModeDevice != 0:
		return "a device node"
	default:
		return "a special file"
	}
}

// ReadFile reads the regular file at path, following symbolic links. Any
// other kind of file is a *NotRegularError, found before it is opened (so a
// device is never opened) and again on the opened file (so a file swapped
// for a pipe in between cannot block: the open does not wait for a writer).
func ReadFile(path string) ([]byte, error) {
	return read(path, os.Stat, func(name string) (*os.File, error) { return os.OpenFile(name, openFlags, 0) })
}

// ReadFileIn is ReadFile for the path rel inside root, which it cannot leave.
func ReadFileIn(root *os.Root, rel string) ([]byte, error) {
	return read(rel, root.Stat, func(name string) (*os.File, error) { return root.OpenFile(name, openFlags, 0) })
}

func read(path string, stat func(string) (fs.FileInfo, error), open func(string) (*os.File, error)) ([]byte, error) {
	fi, err := stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return io.ReadAll(f)
}
