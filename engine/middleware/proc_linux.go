//go:build linux

package middleware

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

var subreaperOnce sync.Once

// becomeSubreaper makes this process the child subreaper of everything it
// starts: a descendant whose parent exits (a daemon a middleware started
// with setsid, say) becomes our child instead of init's, so that
// killStrays can find and reap it.
func becomeSubreaper() {
	subreaperOnce.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// killStrays kills, after a middleware has exited, what it started and
// left behind outside its process group: every process whose environment
// holds marker (which a middleware's descendants inherit, whatever
// session or group they move to), and every child of this process that
// is not a running middleware and not in this process's group (an orphan
// handed to us as subreaper, even one that cleared its environment; what
// the tool itself starts stays in its group). It reaps those that are our
// children. Killing a process orphans its children, which then become
// ours: it scans again until a scan finds nothing, a few times at most.
func killStrays(marker string) {
	registry.Lock()
	defer registry.Unlock()
	deadline := time.Now().Add(2 * time.Second)
	for range 8 {
		killed := killStraysOnce([]byte(marker))
		if len(killed) == 0 {
			return
		}
		// A process killed with SIGKILL exits at once, unless it is stuck
		// in the kernel; do not wait for that beyond the deadline.
		for _, pid := range killed {
			for !gone(pid) && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
}

// killStraysOnce kills the strays that one scan of /proc finds and returns
// their ids.
func killStraysOnce(marker []byte) []int {
	self, ownGroup := os.Getpid(), syscall.Getpgrp()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var killed []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || registry.pids[pid] {
			continue
		}
		ppid, pgid := parentOf(pid)
		orphan := ppid == self && pgid != ownGroup
		if !orphan && !environHas(pid, marker) {
			continue
		}
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed = append(killed, pid)
		}
	}
	return killed
}

// gone reaps pid if it is a child of ours that has exited, and reports
// whether it no longer runs (a zombie that is not ours counts as gone: its
// parent reaps it).
func gone(pid int) bool {
	var ws syscall.WaitStatus
	got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	if got == pid {
		return true
	}
	if err == nil {
		return false // our child, still running
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// parentOf returns the parent process id and the process group of pid,
// or zeros.
func parentOf(pid int) (ppid, pgid int) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0
	}
	// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 3 {
		return 0, 0
	}
	ppid, _ = strconv.Atoi(string(fields[1]))
	pgid, _ = strconv.Atoi(string(fields[2]))
	return ppid, pgid
}

// environHas reports whether the environment pid started with holds the
// entry want ("NAME=value").
func environHas(pid int, want []byte) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for entry := range bytes.SplitSeq(env, []byte{0}) {
		if bytes.Equal(entry, want) {
			return true
		}
	}
	return false
}
