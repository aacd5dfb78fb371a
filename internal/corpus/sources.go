package corpus

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Mappings map module sources as a user who keeps the corpus's
// repositories side by side would, with --module-source: each
// repository's registry address (terraform-aws-modules/vpc/aws for
// terraform-aws-modules/terraform-aws-vpc, by the registry's naming
// rule, terraform-PROVIDER-NAME) maps to its folder, from the corpus's
// MANIFEST.tsv. Calls of modules the corpus does not hold stay not
// available. (config.SourceOptions takes them; config's own tests use
// this package, which therefore does not import config.)
func Mappings(tb testing.TB) map[string]string {
	tb.Helper()
	root := Shared(tb, "corpus")
	f, err := os.Open(filepath.Join(root, "MANIFEST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		repo, _, _ := strings.Cut(sc.Text(), "\t")
		owner, name, ok := strings.Cut(repo, "/")
		if !ok {
			continue // the header
		}
		rest, ok := strings.CutPrefix(name, "terraform-")
		if !ok {
			continue
		}
		provider, module, ok := strings.Cut(rest, "-")
		if !ok {
			continue
		}
		out[owner+"/"+module+"/"+provider] = filepath.Join(root, owner+"__"+name)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// AllowRead is what a user who keeps the corpus's repositories side by
// side passes as --allow-read (config.SourceOptions.AllowRead): the corpus
// directory. Its repositories have no .git, so without it an example's
// call of its repository's module (source = "../../") leaves the
// example's directory, the only tree read otherwise.
func AllowRead(tb testing.TB) []string {
	tb.Helper()
	return []string{Shared(tb, "corpus")}
}
