package convert

import "testing"

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

func TestDateFunctionsNotConverted(t *testing.T) {
	for _, c := range []struct{ expr, detail string }{
		{`formatdate("YYYY", timestamp())`, "formatdate is converted only when its arguments are constants"},
		{`formatdate("YYYY", plantimestamp())`, "formatdate is converted only when its arguments are constants"},
		{`timeadd(var.t, "1h")`, "timeadd is converted only when"},
		{`timecmp(var.t, "2017-11-22T00:00:00Z")`, "timecmp is converted only when"},
		{`formatdate("YYYY", "not a time")`, "OpenTofu reports an error for this call"},
	} {
		t.Run(c.expr, func(t *testing.T) { checkNotConverted(t, c.expr, c.detail) })
	}
}
