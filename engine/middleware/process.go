package middleware

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tofucue/tofucue/internal/interrupt"
)

// markerEnv is the environment variable that every middleware is started
// with, set to a value of its own: its descendants inherit it, which is
// how killStrays finds those that left its process group.
const markerEnv = "TOFUCUE_MIDDLEWARE_RUN"

// markers numbers the middleware processes this process starts.
var markers atomic.Int64

// registry holds the ids of the running middleware processes, so that
// killStrays tells them from orphans; startProcess holds it from the
// start of a process to its registration.
var registry = struct {
	sync.Mutex
	pids map[int]bool
}{pids: map[int]bool{}}

// tailLines is how many of a middleware's last stderr lines an error
// about its exit quotes.
const tailLines = 5

// process is one running middleware.
type process struct {
	decl    *Declaration
	cmd     *exec.Cmd
	pid     int
	marker  string // markerEnv=value in its environment
	conn    *conn
	timeout time.Duration

	// caps are the hooks the middleware declared in its initialize
	// answer; concurrent tells that it takes requests concurrently.
	caps       map[string]bool
	concurrent bool

	stdin, stdout, stderr *os.File // our ends of its standard streams

	exited     chan struct{} // closed once the process is reaped
	waitErr    error
	stderrDone chan struct{} // closed once its stderr is drained

	tailMu sync.Mutex
	tail   []string

	stopOnce sync.Once
	stopErr  error
	// unregister removes the forced-exit hook that kills the process
	// and what it started (interrupt.AtExit).
	unregister func()
}

// lineWriter writes whole lines to w, one at a time, for every middleware.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (lw *lineWriter) line(prefix, s string) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	_, _ = fmt.Fprintf(lw.w, "[%s] %s\n", prefix, s)
}

