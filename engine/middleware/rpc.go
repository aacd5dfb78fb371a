package middleware

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxLine is the longest line a middleware may write: a message longer
// than this is a protocol error.
const maxLine = 16 << 20

// errShutdown is why calls fail once the chain is being closed.
var errShutdown = errors.New("it was shut down")

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string {
	msg := fmt.Sprintf("it answered with JSON-RPC error %d: %s", e.Code, e.Message)
	if len(e.Data) > 0 && string(e.Data) != "null" {
		msg += " (" + clip(e.Data) + ")"
	}
	return msg
}

// request is a JSON-RPC request; a notification has no ID.
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *int64 `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// message is any JSON-RPC message a middleware may write, with the members
// kept raw so that their presence can be told from a null.
type message struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

type reply struct {
	result json.RawMessage
	err    error
}

// conn is the client side of a JSON-RPC 2.0 connection with one JSON
// message per line. Requests may be in flight concurrently; answers are
// matched by id. Any protocol error, a time-out, or the end of the input
// breaks the connection for good: every call in flight and every later
// one fails with the reason, and onFault is told (the process then stops
// the middleware).
type conn struct {
	w   io.WriteCloser
	wmu sync.Mutex

	// sem serializes calls when the middleware cannot take concurrent
	// requests; nil when it can.
	sem chan struct{}

	// onFault is called once, with the reason, when the connection breaks
	// by a fault of the middleware (not by fail(errShutdown)).
	onFault func(error)

	mu        sync.Mutex
	nextID    int64
	pending   map[int64]chan reply
	abandoned map[int64]bool
	err       error
	done      chan struct{}
}

func newConn(w io.WriteCloser) *conn {
	return &conn{
		w:         w,
		nextID:    1,
		pending:   map[int64]chan reply{},
		abandoned: map[int64]bool{},
		done:      make(chan struct{}),
	}
}

// serialize makes the connection send one request at a time.
func (c *conn) serialize() { c.sem = make(chan struct{}, 1) }

// fail breaks the connection with err, unless it is already broken; it
// reports whether this call broke it.
func (c *conn) fail(err error) bool {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return false
	}
	c.err = err
	pending := c.pending
	c.pending = map[int64]chan reply{}
	close(c.done)
	c.mu.Unlock()
	for _, ch := range pending {
		ch <- reply{err: err}
	}
	return true
}

// fault breaks the connection by a fault of the middleware.
func (c *conn) fault(err error) {
	if c.fail(err) && c.onFault != nil {
		c.onFault(err)
	}
}

// broken returns why the connection is broken, or nil.
func (c *conn) broken() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// call sends a request and waits for its answer, at most timeout from
// when the request is sent (waiting for a serialized connection to be
// free does not count). A time-out breaks the connection. When ctx ends
// first, the call returns ctx's error and the answer, if it comes, is
// dropped.
func (c *conn) call(ctx context.Context, method string, params any, timeout time.Duration) (json.RawMessage, error) {
	if c.sem != nil {
		select {
		case c.sem <- struct{}{}:
			defer func() { <-c.sem }()
		case <-c.done:
			return nil, c.broken()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	id := c.nextID
	c.nextID++
	ch := make(chan reply, 1)
	c.pending[id] = ch
	c.mu.Unlock()

	line, err := json.Marshal(request{JSONRPC: "2.0", ID: &id, Method: method, Params: params})
	if err != nil {
		c.forget(id, false)
		return nil, fmt.Errorf("could not encode the %s request: %w", method, err)
	}
	line = append(line, '\n')

	watchdog := time.AfterFunc(timeout, func() {
		c.fault(fmt.Errorf("it did not answer %s (request %d) within %s", method, id, timeout))
	})
	defer watchdog.Stop()

	c.wmu.Lock()
	_, werr := c.w.Write(line)
	c.wmu.Unlock()
	if werr != nil {
		// The reader usually has the better explanation (the process
		// exited, with its status); give it a moment to say so.
		select {
		case <-c.done:
		case <-time.After(time.Second):
			c.fault(fmt.Errorf("could not send %s: %w", method, werr))
		}
		return nil, c.broken()
	}

	select {
	case r := <-ch:
		return r.result, r.err
	case <-ctx.Done():
		c.forget(id, true)
		return nil, ctx.Err()
	}
}

// forget drops a pending request; an abandoned one's late answer is
// ignored rather than taken for a wrong id.
func (c *conn) forget(id int64, abandon bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, id)
	if abandon {
		c.abandoned[id] = true
	}
}

// read reads the middleware's messages until the end of r, delivering
// answers. atEOF explains the end of the input (the process exited, and
// how); err is any read error.
func (c *conn) read(r io.Reader, atEOF func(err error) error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := c.dispatch(line); err != nil {
			c.fault(err)
			return
		}
	}
	err := sc.Err()
	if errors.Is(err, bufio.ErrTooLong) {
		c.fault(fmt.Errorf("it wrote a line longer than %d bytes", maxLine))
		return
	}
	if c.broken() != nil {
		return
	}
	c.fault(atEOF(err))
}

// dispatch handles one line that the middleware wrote.
func (c *conn) dispatch(line []byte) error {
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		return fmt.Errorf("it wrote a line that is not a JSON object: %s", clip(line))
	}
	if m.JSONRPC == nil || *m.JSONRPC != "2.0" {
		return fmt.Errorf(`it wrote a message that is not JSON-RPC 2.0 (it lacks "jsonrpc": "2.0"): %s`, clip(line))
	}
	if m.Method != nil {
		if len(m.ID) == 0 {
			return nil // a notification: nothing here needs one
		}
		// A request to the client: there are none in this protocol.
		resp := map[string]any{
			"jsonrpc": "2.0",
			"id":      m.ID,
			"error":   rpcError{Code: -32601, Message: "method not found: the client serves no requests"},
		}
		out, _ := json.Marshal(resp)
		c.wmu.Lock()
		_, _ = c.w.Write(append(out, '\n'))
		c.wmu.Unlock()
		return nil
	}
	if len(m.ID) == 0 || string(m.ID) == "null" {
		if len(m.Error) > 0 {
			var e rpcError
			if json.Unmarshal(m.Error, &e) == nil {
				return fmt.Errorf("it reported an error without a request id (it could not read a request?): %d: %s", e.Code, e.Message)
			}
		}
		return fmt.Errorf("it wrote an answer without a request id: %s", clip(line))
	}
	id, err := strconv.ParseInt(string(m.ID), 10, 64)

	c.mu.Lock()
	ch, ok := c.pending[id]
	if err == nil && ok {
		delete(c.pending, id)
	}
	late := err == nil && c.abandoned[id]
	if late {
		delete(c.abandoned, id)
	}
	waiting := slices.Sorted(maps.Keys(c.pending))
	c.mu.Unlock()

	if late {
		return nil
	}
	if err != nil || !ok {
		want := "no request was awaiting an answer"
		if len(waiting) > 0 {
			ids := make([]string, len(waiting))
			for i, w := range waiting {
				ids[i] = strconv.FormatInt(w, 10)
			}
			want = "it was asked request " + strings.Join(ids, ", ")
		}
		return fmt.Errorf("it answered with id %s, which matches no request (%s)", clip(m.ID), want)
	}
	switch {
	case len(m.Result) > 0 && len(m.Error) > 0:
		return fmt.Errorf("its answer to request %d has both a result and an error", id)
	case len(m.Error) > 0:
		var e rpcError
		if err := json.Unmarshal(m.Error, &e); err != nil {
			return fmt.Errorf("its answer to request %d has a malformed error: %s", id, clip(m.Error))
		}
		ch <- reply{err: &e}
	case len(m.Result) > 0:
		ch <- reply{result: m.Result}
	default:
		return fmt.Errorf("its answer to request %d has neither a result nor an error", id)
	}
	return nil
}

// clip shortens a message for an error: at most 120 bytes, quoted when it
// is not JSON.
func clip(b []byte) string {
	s := string(b)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	if !json.Valid(b) {
		return strconv.Quote(s)
	}
	return s
}
