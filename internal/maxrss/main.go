// Command maxrss runs a command and prints, on stderr, its wall time in
// seconds and its peak resident set size in KiB, as /usr/bin/time -f
// "%e %M" does: scripts/bench-convert uses it where GNU time is not
// installed. Its exit status is the command's.
//
//	go run ./internal/maxrss COMMAND [ARG ...]
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: maxrss COMMAND [ARG ...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(2)
	}
	var kib int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// Linux reports ru_maxrss in KiB.
		kib = int64(ru.Maxrss)
	}
	fmt.Fprintf(os.Stderr, "%.2f %d\n", wall.Seconds(), kib)
	os.Exit(cmd.ProcessState.ExitCode())
}
