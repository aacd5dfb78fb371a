package rules

import (
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// CommentSyntax is the rule comment_syntax.
var CommentSyntax = &Rule{
	Name:   "comment_syntax",
	TFLint: "terraform_comment_syntax",
	Doc: `Reports single-line comments written with // rather than #. Both
are valid; # is the one the style conventions use. Block comments (/* */)
are not reported. The fix writes # for //. JSON files are not checked.
The rule is off by default.

Bad:

    // the region
    variable "region" { type = string }

Good:

    # the region
    variable "region" { type = string }`,
	Severity: Notice,
	Fixes:    true,
	Check: func(p *Pass) {
		for _, name := range slices.Sorted(maps.Keys(p.Module.Files)) {
			f := p.Module.Files[name]
			if _, ok := f.Body.(*hclsyntax.Body); !ok {
				continue
			}
			tokens, _ := hclsyntax.LexConfig(f.Bytes, name, hcl.InitialPos)
			for _, tok := range tokens {
				if tok.Type != hclsyntax.TokenComment || !strings.HasPrefix(string(tok.Bytes), "//") {
					continue
				}
				slashes := tok.Range
				slashes.End = hcl.Pos{Line: slashes.Start.Line, Column: slashes.Start.Column + 2, Byte: slashes.Start.Byte + 2}
				p.Report(Finding{
					Message: "Single-line comment written with //",
					Detail:  "Write # for single-line comments, as the style conventions do.",
					Range:   slashes,
					Fix:     &Fix{Description: "Replace // with #", Edits: []Edit{{Range: slashes, NewText: "#"}}},
				})
			}
		}
	},
}
