package cueform

import (
	"reflect"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/format"
)

// What convert writes with Attr, Quote and Arg, engine/cue reads back
// with ParseDecl.
func TestDeclRoundTrip(t *testing.T) {
	for _, c := range []struct {
		attr *ast.Attribute
		want Decl
	}{
		{Attr(AttrResource, Quote("aws_subnet.main"+Instances), Arg(ArgProvider, "aws.west"), Arg(ArgDependsOn, "aws_vpc.main,data.x.y")),
			Decl{Name: "aws_subnet.main", Multi: true, Provider: "aws.west", DependsOn: []string{"aws_vpc.main", "data.x.y"}}},
		{Attr(AttrOutput, Quote("vpc-id"), ArgSensitive), Decl{Name: "vpc-id", Sensitive: true}},
		{Attr(AttrModule, Quote("net"), Arg("source", "./modules/net"), Arg(ArgProviders, "aws=aws.west")),
			Decl{Name: "net", Providers: "aws=aws.west"}},
		{Attr(AttrInput, Quote("name with spaces")), Decl{Name: "name with spaces"}},
	} {
		f := &ast.File{Decls: []ast.Decl{&ast.Field{Label: ast.NewIdent("x"), Value: ast.NewString("v"), Attrs: []*ast.Attribute{c.attr}}}}
		src, err := format.Node(f)
		if err != nil {
			t.Fatal(err)
		}
		v := cuecontext.New().CompileBytes(src)
		if v.Err() != nil {
			t.Fatalf("%s: %v", src, v.Err())
		}
		attrs := v.LookupPath(cue.ParsePath("x")).Attributes(cue.FieldAttr)
		if len(attrs) != 1 {
			t.Fatalf("%s: %d attributes", src, len(attrs))
		}
		if got := ParseDecl(attrs[0]); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", src, got, c.want)
		}
	}
}
