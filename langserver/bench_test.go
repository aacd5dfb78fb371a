package langserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/tofucue/tofucue/lint"
)

// bigModule returns a module file of about lines lines: variables,
// locals, resources and outputs that refer to each other, as real modules
// do, ending in an output whose value the benchmark edits.
func bigModule(lines int) string {
	var b strings.Builder
	for i := 0; strings.Count(b.String(), "\n") < lines-4; i++ {
		fmt.Fprintf(&b, `variable "name_%[1]d" {
  type        = string
  description = "The name of thing %[1]d."
  default     = "thing-%[1]d"
}

locals {
  tags_%[1]d = merge({ Name = var.name_%[1]d }, { Index = "%[1]d" })
}

resource "terraform_data" "thing_%[1]d" {
  count = length(var.name_%[1]d) > 3 ? 1 : 0
  input = {
    name = upper(var.name_%[1]d)
    tags = local.tags_%[1]d
    list = [for s in split("-", var.name_%[1]d) : trimspace(s)]
  }
}

output "thing_%[1]d" {
  value = terraform_data.thing_%[1]d[*].output
}

`, i)
	}
	b.WriteString("output \"edited\" {\n  value = var.name_0\n}\n")
	return b.String()
}

// BenchmarkEdit measures the time from an edit of a 5,000-line module to
// its new diagnostics, against two baselines of the same run: parsing
// the file, and linting the module from disk with the lint package.
// Each edit turns the last output's value into an interpolation-only
// template or back, so that every edit changes the diagnostics.
func BenchmarkEdit(b *testing.B) {
	src := bigModule(5000)
	dir := b.TempDir()
	path := filepath.Join(dir, "main.tf")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, diags := hclparse.NewParser().ParseHCL([]byte(src), path); diags.HasErrors() {
				b.Fatal(diags)
			}
		}
	})
	b.Run("lint", func(b *testing.B) {
		for b.Loop() {
			if _, diags := lint.Run([]lint.Target{{Dir: dir}}, lint.Options{Jobs: 1}); diags.HasErrors() {
				b.Fatal(diags)
			}
		}
	})
	b.Run("langserver", func(b *testing.B) {
		c := startServer(b, protocol.ClientCapabilities{})
		uri := open(c, path, src)
		c.until("the first diagnostics", hasCodes(uri))
		doc := newDoc(uri, src)
		last := protocol.UInteger(strings.Count(src, "\n") - 2)
		value := protocol.Range{Start: protocol.Position{Line: last, Character: 10}, End: protocol.Position{Line: last, Character: 20}}
		for i := 0; b.Loop(); i++ {
			if i%2 == 0 {
				c.change(doc, value, `"${var.name_0}"`)
				value.End.Character = 25
				c.until("the finding", hasCodes(uri, "deprecated_interpolation"))
			} else {
				c.change(doc, value, `var.name_0`)
				value.End.Character = 20
				c.until("no finding", hasCodes(uri))
			}
		}
	})
}
