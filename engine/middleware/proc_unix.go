//go:build unix

package middleware

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own, so that
// whatever it starts can be stopped with it, and so that a terminal's
// interrupt reaches the tool, which then shuts the middleware down in
// order, rather than the middleware directly.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to the process group that pid leads. A group
// that no longer exists is not an error.
func signalGroup(pid int, sig syscall.Signal) error {
	err := syscall.Kill(-pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

func terminate(pid int) error { return signalGroup(pid, syscall.SIGTERM) }

func kill(pid int) error { return signalGroup(pid, syscall.SIGKILL) }

// reapGroup kills whatever is left in the group of a process that has
// exited: what it started and left running.
func reapGroup(pid int) error { return signalGroup(pid, syscall.SIGKILL) }
