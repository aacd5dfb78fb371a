// Command parseonly is the baseline of tofulint's benchmark script: it finds
// the module directories that tofulint DIR/... would lint and parses the
// configuration files that the loader would read in them with hcl, on every
// CPU, and does nothing else.
// What tofulint does on top of this (decoding, references, rules, output)
// is the cost that bench/corpus.sh measures.
package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/lint"
)

func main() {
	targets, err := lint.Expand(os.Args[1:], false)
	if err != nil {
		fmt.Fprintln(os.Stderr, "parseonly:", err)
		os.Exit(2)
	}
	var files, errs atomic.Int64
	next := make(chan string)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for dir := range next {
				primary, override, _ := config.ModuleFiles(dir)
				for _, path := range slices.Concat(primary, override) {
					files.Add(1)
					if !parse(path) {
						errs.Add(1)
					}
				}
			}
		})
	}
	for _, t := range targets {
		next <- t.Dir
	}
	close(next)
	wg.Wait()
	fmt.Printf("parsed %d files in %d module directories, %d with errors\n", files.Load(), len(targets), errs.Load())
}

// parse reads and parses one configuration file, reporting whether it
// parsed without error.
func parse(path string) bool {
	src, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		_, diags = json.Parse(src, path)
	} else {
		_, diags = hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	}
	return !diags.HasErrors()
}
