package functions

import (
	"errors"
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// timestampFunc is the current time in UTC, RFC 3339.
var timestampFunc = function.New(&function.Spec{
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
		return cty.StringVal(time.Now().UTC().Format(time.RFC3339)), nil
	},
})

// staticTimestampFunc always returns t, RFC 3339: plantimestamp, fixed for a
// whole plan.
func staticTimestampFunc(t time.Time) function.Function {
	s := t.UTC().Format(time.RFC3339)
	return function.New(&function.Spec{
		Type: function.StaticReturnType(cty.String),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.StringVal(s), nil
		},
	})
}

// timeCmpFunc compares two RFC 3339 timestamps: -1, 0 or 1.
var timeCmpFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "timestamp_a", Type: cty.String},
		{Name: "timestamp_b", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Number),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		a, err := parseTimestamp(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Number), function.NewArgError(0, err)
		}
		b, err := parseTimestamp(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Number), function.NewArgError(1, err)
		}
		return cty.NumberIntVal(int64(a.Compare(b))), nil
	},
})

// layoutNames names the parts of Go's RFC 3339 layout, for error messages
// that do not show Go's reference time.
var layoutNames = map[string]string{
	"2006": "year", "01": "month", "02": "day of month", "15": "hour",
	"04": "minute", "05": "second", "Z07:00": "UTC offset",
}

// parseTimestamp parses RFC 3339, with OpenTofu's error messages.
func parseTimestamp(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err == nil {
		return t, nil
	}
	var pe *time.ParseError
	if !errors.As(err, &pe) {
		return time.Time{}, err
	}
	if pe.LayoutElem == "" && pe.ValueElem == "" && pe.Message != "" {
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: %w", err)
	}
	switch pe.LayoutElem {
	case "T":
		return time.Time{}, errors.New("not a valid RFC3339 timestamp: missing required time introducer 'T'")
	case ":", "-":
		if pe.ValueElem == "" {
			return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: end of string where %q is expected", pe.LayoutElem)
		}
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: found %q where %q is expected", pe.ValueElem, pe.LayoutElem)
	}
	what, ok := layoutNames[pe.LayoutElem]
	if !ok {
		what = "timestamp segment"
	}
	if pe.ValueElem == "" {
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: end of string before %s", what)
	}
	return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: cannot use %q as %s", pe.ValueElem, what)
}
