package plan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

func TestParentModule(t *testing.T) {
	for addr, want := range map[string]string{
		"module.a":                           "",
		`module.a["x"]`:                      "",
		"module.a.module.b":                  "module.a",
		`module.a["x.module.y"].module.b[2]`: `module.a["x.module.y"]`,
		`module.a["k\".module.q"]`:           "",
		"module.a.module.b.module.c":         "module.a.module.b",
	} {
		if got := parentModule(addr); got != want {
			t.Errorf("parentModule(%s) = %q, want %q", addr, got, want)
		}
	}
}

func TestSortAndAddr(t *testing.T) {
	p := &Plan{Instances: []*Instance{
		{Type: "aws_subnet", Name: "s", Key: cty.NumberIntVal(10)},
		{Type: "aws_subnet", Name: "s", Key: cty.NumberIntVal(2)},
		{Module: `module.net["b"]`, Type: "aws_vpc", Name: "v"},
		{Mode: config.DataMode, Type: "aws_ami", Name: "x"},
		{Type: "aws_iam_user", Name: "u", Key: cty.StringVal("bob")},
		{Type: "aws_iam_user", Name: "u", Key: cty.StringVal("alice \"al\"")},
	}}
	p.Sort()
	var got []string
	for _, in := range p.Instances {
		got = append(got, in.Addr())
	}
	want := []string{
		`aws_iam_user.u["alice \"al\""]`,
		`aws_iam_user.u["bob"]`,
		`aws_subnet.s[2]`,
		`aws_subnet.s[10]`,
		`data.aws_ami.x`,
		`module.net["b"].aws_vpc.v`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestUnknownAndSensitiveTrees(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"id":     cty.UnknownVal(cty.String),
		"name":   cty.StringVal("x"),
		"secret": cty.StringVal("s").Mark(SensitiveMark),
		"list":   cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}),
		"nested": cty.ObjectVal(map[string]cty.Value{"k": cty.UnknownVal(cty.Number), "j": cty.True}),
		"empty":  cty.ListValEmpty(cty.String),
	})
	show := func(x any) string {
		b, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got, want := show(unknownTree(v, false)), `{"id":true,"list":[false,true],"nested":{"k":true}}`; got != want {
		t.Errorf("after_unknown = %s, want %s", got, want)
	}
	if got, want := show(sensitiveTree(v, false)), `{"secret":true}`; got != want {
		t.Errorf("after_sensitive = %s, want %s", got, want)
	}
	if got, want := show(jsonValue(v)), `{"empty":[],"list":["a",null],"name":"x","nested":{"j":true},"secret":"s"}`; got != want {
		t.Errorf("after = %s, want %s", got, want)
	}
	if got := show(unknownTree(cty.StringVal("x"), true)); got != "false" {
		t.Errorf("a known output's after_unknown = %s, want false", got)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:       `"plain"`,
		"a\nb\t\"c\"": `"a\nb\t\"c\""`,
		"${x} %{y}":   `"$${x} %%{y}"`,
		"$ %":         `"$ %"`,
		"\x01":        `"\u0001"`,
	} {
		if got := quote(in); got != want {
			t.Errorf("quote(%q) = %s, want %s", in, got, want)
		}
	}
}
