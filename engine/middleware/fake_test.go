package middleware

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fakeEnv selects the mode in which the test binary runs as a fake
// middleware (the os/exec tests' pattern): TestMain runs it instead of the
// tests when the variable is set.
const fakeEnv = "TOFUCUE_FAKE_MIDDLEWARE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		os.Exit(fake(mode))
	}
	code := m.Run()
	if goExample != "" {
		_ = os.RemoveAll(filepath.Dir(goExample))
	}
	os.Exit(code)
}

// fake is a middleware whose misbehaviour is chosen by mode. It takes its
// name from FAKE_NAME; FAKE_CAPS lists its capabilities (all hooks when
// unset); FAKE_CONCURRENT=1 makes it declare and use concurrency;
// FAKE_FAIL names a hook it fails; FAKE_LOG is a file it logs each call
// to; FAKE_DELAY is a delay in milliseconds per call; FAKE_STDERR is a
// line it writes to stderr at start; FAKE_STDERR_BYTES is the length of a
// line of x it writes to stderr before that, followed by "after the long
// line". In mode spawn, FAKE_SETSID=1 starts the child in a session of its
// own and FAKE_CLEARENV=1 with nothing of the middleware's environment.
//
// Modes: ok; crash (exits on its first hook); crash-init (exits before
// answering initialize); hang (never answers a hook); garbage (answers a
// hook with a line that is not JSON); wrong-id; rpc-error; bad-result;
// no-status; stubborn (ignores SIGTERM and the end of its input); spawn
// (starts a sleeper child and leaves it behind); sleeper.
func fake(mode string) int {
	name := os.Getenv("FAKE_NAME")
	if n, _ := strconv.Atoi(os.Getenv("FAKE_STDERR_BYTES")); n > 0 {
		fmt.Fprintln(os.Stderr, strings.Repeat("x", n))
		fmt.Fprintln(os.Stderr, "after the long line")
	}
	if line := os.Getenv("FAKE_STDERR"); line != "" {
		fmt.Fprintln(os.Stderr, line)
	}
	switch mode {
	case "sleeper":
		time.Sleep(10 * time.Minute)
		return 0
	case "crash-init":
		fmt.Fprintln(os.Stderr, "fatal: cannot load policy file")
		return 3
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
	case "spawn":
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), fakeEnv+"=sleeper")
		if os.Getenv("FAKE_SETSID") == "1" {
			// Out of the middleware's process group and session.
			child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		}
		if os.Getenv("FAKE_CLEARENV") == "1" {
			child.Env = []string{fakeEnv + "=sleeper"}
		}
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := os.WriteFile(os.Getenv("FAKE_PIDFILE"), []byte(strconv.Itoa(child.Process.Pid)), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	caps := allHooks()
	if c, ok := os.LookupEnv("FAKE_CAPS"); ok {
		caps = strings.FieldsFunc(c, func(r rune) bool { return r == ',' })
	}
	concurrent := os.Getenv("FAKE_CONCURRENT") == "1"
	delay, _ := strconv.Atoi(os.Getenv("FAKE_DELAY"))

	var wmu sync.Mutex
	write := func(line []byte) {
		wmu.Lock()
		defer wmu.Unlock()
		_, _ = os.Stdout.Write(append(line, '\n'))
	}
	respond := func(id json.RawMessage, result any) {
		out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
		write(out)
	}

	var mu sync.Mutex
	calls, inFlight, maxInFlight := 0, 0, 0
	handle := func(id json.RawMessage, method string, params map[string]any) {
		switch mode {
		case "crash":
			fmt.Fprintln(os.Stderr, "panic: policy engine exploded")
			os.Exit(2)
		case "hang", "stubborn":
			return
		case "garbage":
			write([]byte("this is not json"))
			return
		case "wrong-id":
			n, _ := strconv.Atoi(string(id))
			respond(json.RawMessage(strconv.Itoa(n+1000)), map[string]any{"status": "success"})
			return
		case "rpc-error":
			out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32000, "message": "internal failure"}})
			write(out)
			return
		case "bad-result":
			respond(id, "just a string")
			return
		case "no-status":
			respond(id, map[string]any{"message": "hi"})
			return
		}
		mu.Lock()
		calls++
		n := calls
		inFlight++
		maxInFlight = max(maxInFlight, inFlight)
		mu.Unlock()
		if path := os.Getenv("FAKE_LOG"); path != "" {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err == nil {
				fmt.Fprintf(f, "%s %s %v\n", name, method, params["resource_name"])
				_ = f.Close()
			}
		}
		time.Sleep(time.Duration(delay) * time.Millisecond)
		mu.Lock()
		most := maxInFlight
		inFlight--
		mu.Unlock()
		result := map[string]any{
			"status":   "success",
			"message":  name + " saw " + method,
			"metadata": map[string]any{"by": name, "call": n, "max_in_flight": most, "params": params},
		}
		if os.Getenv("FAKE_FAIL") == method {
			result["status"] = "fail"
			result["message"] = fmt.Sprintf("%s rejects %v", name, params["resource_name"])
		}
		respond(id, result)
	}

	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var wg sync.WaitGroup
	for sc.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params map[string]any  `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			return 1
		}
		if req.Method == "initialize" {
			respond(req.ID, map[string]any{"capabilities": caps, "concurrent": concurrent})
			continue
		}
		if concurrent {
			wg.Go(func() { handle(req.ID, req.Method, req.Params) })
		} else {
			handle(req.ID, req.Method, req.Params)
		}
	}
	wg.Wait()
	if mode == "stubborn" {
		time.Sleep(10 * time.Minute)
	}
	return 0
}
