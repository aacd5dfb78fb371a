package plan

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// WriteText renders the plan for people, in the manner of `tofu plan`:
// each instance with its attributes ("(known after apply)" for unknowns,
// "(sensitive value)" for sensitive ones, null attributes left out), the
// change summary, the output changes, the synthesized inputs, then the
// values after the simulated apply.
func (p *Plan) WriteText(w io.Writer) error {
	tw := &textWriter{w: w}
	tw.printf("Planned against mock providers.\n")
	for _, in := range p.Instances {
		switch in.Action {
		case Create:
			tw.printf("\n  # %s will be created\n", in.Addr())
			tw.printf("  + %s %q %q ", blockType(in.Mode), in.Type, in.Name)
			tw.body(in.Planned, "      ", "+ ")
		case Read:
			tw.printf("\n  # %s will be read during apply\n", in.Addr())
			tw.printf(" <= %s %q %q ", blockType(in.Mode), in.Type, in.Name)
			tw.body(in.Planned, "      ", "  ")
		}
	}
	create, _ := p.Changes()
	tw.printf("\nPlan: %d to add, 0 to change, 0 to destroy.\n", create)

	names := slices.Sorted(maps.Keys(p.Outputs))
	if len(names) > 0 {
		tw.printf("\nChanges to Outputs:\n")
		width := maxLen(names)
		for _, name := range names {
			o := p.Outputs[name]
			tw.printf("  + %-*s = %s\n", width, name, outputText(o.Planned, o.Sensitive, "    "))
		}
	}

	var synth []string
	for _, name := range slices.Sorted(maps.Keys(p.Variables)) {
		if p.Variables[name].Synthesized {
			synth = append(synth, name)
		}
	}
	if len(synth) > 0 {
		tw.printf("\nSynthesized inputs:\n")
		width := maxLen(synth)
		for _, name := range synth {
			tw.printf("  %-*s = %s\n", width, name, valueText(p.Variables[name].Value, "  "))
		}
	}
	for _, n := range p.Notes {
		tw.printf("\nNote: %s\n", n)
	}
	if len(p.NotPlanned) > 0 {
		tw.printf("\nNot planned, their modules not available: %s\n", strings.Join(p.NotPlanned, ", "))
	}

	tw.printf("\nApplied against mock providers:\n")
	for _, in := range p.Instances {
		if in.Applied == cty.NilVal || in.Mode == config.EphemeralMode {
			continue
		}
		tw.printf("\n  %s ", in.Addr())
		tw.body(in.Applied, "    ", "")
	}
	tw.metadata(p)
	if len(names) > 0 {
		tw.printf("\nOutputs:\n\n")
		width := maxLen(names)
		for _, name := range names {
			o := p.Outputs[name]
			if o.Applied == cty.NilVal {
				continue
			}
			tw.printf("%-*s = %s\n", width, name, outputText(o.Applied, o.Sensitive, ""))
		}
	}
	return tw.err
}

type textWriter struct {
	w   io.Writer
	err error
}

// metadata writes what middleware returned: for the plan's stages and
// for each instance after apply, by metadata_key.
func (tw *textWriter) metadata(p *Plan) {
	var blocks []string
	for _, k := range slices.Sorted(maps.Keys(p.Metadata)) {
		blocks = append(blocks, fmt.Sprintf("  plan %s = %s\n", k, valueText(p.Metadata[k], "  ")))
	}
	for _, in := range p.Instances {
		md := in.AppliedMetadata
		if md == nil {
			md = in.Metadata
		}
		for _, k := range slices.Sorted(maps.Keys(md)) {
			blocks = append(blocks, fmt.Sprintf("  %s %s = %s\n", in.Addr(), k, valueText(md[k], "  ")))
		}
	}
	if len(blocks) == 0 {
		return
	}
	tw.printf("\nMiddleware metadata:\n\n")
	for _, b := range blocks {
		tw.printf("%s", b)
	}
}

