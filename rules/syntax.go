package rules

import (
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

// syntaxVisit is called for every node of a native syntax file: attributes,
// blocks and every expression inside them, templates included, with the
// source of the file and the nodes that enclose the node, outermost first.
type syntaxVisit func(src []byte, n hclsyntax.Node, parents []hclsyntax.Node)

// walkSyntax walks every native syntax file of a module, override files
// included, once. JSON files are skipped: their expressions live in JSON
// strings, where the legacy forms that the syntax rules report are the
// normal way of writing expressions.
func walkSyntax(m *config.Module, visit syntaxVisit) {
	for _, name := range slices.Sorted(maps.Keys(m.Files)) {
		f := m.Files[name]
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		_ = hclsyntax.Walk(body, &stackWalker{src: f.Bytes, visit: visit}) // the walker reports nothing
	}
}

type stackWalker struct {
	src   []byte
	visit syntaxVisit
	stack []hclsyntax.Node
}

func (w *stackWalker) Enter(n hclsyntax.Node) hcl.Diagnostics {
	w.visit(w.src, n, w.stack)
	w.stack = append(w.stack, n)
	return nil
}

func (w *stackWalker) Exit(hclsyntax.Node) hcl.Diagnostics {
	w.stack = w.stack[:len(w.stack)-1]
	return nil
}

// srcText returns the source of a range, or "" when the range is not inside
// src.
func srcText(src []byte, r hcl.Range) string {
	if r.Start.Byte < 0 || r.End.Byte < r.Start.Byte || r.End.Byte > len(src) {
		return ""
	}
	return string(src[r.Start.Byte:r.End.Byte])
}

// insertionAt is an empty range at p, where an Edit inserts.
func insertionAt(file string, p hcl.Pos) hcl.Range {
	return hcl.Range{Filename: file, Start: p, End: p}
}
