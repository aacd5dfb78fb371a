package verify

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/engine/plan"
)

func instance(name string, key cty.Value, planned, applied cty.Value) *plan.Instance {
	return &plan.Instance{Type: "aws_subnet", Name: name, Key: key, Action: plan.Create, Planned: planned, Applied: applied}
}

func obj(attrs map[string]cty.Value) cty.Value { return cty.ObjectVal(attrs) }

func TestCompare(t *testing.T) {
	unknown := cty.UnknownVal(cty.String)
	base := func() *plan.Plan {
		return &plan.Plan{
			Instances: []*plan.Instance{
				instance("a", cty.StringVal("x"),
					obj(map[string]cty.Value{"cidr": cty.StringVal("10.0.0.0/24"), "id": unknown}),
					obj(map[string]cty.Value{"cidr": cty.StringVal("10.0.0.0/24"), "id": cty.StringVal("id-1")})),
				instance("b", cty.NilVal,
					obj(map[string]cty.Value{"n": cty.NumberIntVal(2), "tags": cty.MapValEmpty(cty.String)}),
					obj(map[string]cty.Value{"n": cty.NumberIntVal(2), "tags": cty.MapValEmpty(cty.String)})),
			},
			Outputs: map[string]*plan.Output{"ids": {Planned: unknown, Applied: cty.StringVal("id-1")}},
		}
	}
	if d := Compare(base(), base()); len(d) != 0 {
		t.Fatalf("equal plans differ: %+v", d)
	}

	for _, c := range []struct {
		name   string
		change func(*plan.Plan)
		want   string // kind: subject (stage): paths
	}{
		{"missing instance", func(p *plan.Plan) { p.Instances = p.Instances[1:] }, `missing instance: aws_subnet.a["x"]`},
		{"extra instance", func(p *plan.Plan) {
			p.Instances = append(p.Instances, instance("c", cty.NilVal, cty.EmptyObjectVal, cty.EmptyObjectVal))
		}, `extra instance: aws_subnet.c`},
		{"changed value", func(p *plan.Plan) {
			p.Instances[0].Planned = obj(map[string]cty.Value{"cidr": cty.StringVal("10.0.1.0/24"), "id": unknown})
		}, `changed value: aws_subnet.a["x"] (planned): cidr`},
		{"unknown vs known", func(p *plan.Plan) {
			p.Instances[0].Planned = obj(map[string]cty.Value{"cidr": cty.StringVal("10.0.0.0/24"), "id": cty.StringVal("id-1")})
		}, `unknown vs known: aws_subnet.a["x"] (planned): id`},
		{"changed applied", func(p *plan.Plan) {
			p.Instances[1].Applied = obj(map[string]cty.Value{"n": cty.NumberIntVal(3), "tags": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b")})})
		}, `changed value: aws_subnet.b (applied): n, tags.a`},
		{"changed output", func(p *plan.Plan) { p.Outputs["ids"].Applied = cty.StringVal("id-2") }, `changed output: output.ids (applied)`},
		{"missing output", func(p *plan.Plan) { delete(p.Outputs, "ids") }, `missing output: output.ids`},
		{"changed action", func(p *plan.Plan) { p.Instances[1].Action = plan.Read }, `changed action: aws_subnet.b`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cuePlan := base()
			c.change(cuePlan)
			var b strings.Builder
			if err := Write(&b, Compare(base(), cuePlan)); err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(b.String(), "\n")
			if first != c.want {
				t.Errorf("report starts %q, want %q; whole report:\n%s", first, c.want, b.String())
			}
		})
	}
}

// Numbers compare by value, and an absent attribute equals a null one.
func TestCompareEquivalentForms(t *testing.T) {
	a := obj(map[string]cty.Value{"n": cty.NumberFloatVal(1.0), "gone": cty.NullVal(cty.String)})
	b := obj(map[string]cty.Value{"n": cty.NumberIntVal(1)})
	var got []string
	walk(a, b, "", func(p string, _ bool) { got = append(got, p) })
	if len(got) != 0 {
		t.Errorf("differences %v, want none", got)
	}
}
