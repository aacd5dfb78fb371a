// Command tofulint checks OpenTofu modules for mistakes.
//
// Usage:
//
//	tofulint [flags] [PATH ...]
//
// Run tofulint --help for the flags and exit statuses.
package main

import (
	"os"
	"runtime/debug"

	"github.com/tofucue/tofucue/internal/cli"
)

func main() {
	// tofulint is a short batch run whose live heap stays small (about 35
	// MB on 479 modules) while it allocates gigabytes of short-lived syntax
	// trees; collecting less often makes a run over a large tree about a
	// third faster (scripts/bench-corpus). GOGC still wins when set.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(cli.Tofulint(os.Args[1:], os.Stdout, os.Stderr))
}
