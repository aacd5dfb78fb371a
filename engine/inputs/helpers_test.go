package inputs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/testtree"
)

// loadModule writes files into a temporary directory and loads it as a
// module; load errors fail the test.
func loadModule(t testing.TB, files map[string]string) *config.Module {
	t.Helper()
	dir := testtree.Write(t, files)
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatalf("loading the module: %s", diags.Error())
	}
	return m
}

// errorsOf lists the summaries and details of the error diagnostics.
func errorsOf(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return out
}

func warningsOf(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return out
}

// sameValue compares values with their types, unknowns and nulls.
func sameValue(t testing.TB, got, want cty.Value) {
	t.Helper()
	if !got.RawEquals(want) {
		t.Errorf("value:\n got  %#v\n want %#v", got, want)
	}
}

// consoleFormat prints a value the way `tofu console` does, which is how
// the type-constraints document shows its results: tolist(...) and friends
// for collections, tostring(null) and friends for typed nulls, heredocs for
// multi-line strings, map and object keys in order, quoted.
func consoleFormat(v cty.Value, indent int) string {
	if !v.IsKnown() {
		return "(known after apply)"
	}
	ty := v.Type()
	if v.IsNull() {
		switch {
		case ty == cty.DynamicPseudoType:
			return "null"
		case ty == cty.String:
			return "tostring(null)"
		case ty == cty.Number:
			return "tonumber(null)"
		case ty == cty.Bool:
			return "tobool(null)"
		case ty.IsListType():
			return fmt.Sprintf("tolist(null) /* of %s */", ty.ElementType().FriendlyName())
		case ty.IsSetType():
			return fmt.Sprintf("toset(null) /* of %s */", ty.ElementType().FriendlyName())
		case ty.IsMapType():
			return fmt.Sprintf("tomap(null) /* of %s */", ty.ElementType().FriendlyName())
		}
		return fmt.Sprintf("null /* %s */", ty.FriendlyName())
	}
	switch {
	case ty == cty.String:
		s := v.AsString()
		lines := strings.Split(s, "\n")
		if len(lines) < 2 {
			return strconv.Quote(s)
		}
		op := "<<"
		if indent > 0 {
			op = "<<-"
		}
		var b strings.Builder
		b.WriteString(op + "EOT")
		pad := strings.Repeat(" ", indent)
		for _, l := range lines {
			b.WriteString("\n" + pad + l)
		}
		b.WriteString("\n" + pad + "EOT")
		return b.String()
	case ty == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return strconv.FormatBool(v.True())
	case ty.IsObjectType():
		return consoleMapping(v, indent)
	case ty.IsMapType():
		return "tomap(" + consoleMapping(v, indent) + ")"
	case ty.IsTupleType():
		return consoleSequence(v, indent)
	case ty.IsListType():
		return "tolist(" + consoleSequence(v, indent) + ")"
	case ty.IsSetType():
		return "toset(" + consoleSequence(v, indent) + ")"
	}
	return v.GoString()
}

func consoleMapping(v cty.Value, indent int) string {
	var b strings.Builder
	b.WriteByte('{')
	inner := strings.Repeat(" ", indent+2)
	n := 0
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		b.WriteString("\n" + inner + consoleFormat(k, indent+2) + " = " + consoleFormat(e, indent+2))
		n++
	}
	if n > 0 {
		b.WriteString("\n" + strings.Repeat(" ", indent))
	}
	b.WriteByte('}')
	return b.String()
}

func consoleSequence(v cty.Value, indent int) string {
	var b strings.Builder
	b.WriteByte('[')
	inner := strings.Repeat(" ", indent+2)
	n := 0
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		b.WriteString("\n" + inner + consoleFormat(e, indent+2) + ",")
		n++
	}
	if n > 0 {
		b.WriteString("\n" + strings.Repeat(" ", indent))
	}
	b.WriteByte(']')
	return b.String()
}

// trimLines removes trailing blanks from every line (the document shows a
// heredoc's empty last line as a single space).
func trimLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
