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

	"github.com/tofucue/tofucue/internal/cli"
)

func main() {
	os.Exit(cli.Tofulint(os.Args[1:], os.Stdout, os.Stderr))
}
