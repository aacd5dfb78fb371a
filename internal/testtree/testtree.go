// Package testtree writes file trees for tests.
package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// Write creates files (slash-separated names, with their contents) under a
// new temporary directory and returns the directory.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
