package convert

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"cuelang.org/go/cue"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	tofufuncs "github.com/tofucue/tofucue/functions"
)

func TestDateFunctionsSameAsOpenTofu(t *testing.T) {
	for _, expr := range []string{
		`formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z")`,
		`formatdate("EEEE, h:mmaa 'o''clock'", "2018-01-02T23:12:01-08:00")`,
		`timeadd("2017-11-22T00:00:00Z", "10m")`,
		`timeadd("2017-11-22T00:00:00+02:00", "-1h30m")`,
		`timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00+01:00")`,
		`timecmp("2017-11-22T00:00:01Z", "2017-11-22T00:00:00Z")`,
	} {
		t.Run(expr, func(t *testing.T) { checkSameAsOpenTofu(t, expr) })
	}
}

// dateTimestamps are the timestamps the runtime cases take: offsets east,
// west and zero (+00:00, which Go writes Z), fractions, leap days, a year
// before 1970 and one after 2262 (beyond nanoseconds in 64 bits), hours
// either side of noon and midnight.
var dateTimestamps = []string{
	"2024-02-29T23:30:00+02:00",
	"2018-01-02T09:05:07Z",
	"1950-06-15T00:00:00.5-05:30",
	"2300-12-31T12:59:59.999+00:00",
	"2001-07-04T12:00:00-10:00",
}

// dateFormats are formatdate formats with every verb, literals Go would
// read as layout elements ("15", "Jan", "2006" between quotes), and verbs
// next to each other that Go's layouts would read otherwise ("M" then "s"
// is "15" in a Go layout).
var dateFormats = []string{
	"YYYY-MM-DD'T'hh:mm:ssZ",
	"YY M D h H AA aa m s",
	"MMMM MMM EEEE EEE",
	"Ms hh:mm ZZZ ZZZZ ZZZZZ Z",
	"'Jan 2006 15 pm' DD",
	"hhmmss''YYYYMMDD",
	"D/M/YY, H:mm aa",
	"HH.mm.ss,MM",
}

// TestDateFunctionsAtPlan converts formatdate, timeadd and timecmp over
// inputs, values known only when planning, and checks that CUE evaluates
// each call to OpenTofu's value.
func TestDateFunctionsAtPlan(t *testing.T) {
	var src strings.Builder
	type output struct{ name, expr string }
	var outs []output
	for j, ts := range dateTimestamps {
		fmt.Fprintf(&src, "variable \"t%d\" {\n  type    = string\n  default = %q\n}\n", j, ts)
		for i, f := range dateFormats {
			outs = append(outs, output{fmt.Sprintf("f%d_%d", i, j), fmt.Sprintf("formatdate(%q, var.t%d)", f, j)})
		}
		for i, d := range []string{"1h30m", "-24h", "0.7s", "-1.6s", "8760h"} {
			outs = append(outs, output{fmt.Sprintf("a%d_%d", i, j), fmt.Sprintf("timeadd(var.t%d, %q)", j, d)})
		}
		for k := range dateTimestamps {
			outs = append(outs, output{fmt.Sprintf("c%d_%d", j, k), fmt.Sprintf("timecmp(var.t%d, var.t%d)", j, k)})
		}
		outs = append(outs, output{fmt.Sprintf("s%d", j), fmt.Sprintf("timecmp(var.t%d, timeadd(var.t%d, \"1ns\"))", j, j)})
	}
	for _, o := range outs {
		fmt.Fprintf(&src, "output %q {\n  value = %s\n}\n", o.name, o.expr)
	}
	r, v := convertSource(t, map[string]string{"main.tf": src.String()})
	if r.Diagnostics.HasErrors() {
		t.Fatalf("not converted: %s", r.Diagnostics.Error())
	}
	vars := map[string]cty.Value{}
	for j, ts := range dateTimestamps {
		vars["t"+strconv.Itoa(j)] = cty.StringVal(ts)
	}
	ctx := &hcl.EvalContext{
		Functions: tofufuncs.Table(tofufuncs.Options{BaseDir: t.TempDir()}),
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)},
	}
	for _, o := range outs {
		e, diags := hclsyntax.ParseExpression([]byte(o.expr), "expr.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		want, diags := e.Value(ctx)
		if diags.HasErrors() {
			t.Fatalf("%s: OpenTofu: %s", o.expr, diags.Error())
		}
		got := v.LookupPath(cue.MakePath(cue.Str("output"), cue.Str(o.name)))
		switch want.Type() {
		case cty.String:
			if s, err := got.String(); err != nil || s != want.AsString() {
				t.Errorf("%s: CUE %q (%v), OpenTofu %q", o.expr, s, err, want.AsString())
			}
		case cty.Number:
			n, err := got.Int64()
			w, _ := want.AsBigFloat().Int64()
			if err != nil || n != w {
				t.Errorf("%s: CUE %d (%v), OpenTofu %d", o.expr, n, err, w)
			}
		}
	}
}

