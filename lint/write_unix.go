//go:build unix

package lint

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// links returns how many hard links the file of fi has.
func links(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// keepOwner gives f the owner and group of the file of fi, or returns an
// error that wraps errKeepOwner when it may not.
func keepOwner(f *os.File, fi os.FileInfo) error {
	want, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	got, err := f.Stat()
	if err != nil {
		return err
	}
	if st, ok := got.Sys().(*syscall.Stat_t); ok && st.Uid == want.Uid && st.Gid == want.Gid {
		return nil
	}
	if err := f.Chown(int(want.Uid), int(want.Gid)); err != nil {
		if errors.Is(err, syscall.EPERM) {
			return fmt.Errorf("%w (uid %d, gid %d)", errKeepOwner, want.Uid, want.Gid)
		}
		return err
	}
	return nil
}

// alive reports whether a process with that id runs (or may: one of
// another user's, which cannot be signaled, counts).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
