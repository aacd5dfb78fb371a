//go:build unix

package interrupt

import (
	"context"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// fakeExit replaces the process exit for a test and returns the channel
// that receives the status.
func fakeExit(t *testing.T) chan int {
	t.Helper()
	got := make(chan int, 1)
	exit = func(code int) { got <- code }
	t.Cleanup(func() { exit = nil })
	return got
}

func TestStatusAfterSignal(t *testing.T) {
	for sig, want := range map[syscall.Signal]int{syscall.SIGINT: 130, syscall.SIGTERM: 143} {
		fakeExit(t)
		ctx, stop := Notify(context.Background(), nil)
		if Status(ctx) != 0 {
			t.Fatal("a status before any signal")
		}
		if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done()
		if got := Status(ctx); got != want {
			t.Errorf("%v: status %d, want %d", sig, got, want)
		}
		stop()
	}
}

// A command that does not stop by itself is ended after Grace: once the
// critical section in progress is over, after the AtExit functions.
func TestForcedExit(t *testing.T) {
	exited := fakeExit(t)
	var hookRan, heldOver atomic.Bool
	remove := AtExit(func() { hookRan.Store(true) })
	defer remove()
	var forcedWith atomic.Int32
	ctx, stop := Notify(context.Background(), func(s int) { forcedWith.Store(int32(s)) })
	defer stop()
	release := Hold()
	start := time.Now()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	time.Sleep(Grace + 200*time.Millisecond)
	select {
	case <-exited:
		t.Fatal("exited during a critical section")
	default:
	}
	heldOver.Store(true)
	release()
	status := <-exited
	if status != 143 || !hookRan.Load() || forcedWith.Load() != 143 {
		t.Errorf("status %d, hook ran %v, forced told %d; want 143, true, 143", status, hookRan.Load(), forcedWith.Load())
	}
	if elapsed := time.Since(start); elapsed < Grace {
		t.Errorf("exited after %v, before the grace period", elapsed)
	}
	critical.Unlock() // what the real exit never gives back
}

// A second signal exits at once, without waiting for Grace.
func TestSecondSignal(t *testing.T) {
	exited := fakeExit(t)
	ctx, stop := Notify(context.Background(), nil)
	defer stop()
	_ = syscall.Kill(syscall.Getpid(), syscall.SIGINT)
	<-ctx.Done()
	_ = syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	select {
	case status := <-exited:
		if status != 130 {
			t.Errorf("status %d, want 130 (the first signal's)", status)
		}
	case <-time.After(Grace / 2):
		t.Fatal("a second signal did not exit at once")
	}
	critical.Unlock()
}

// A command that returns in time is not ended.
func TestStoppedInTime(t *testing.T) {
	exited := fakeExit(t)
	ctx, stop := Notify(context.Background(), nil)
	_ = syscall.Kill(syscall.Getpid(), syscall.SIGINT)
	<-ctx.Done()
	stop()
	select {
	case <-exited:
		t.Fatal("exited although the command stopped")
	case <-time.After(Grace + 200*time.Millisecond):
	}
}

// TestMemoryBudget passes a small heap budget: the context ends with the
// budget's status, and the process exits with it after Grace when the
// command goes on.
func TestMemoryBudget(t *testing.T) {
	got := fakeExit(t)
	ctx, stop := Notify(context.Background(), nil)
	defer stop()
	LimitMemory(ctx, 64<<20, 2)
	var hold [][]byte
	deadline := time.After(10 * time.Second)
	for ctx.Err() == nil {
		select {
		case <-deadline:
			t.Fatal("the context did not end with 1 GiB allocated past a budget of 64 MiB")
		default:
		}
		if len(hold) < 1024 {
			hold = append(hold, make([]byte, 1<<20))
		}
		time.Sleep(time.Millisecond)
	}
	if s := Status(ctx); s != 2 {
		t.Errorf("status %d, want 2", s)
	}
	select {
	case code := <-got:
		if code != 2 {
			t.Errorf("exit %d, want 2", code)
		}
	case <-time.After(Grace + 2*time.Second):
		t.Error("no forced exit after Grace")
	}
	runtime.KeepAlive(hold)
}