func TestFormatdateLayouts(t *testing.T) {
	for _, c := range []struct{ format, want string }{
		// Verbs and plain separators make one layout.
		{"YYYY-MM-DD'T'hh:mm:ssZ", `time.FormatString("2006-01-02T15:04:05Z07:00", _var_t)`},
		// "M" then "s" would be "15", the hour, in one layout.
		{"Ms", `time.FormatString("1", _var_t) + time.FormatString("5", _var_t)`},
		// A literal Go reads as a layout element stays a string.
		{"'Jan' YYYY", `"Jan" + time.FormatString(" 2006", _var_t)`},
		{"h:mm", `"\(time.Split(_var_t).hour)" + time.FormatString(":04", _var_t)`},
	} {
		t.Run(c.format, func(t *testing.T) {
			r, _ := convertSource(t, map[string]string{"main.tf": fmt.Sprintf("variable \"t\" {\n  type = string\n}\noutput \"x\" {\n  value = formatdate(%q, var.t)\n}\n", c.format)})
			if r.Diagnostics.HasErrors() {
				t.Fatal(r.Diagnostics.Error())
			}
			var main string
			for _, f := range r.Files {
				if f.Name == "main.cue" {
					main = string(f.Source)
				}
			}
			if !strings.Contains(main, c.want) {
				t.Errorf("main.cue does not hold %s:\n%s", c.want, main)
			}
		})
	}
}

func TestDateFunctionsNotConverted(t *testing.T) {
	for _, c := range []struct{ expr, detail string }{
		{`formatdate(var.f, "2018-01-02T23:12:01Z")`, "formatdate is converted only when its format is a constant"},
		{`formatdate("YYYYY", var.t)`, `OpenTofu reports an error for this call: invalid date format verb "YYYYY": year must either be "YY" or "YYYY"`},
		{`formatdate("'unterminated", var.t)`, "OpenTofu reports an error for this call: unterminated literal '"},
		{`formatdate("YYYY", "not a time")`, "OpenTofu reports an error for this call"},
	} {
		t.Run(c.expr, func(t *testing.T) { checkNotConverted(t, c.expr, c.detail) })
	}
}

// FuzzDateLayout checks dateLayout against OpenTofu's formatdate: a
// format it takes formats every time as OpenTofu does when its parts are
// written as the converted expression writes them, and a format it
// refuses OpenTofu refuses too.
func FuzzDateLayout(f *testing.F) {
	for _, s := range dateFormats {
		f.Add(s, int64(1700000000), int32(19800))
	}
	f.Add("Ms", int64(-631152000), int32(-36000))
	f.Add("'", int64(0), int32(0))
	f.Fuzz(func(t *testing.T, format string, sec int64, offset int32) {
		if len(format) > 64 {
			return
		}
		// A format reaches dateLayout as a cty string, which is NFC.
		format = cty.StringVal(format).AsString()
		sec %= 1 << 36 // years Go formats with four digits or so
		offset %= 24 * 3600
		offset -= offset % 60
		ts := time.Unix(sec, 0).In(time.FixedZone("", int(offset))).Format(time.RFC3339)
		want, werr := stdlib.FormatDate(cty.StringVal(format), cty.StringVal(ts))
		parts, err := dateLayout(format)
		if (err != nil) != (werr != nil) {
			t.Fatalf("formatdate(%q): dateLayout error %v, OpenTofu error %v", format, err, werr)
		}
		if err != nil {
			return
		}
		tm, _ := time.Parse(time.RFC3339, ts)
		var got strings.Builder
		for _, p := range parts {
			switch {
			case p.layout != "":
				got.WriteString(tm.Format(p.layout))
			case p.verb == "h":
				got.WriteString(strconv.Itoa(tm.Hour()))
			case p.verb == "ZZZ":
				if z := tm.Format("-0700"); z == "+0000" {
					got.WriteString("UTC")
				} else {
					got.WriteString(z)
				}
			default:
				got.WriteString(p.literal)
			}
		}
		// cty strings are NFC: compare as OpenTofu would see the text.
		if cty.StringVal(got.String()).AsString() != want.AsString() {
			t.Fatalf("formatdate(%q, %q): parts %+v give %q, OpenTofu %q", format, ts, parts, got.String(), want.AsString())
		}
	})
}
