// Command hcl2cue converts OpenTofu modules from HCL to CUE, plans either
// form against mock providers, and verifies that both plan alike.
//
// Usage:
//
//	hcl2cue convert [-o OUT] DIR
//	hcl2cue plan [--lang hcl|cue] [--var k=v] [--var-file F] [--mocks F] DIR
//	hcl2cue verify [--var-file F] [--mocks F] DIR [CUE_DIR]
//
// Run hcl2cue --help for details.
package main

import (
	"os"

	"github.com/tofucue/tofucue/internal/cli"
)

func main() {
	os.Exit(cli.Hcl2cue(os.Args[1:], os.Stdout, os.Stderr))
}
