// Package interrupt ends a command promptly and cleanly on SIGINT or SIGTERM.
//
// [Notify] gives the command a context that ends at the first signal. The
// long phases (loading module after module, linting, fixing file after
// file, converting, planning instance after instance, evaluation rounds)
// check it and stop; the command then exits with [Status]: 130 after SIGINT
// and 143 after SIGTERM, 128 plus the signal's number, as shells report a
// process that the signal killed.
//
// A phase that does not check in time (one long CUE evaluation, say) must
// not keep the user waiting: [Grace] after the signal, or at once on a
// second signal, the process exits with that status anyway. Before it does,
// it waits for the critical sections in progress ([Hold]: the few system
// calls that write a fixed file or swap a converted output into place, so
// that no file is left half-written and no temporary file behind) and runs
// the functions registered with [AtExit] (stopping middleware processes).
//
// [LimitMemory] ends a command the same way when its heap passes a budget.
package interrupt

import (
	"context"
	"os"
	"os/signal"
	"runtime/metrics"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Grace is how long after a signal the command has to stop by itself
// before the process exits without it.
const Grace = 500 * time.Millisecond

// holdLimit bounds the wait for critical sections at a forced exit.
const holdLimit = 3 * time.Second

var (
	// critical is read-locked by each critical section and write-locked
	// by a forced exit, which so waits for them and lets no new one start.
	critical sync.RWMutex

	hooksMu sync.Mutex
	hooks   = map[int]func(){}
	nextID  int

	// exit ends the process; tests replace it.
	exit = os.Exit
)

// statusKey is the context key of the status a signal gave.
type statusKey struct{}

type state struct {
	mu     sync.Mutex
	status int
	// stop ends the command as a signal does, with the status it gives
	// (LimitMemory).
	stop chan int
}

// Notify returns a context that ends at the first SIGINT or SIGTERM, and
// a function that stops watching (call it when the command is done).
// After the first signal the process exits by itself after Grace, or at a
// second signal, if the command has not returned by then; forced (which
// may be nil) says so to the user first.
func Notify(parent context.Context, forced func(status int)) (context.Context, func()) {
	st := &state{stop: make(chan int, 1)}
	ctx, cancel := context.WithCancel(context.WithValue(parent, statusKey{}, st))
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		var timer <-chan time.Time
		// begin ends the command's context with status, unless an
		// earlier stop did; it reports whether this one is the first.
		begin := func(status int) bool {
			st.mu.Lock()
			first := st.status == 0
			if first {
				st.status = status
			}
			st.mu.Unlock()
			cancel()
			if first {
				timer = time.After(Grace)
			}
			return first
		}
		for {
			select {
			case <-done:
				return
			case sig := <-sigs:
				if !begin(statusOf(sig)) {
					forceExit(Status(ctx), forced)
					return
				}
			case status := <-st.stop:
				begin(status)
			case <-timer:
				forceExit(Status(ctx), forced)
				return
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
			cancel()
		})
	}
}

// Status is the exit status that ctx's signal gives (130 for SIGINT, 143
// for SIGTERM), or 0 when no signal ended it.
func Status(ctx context.Context) int {
	st, ok := ctx.Value(statusKey{}).(*state)
	if !ok {
		return 0
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.status
}

func statusOf(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// Diagnostic is the error that a planner reports when its context ends
// before the plan is complete, so that no one takes the plan for a whole
// one.
func Diagnostic() *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Interrupted", Detail: "The plan was interrupted before it was complete."}
}

// Hold starts a critical section, which a forced exit waits for (up to a
// few seconds); release ends it. Keep it to a few system calls.
func Hold() (release func()) {
	critical.RLock()
	return critical.RUnlock
}

// AtExit registers f to run before a forced exit; remove unregisters it.
// f must be quick and safe to run from any goroutine.
func AtExit(f func()) (remove func()) {
	hooksMu.Lock()
	defer hooksMu.Unlock()
	id := nextID
	nextID++
	hooks[id] = f
	return func() {
		hooksMu.Lock()
		defer hooksMu.Unlock()
		delete(hooks, id)
	}
}

// LimitMemory makes limit bytes the budget of the heap of the command
// whose context ctx is (from Notify): when the objects on the heap, live
// or not collected yet, pass it, the command ends as at a signal, with
// status: its context ends, and the process exits after Grace if it has
// not returned by then. It checks every pollInterval until ctx ends. (No
// soft limit for the garbage collector goes with it: near one, collection
// takes most of the time and a runaway evaluation reaches the budget
// several times later.)
func LimitMemory(ctx context.Context, limit uint64, status int) {
	st, ok := ctx.Value(statusKey{}).(*state)
	if !ok || limit == 0 {
		return
	}
	go func() {
		sample := []metrics.Sample{{Name: heapObjects}}
		tick := time.NewTicker(pollInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				metrics.Read(sample)
				if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > limit {
					select {
					case st.stop <- status:
					default:
					}
					return
				}
			}
		}
	}()
}

// heapObjects is the runtime metric LimitMemory watches: the bytes of the
// heap's objects, live or not collected yet.
const heapObjects = "/memory/classes/heap/objects:bytes"

// pollInterval is how often LimitMemory reads the heap's size.
const pollInterval = 20 * time.Millisecond

// forceExit waits for the critical sections in progress, runs the AtExit
// functions and exits with status.
func forceExit(status int, forced func(int)) {
	locked := make(chan struct{})
	go func() {
		critical.Lock()
		close(locked)
	}()
	select {
	case <-locked:
	case <-time.After(holdLimit):
	}
	hooksMu.Lock()
	fs := make([]func(), 0, len(hooks))
	for _, f := range hooks {
		fs = append(fs, f)
	}
	hooksMu.Unlock()
	var wg sync.WaitGroup
	for _, f := range fs {
		wg.Go(f)
	}
	wg.Wait()
	if forced != nil {
		forced(status)
	}
	exit(status)
}