func (tw *textWriter) printf(format string, args ...any) {
	if tw.err != nil {
		return
	}
	_, tw.err = fmt.Fprintf(tw.w, format, args...)
}

// body writes an object's attributes one per line at indent, each
// prefixed with sign, aligned, null attributes left out, and the closing
// brace two columns left of indent.
func (tw *textWriter) body(v cty.Value, indent, sign string) {
	if v.HasMark(SensitiveMark) {
		tw.printf("(sensitive value)\n")
		return
	}
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() && !v.Type().IsMapType() {
		tw.printf("= %s\n", valueText(v, indent))
		return
	}
	tw.printf("{\n")
	attrs := v.AsValueMap()
	var names []string
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		if a := attrs[k]; a.IsKnown() && a.IsNull() {
			continue
		}
		names = append(names, k)
	}
	width := maxLen(names)
	for _, k := range names {
		tw.printf("%s%s%-*s = %s\n", indent, sign, width, k, valueText(attrs[k], indent+strings.Repeat(" ", len(sign))))
	}
	tw.printf("%s}\n", indent[:len(indent)-2])
}

func blockType(m config.ResourceMode) string {
	switch m {
	case config.DataMode:
		return "data"
	case config.EphemeralMode:
		return "ephemeral"
	}
	return "resource"
}

func outputText(v cty.Value, sensitive bool, indent string) string {
	if sensitive {
		return "(sensitive value)"
	}
	return valueText(v, indent)
}

// FormatValue renders a value as the plan's text does: HCL syntax, nested
// values on lines of their own, "(known after apply)" for unknowns and
// "(sensitive value)" for sensitive parts.
func FormatValue(v cty.Value) string { return valueText(v, "") }

// valueText renders a value as HCL, indenting nested lines with indent.
func valueText(v cty.Value, indent string) string {
	if v == cty.NilVal {
		return "null"
	}
	if v.HasMark(SensitiveMark) {
		return "(sensitive value)"
	}
	v, _ = v.Unmark()
	if !v.IsKnown() {
		return "(known after apply)"
	}
	if v.IsNull() {
		return "null"
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return quote(v.AsString())
	case ty == cty.Number:
		return NumberText(v)
	case ty == cty.Bool:
		if v.True() {
			return "true"
		}
		return "false"
	case ty.IsObjectType() || ty.IsMapType():
		m := v.AsValueMap()
		if len(m) == 0 {
			return "{}"
		}
		keys := slices.Sorted(maps.Keys(m))
		width := 0
		labels := make([]string, len(keys))
		for i, k := range keys {
			labels[i] = objectKey(k)
			width = max(width, len(labels[i]))
		}
		var b strings.Builder
		b.WriteString("{\n")
		for i, k := range keys {
			fmt.Fprintf(&b, "%s    %-*s = %s\n", indent, width, labels[i], valueText(m[k], indent+"    "))
		}
		b.WriteString(indent + "}")
		return b.String()
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		if v.LengthInt() == 0 {
			return "[]"
		}
		var b strings.Builder
		b.WriteString("[\n")
		for _, e := range v.AsValueSlice() {
			fmt.Fprintf(&b, "%s    %s,\n", indent, valueText(e, indent+"    "))
		}
		b.WriteString(indent + "]")
		return b.String()
	}
	return v.GoString()
}

// objectKey is an object attribute name as HCL writes it: bare when it is
// an identifier, quoted otherwise.
func objectKey(k string) string {
	if hclsyntax.ValidIdentifier(k) {
		return k
	}
	return quote(k)
}

// quote writes s as an HCL quoted string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case (c == '$' || c == '%') && i+1 < len(s) && s[i+1] == '{':
			b.WriteByte(c)
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func maxLen(names []string) int {
	n := 0
	for _, s := range names {
		n = max(n, len(s))
	}
	return n
}
