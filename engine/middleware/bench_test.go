package middleware

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// benchResource is a typical planned instance.
func benchResource() Resource {
	after := cty.ObjectVal(map[string]cty.Value{
		"ami":           cty.StringVal("ami-0abcdef1234567890"),
		"instance_type": cty.StringVal("t3.micro"),
		"subnet_id":     cty.UnknownVal(cty.String),
		"monitoring":    cty.True,
		"tags": cty.MapVal(map[string]cty.Value{
			"Name":  cty.StringVal("web"),
			"owner": cty.StringVal("ops"),
		}),
		"user_data": cty.StringVal("#!/bin/sh\necho hello\n").Mark("sensitive"),
	})
	return Resource{
		Provider: "registry.opentofu.org/hashicorp/aws",
		Type:     "aws_instance",
		Name:     "web",
		Address:  "aws_instance.web",
		Action:   "create",
		After:    after,
		Config:   after,
	}
}

// benchChain starts one example middleware, attached to the project.
func benchChain(b *testing.B, command string, args ...string) *Chain {
	b.Helper()
	dir := b.TempDir()
	src := `
variable "middleware" {}
middleware "example" {
  metadata_key = "example"
  command      = var.middleware.command
  args         = var.middleware.args
}
terraform { middleware = [middleware.example] }
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o600); err != nil {
		b.Fatal(err)
	}
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	c, diags := Start(context.Background(), m, Options{Enabled: true, EvalContext: exampleContext(command, args), Stderr: io.Discard})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	b.Cleanup(func() { _ = c.Close() })
	return c
}

func runHook(b *testing.B, c *Chain, r Resource) {
	b.Helper()
	meta, diags := c.ResourceHook(context.Background(), PostPlan, "aws", r)
	if diags.HasErrors() || len(meta) != 1 {
		b.Fatal(meta, diags)
	}
}

// BenchmarkHook measures one post-plan hook call: against the Go and the
// Python example, as processes; against a middleware in this process
// that answers at once over in-memory pipes (the same client, encoding
// and decoding, without the process boundary); and the encoding of the
// parameters alone.
func BenchmarkHook(b *testing.B) {
	r := benchResource()
	b.Run("go-example", func(b *testing.B) {
		c := benchChain(b, goExampleBinary(b))
		for b.Loop() {
			runHook(b, c, r)
		}
	})
	b.Run("go-example-parallel", func(b *testing.B) {
		c := benchChain(b, goExampleBinary(b))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				runHook(b, c, r)
			}
		})
	})
	b.Run("python-example", func(b *testing.B) {
		command, args := exampleCommand(b, "python")
		c := benchChain(b, command, args...)
		for b.Loop() {
			runHook(b, c, r)
		}
	})
	b.Run("in-process-noop", func(b *testing.B) {
		c := inProcessChain(b)
		for b.Loop() {
			runHook(b, c, r)
		}
	})
	b.Run("encode-only", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(r.params(PostPlan, true)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// inProcessChain is a chain whose one middleware is a goroutine that
// answers every request with a success and a small metadata object.
func inProcessChain(b *testing.B) *Chain {
	b.Helper()
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	conn := newConn(reqW)
	go conn.read(respR, func(error) error { return errors.New("the in-process middleware stopped") })
	go func() {
		sc := bufio.NewScanner(reqR)
		sc.Buffer(make([]byte, 0, 64<<10), maxLine)
		for sc.Scan() {
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(sc.Bytes(), &req) != nil {
				return
			}
			line := `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"status":"success","metadata":{"ok":true}}}` + "\n"
			if _, err := io.WriteString(respW, line); err != nil {
				return
			}
		}
	}()
	b.Cleanup(func() {
		conn.fail(errShutdown)
		_ = reqW.Close()
		_ = respW.Close()
	})
	c := newChain(&Spec{Project: []Attachment{{Name: "noop"}}}, Options{})
	c.running["noop"] = &process{
		decl:    &Declaration{Name: "noop", MetadataKey: "noop"},
		conn:    conn,
		caps:    map[string]bool{PostPlan: true},
		timeout: time.Minute,
	}
	return c
}
