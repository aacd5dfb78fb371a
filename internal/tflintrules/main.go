// Command tflintrules prints, one per line, each tofulint rule that stands
// for a rule of TFLint's terraform ruleset: the TFLint name, then the
// tofulint name. scripts/tflint-compare runs it.
package main

import (
	"fmt"

	"github.com/tofucue/tofucue/rules"
)

func main() {
	for _, r := range rules.All() {
		if r.TFLint != "" {
			fmt.Println(r.TFLint, r.Name)
		}
	}
}
