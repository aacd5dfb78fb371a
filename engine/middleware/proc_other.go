//go:build !unix

package middleware

import (
	"errors"
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// terminate kills the process: there is no gentler signal to send here.
func terminate(pid int) error { return kill(pid) }

// reapGroup does nothing where there are no process groups.
func reapGroup(int) error { return nil }

func kill(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil
	}
	if err := p.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}
