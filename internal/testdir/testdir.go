// Package testdir writes the modules that tests build from strings.
package testdir

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes files, by slash-separated path, into a new temporary
// directory and returns it.
func Write(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}
