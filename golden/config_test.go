package golden_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/golden"
)

// TestConfig loads the module of each case in config/ and compares the
// loader's diagnostics with want/diagnostics and the files it read with
// want/files.
func TestConfig(t *testing.T) {
	golden.Run(t, "config", func(t *testing.T, c *golden.Case) map[string]string {
		dir := c.Materialize(t)
		mod, diags := config.Load(dir)
		if mod == nil {
			t.Fatalf("config.Load returned no module; diagnostics:\n%s", golden.Diagnostics(dir, diags))
		}
		return map[string]string{
			"diagnostics": golden.Diagnostics(dir, diags),
			"files":       moduleFiles(t, dir, mod),
		}
	})
}

// moduleFiles lists the files of mod relative to dir, one per line, sorted.
func moduleFiles(t *testing.T, dir string, mod *config.Module) string {
	t.Helper()
	var names []string
	for path := range mod.Files {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.ToSlash(rel))
	}
	slices.Sort(names)
	return strings.Join(names, "\n")
}
