package lint

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/internal/testtree"
)

// writeTree creates files under a new temporary directory and returns it.
func writeTree(t *testing.T, files map[string]string) string { return testtree.Write(t, files) }

const cleanModule = "variable \"region\" {\n  type = string\n}\n"

func TestExpand(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a/main.tf":                     cleanModule,
		"a/extra.tf":                    cleanModule,
		"a/sub/x.tofu":                  cleanModule,
		"b/README.md":                   "not a module",
		"c/.hidden.tf":                  cleanModule,
		"d/main.tf.json":                "{}",
		"e/only.tofu.json":              "{}",
		".terraform/modules/m/main.tf":  cleanModule,
		"a/.git/main.tf":                cleanModule,
		"a/notes.txt":                   "",
		"empty/.keep":                   "",
		"empty/nested/deeper/README.md": "",
	})
	j := func(parts ...string) string { return filepath.Join(append([]string{root}, parts...)...) }

	tests := []struct {
		name      string
		paths     []string
		recursive bool
		want      []Target
		err       string
	}{
		{
			name:  "pattern finds every module directory, skipping hidden ones",
			paths: []string{root + "/..."},
			want:  []Target{{Dir: j("a")}, {Dir: j("a", "sub")}, {Dir: j("d")}, {Dir: j("e")}},
		},
		{
			name:      "recursive flag works like the pattern",
			paths:     []string{j("a")},
			recursive: true,
			want:      []Target{{Dir: j("a")}, {Dir: j("a", "sub")}},
		},
		{
			name:  "plain directory is one module, below it is not searched",
			paths: []string{j("a")},
			want:  []Target{{Dir: j("a")}},
		},
		{
			name:  "file names its module and itself",
			paths: []string{j("a", "main.tf")},
			want:  []Target{{Dir: j("a"), Files: []string{j("a", "main.tf")}}},
		},
		{
			name:  "files of one module make one target",
			paths: []string{j("a", "main.tf"), j("d", "main.tf.json"), j("a", "extra.tf"), j("a", "main.tf")},
			want:  []Target{{Dir: j("a"), Files: []string{j("a", "main.tf"), j("a", "extra.tf")}}, {Dir: j("d"), Files: []string{j("d", "main.tf.json")}}},
		},
		{
			name:  "the whole module wins over its files",
			paths: []string{j("a", "main.tf"), j("a")},
			want:  []Target{{Dir: j("a")}},
		},
		{
			name:  "duplicates are dropped, order is kept",
			paths: []string{j("d"), j("a") + "/...", j("a"), j("d") + "/"},
			want:  []Target{{Dir: j("d")}, {Dir: j("a")}, {Dir: j("a", "sub")}},
		},
		{
			name:  "missing path",
			paths: []string{j("nope")},
			err:   "no such file or directory",
		},
		{
			name:  "directory without configuration files",
			paths: []string{j("b")},
			err:   "not a module directory",
		},
		{
			name:  "not a configuration file",
			paths: []string{j("b", "README.md")},
			err:   "not a configuration file",
		},
		{
			name:  "pattern without modules",
			paths: []string{j("empty") + "/..."},
			err:   "no module directory",
		},
		{
			name:  "pattern on a file",
			paths: []string{j("a", "main.tf") + "/..."},
			err:   "is not a directory",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Expand(tt.paths, tt.recursive)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Expand = %v, %v; want an error containing %q", got, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Expand =\n%v\nwant\n%v", got, tt.want)
			}
		})
	}
}

func TestExpandDefaultsToCurrentDirectory(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": cleanModule, "child/main.tf": cleanModule})
	t.Chdir(root)
	got, err := Expand(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Target{{Dir: "."}}; !reflect.DeepEqual(got, want) {
		t.Errorf("no paths = %v, want %v", got, want)
	}
	got, err = Expand([]string{"./..."}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Target{{Dir: "."}, {Dir: "child"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("./... = %v, want %v", got, want)
	}
}
