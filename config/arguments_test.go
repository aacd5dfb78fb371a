package config

import (
	"strings"
	"testing"

	"github.com/tofucue/tofucue/internal/testtree"
)

// TestArguments reads a provisioner's and a connection's arguments: the
// blocks the decoder took (connection, _) are not arguments, another
// block is an error at its type.
func TestArguments(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"main.tf": `
resource "terraform_data" "x" {
  provisioner "local-exec" {
    command = "echo"
    when    = create
    connection {
      host = "h"
    }
    _ {
      quiet = true
    }
  }
  provisioner "file" {
    source = "a"
    extra {}
  }
}
`})
	m, diags := Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	ps := m.ManagedResources["terraform_data.x"].Provisioners
	attrs, diags := Arguments(ps[0].Config)
	if diags.HasErrors() || len(attrs) != 2 || attrs["command"] == nil || attrs["quiet"] == nil {
		t.Errorf("local-exec: arguments %v, diagnostics %v; want command and quiet", attrs, diags)
	}
	if attrs, diags := Arguments(ps[0].Connection.Config); diags.HasErrors() || attrs["host"] == nil {
		t.Errorf("connection: arguments %v, diagnostics %v; want host", attrs, diags)
	}
	attrs, diags = Arguments(ps[1].Config)
	if attrs["source"] == nil || len(diags) != 1 || !strings.Contains(diags[0].Summary, `Unexpected "extra" block`) || diags[0].Subject.Start.Line != 15 {
		t.Errorf("file: arguments %v, diagnostics %v; want source and an error at the extra block", attrs, diags)
	}
}