// startProcess starts the middleware's program in dir, with its standard
// streams on pipes, in a process group of its own.
func startProcess(decl *Declaration, dir string, timeout time.Duration, stderr *lineWriter) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}

	cmd := exec.Command(decl.Command, decl.Args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for _, k := range slices.Sorted(maps.Keys(decl.Env)) {
		cmd.Env = append(cmd.Env, k+"="+decl.Env[k])
	}
	marker := markerEnv + "=" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(markers.Add(1), 10)
	cmd.Env = append(cmd.Env, marker)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	ownGroup(cmd)
	becomeSubreaper()
	registry.Lock()
	err = cmd.Start()
	if err == nil {
		registry.pids[cmd.Process.Pid] = true
	}
	registry.Unlock()
	// The child has its own copies of its ends now.
	closeAll(inR, outW, errW)
	if err != nil {
		closeAll(inW, outR, errR)
		return nil, err
	}

	p := &process{
		decl:       decl,
		cmd:        cmd,
		pid:        cmd.Process.Pid,
		marker:     marker,
		conn:       newConn(inW),
		timeout:    timeout,
		stdin:      inW,
		stdout:     outR,
		stderr:     errR,
		exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	p.conn.onFault = func(error) { p.halt() }
	// An interrupted command that does not stop in time exits without
	// stopping its middleware: kill them first.
	p.unregister = interrupt.AtExit(func() {
		_ = kill(p.pid)
		killStrays(p.marker)
	})
	go func() {
		p.waitErr = cmd.Wait()
		registry.Lock()
		delete(registry.pids, p.pid)
		registry.Unlock()
		close(p.exited)
	}()
	go p.forwardStderr(stderr)
	go p.conn.read(outR, p.exitReason)
	return p, nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// maxStderrLine is how much of one line of a middleware's stderr is shown;
// the rest of a longer line is read and dropped.
const maxStderrLine = 64 << 10

// forwardStderr copies the middleware's stderr to the user's, each line
// prefixed with the middleware's name, and keeps its last lines. It reads
// until the stream ends, whatever the length of a line, so that the
// middleware never blocks on a full pipe; a line longer than
// maxStderrLine is shown cut, with how much was left out.
func (p *process) forwardStderr(out *lineWriter) {
	defer close(p.stderrDone)
	r := bufio.NewReaderSize(p.stderr, 64<<10)
	for {
		line, dropped, err := readLine(r, maxStderrLine)
		if err != nil && len(line) == 0 && dropped == 0 {
			return
		}
		text := string(line)
		if dropped > 0 {
			text += fmt.Sprintf(" [line cut: %d more bytes not shown]", dropped)
		}
		if out != nil {
			out.line(p.decl.Name, text)
		}
		p.tailMu.Lock()
		p.tail = append(p.tail, text)
		if len(p.tail) > tailLines {
			p.tail = p.tail[len(p.tail)-tailLines:]
		}
		p.tailMu.Unlock()
		if err != nil {
			return
		}
	}
}

// readLine reads one line from r, without its end, keeping its first
// limit bytes and returning how many more it read and dropped. The error
// is r's, at the end of the stream.
func readLine(r *bufio.Reader, limit int) (line []byte, dropped int, err error) {
	for {
		frag, err := r.ReadSlice('\n')
		if err == nil {
			frag = bytes.TrimSuffix(frag[:len(frag)-1], []byte("\r"))
		}
		keep := min(len(frag), limit-len(line))
		line = append(line, frag[:keep]...)
		dropped += len(frag) - keep
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, dropped, err
		}
	}
}

// exitReason explains why the middleware's stdout ended: it exited, with
// its status and its last words on stderr.
func (p *process) exitReason(readErr error) error {
	if readErr != nil && !errors.Is(readErr, os.ErrClosed) {
		return fmt.Errorf("reading its output failed: %w", readErr)
	}
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
		return errors.New("it closed its standard output")
	}
	waitFor(p.stderrDone, 500*time.Millisecond)
	msg := "it exited unexpectedly"
	var exit *exec.ExitError
	switch {
	case errors.As(p.waitErr, &exit):
		msg += " (" + exit.String() + ")"
	case p.waitErr != nil:
		msg += " (" + p.waitErr.Error() + ")"
	default:
		msg += " (exit status 0)"
	}
	p.tailMu.Lock()
	tail := slices.Clone(p.tail)
	p.tailMu.Unlock()
	if len(tail) > 0 {
		msg += "; its last lines on stderr: " + strings.Join(tail, " | ")
	}
	return errors.New(msg)
}

// halt stops a middleware that is of no more use (it broke the protocol,
// did not answer, or exited): its input is closed and its process group
// killed. stop reaps it later.
func (p *process) halt() {
	_ = p.stdin.Close()
	_ = kill(p.pid)
}

// stop shuts the middleware down: calls in flight fail, its input is
// closed (the signal to exit, as for MCP's stdio servers), and if it has
// not exited after grace it is sent SIGTERM, and after another grace
// SIGKILL. Whatever it started in its process group is killed too, and so
// is what it started elsewhere (killStrays). stop returns once the process
// is reaped.
func (p *process) stop(grace time.Duration) error {
	p.stopOnce.Do(func() {
		p.conn.fail(errShutdown)
		_ = p.stdin.Close()
		if !waitFor(p.exited, grace) {
			_ = terminate(p.pid)
			if !waitFor(p.exited, grace) {
				_ = kill(p.pid)
				if !waitFor(p.exited, 10*time.Second) {
					p.stopErr = fmt.Errorf("middleware %q (pid %d) did not exit after SIGKILL", p.decl.Name, p.pid)
				}
			}
		}
		_ = reapGroup(p.pid)
		killStrays(p.marker)
		waitFor(p.stderrDone, 500*time.Millisecond)
		closeAll(p.stdout, p.stderr)
		p.unregister()
	})
	return p.stopErr
}

// waitFor waits until ch is closed or d has passed, and tells which.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
