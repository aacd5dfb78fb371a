package mock

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestValueDeterministic(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{
		"id":    cty.String,
		"n":     cty.Number,
		"ok":    cty.Bool,
		"list":  cty.List(cty.String),
		"set":   cty.Set(cty.Number),
		"tags":  cty.Map(cty.String),
		"tuple": cty.Tuple([]cty.Type{cty.String, cty.Bool}),
		"any":   cty.DynamicPseudoType,
	})
	path := cty.GetAttrPath("ebs").IndexInt(0).GetAttr("volume")
	a := Value("module.net[0].aws_subnet.a[\"x\"]", path, ty)
	b := Value("module.net[0].aws_subnet.a[\"x\"]", path, ty)
	if !a.RawEquals(b) {
		t.Fatalf("the same inputs gave %#v and %#v", a, b)
	}
	if !a.IsWhollyKnown() || !a.Type().Equals(cty.Object(map[string]cty.Type{
		"id": cty.String, "n": cty.Number, "ok": cty.Bool, "list": cty.List(cty.String), "set": cty.Set(cty.Number),
		"tags": cty.Map(cty.String), "tuple": cty.Tuple([]cty.Type{cty.String, cty.Bool}), "any": cty.String,
	})) {
		t.Fatalf("Value = %#v: not wholly known or not of the type", a)
	}
	if a.GetAttr("list").LengthInt() != 1 || a.GetAttr("set").LengthInt() != 1 || !a.GetAttr("tags").HasIndex(cty.StringVal("key")).True() {
		t.Errorf("collections are not one element each: %#v", a)
	}

	other := Value("module.net[0].aws_subnet.a[\"x\"]", cty.GetAttrPath("ebs").IndexInt(1).GetAttr("volume"), ty)
	if other.GetAttr("id").RawEquals(a.GetAttr("id")) {
		t.Errorf("different paths gave the same string %#v", a.GetAttr("id"))
	}
	otherAddr := Value("module.net[1].aws_subnet.a[\"x\"]", path, ty)
	if otherAddr.GetAttr("id").RawEquals(a.GetAttr("id")) {
		t.Errorf("different addresses gave the same string %#v", a.GetAttr("id"))
	}
	// Elements and attributes of one value are at their own paths.
	if a.GetAttr("list").Index(cty.NumberIntVal(0)).RawEquals(a.GetAttr("tags").Index(cty.StringVal("key"))) {
		t.Error("two parts of one value have the same generated string")
	}
}

// TestValueScheme checks the documented scheme: NAME-HEX8 of the SHA-256
// of address, zero byte and path.
func TestValueScheme(t *testing.T) {
	sum := sha256.Sum256([]byte("aws_s3_bucket.b\x00.id"))
	want := "id-" + hex.EncodeToString(sum[:4])
	if got := Value("aws_s3_bucket.b", cty.GetAttrPath("id"), cty.String); got.AsString() != want {
		t.Errorf("Value = %q, want %q", got.AsString(), want)
	}
	n := Value("aws_s3_bucket.b", cty.GetAttrPath("port"), cty.Number)
	if i, _ := n.AsBigFloat().Int64(); i < 1 || i > 9 {
		t.Errorf("number %v is not from 1 to 9", n)
	}

	tests := []struct {
		path cty.Path
		want string // a prefix, or a whole value
	}{
		{cty.GetAttrPath("arn"), "arn:aws:mock:us-east-1:123456789012:arn/"},
		{cty.GetAttrPath("role_arn"), "arn:aws:mock:us-east-1:123456789012:role_arn/"},
		{cty.GetAttrPath("policy"), "{}"},
		{cty.GetAttrPath("assume_role_policy"), "{}"},
		{cty.GetAttrPath("json"), "{}"},
		{cty.GetAttrPath("cidr_block"), "10."},
		{cty.GetAttrPath("ipv6_cidr_block"), "fd00:"},
		{cty.GetAttrPath("private_ip"), "10."},
		{cty.GetAttrPath("website_url"), "https://"},
		{cty.GetAttrPath("dns_name"), ""},
		{cty.GetAttrPath("tags").IndexString("Name"), "tags-"},
		{cty.Path{}, "value-"},
	}
	for _, tt := range tests {
		got := Value("aws_lb.x", tt.path, cty.String).AsString()
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("Value at %s = %q, want it to start with %q", PathString(tt.path), got, tt.want)
		}
	}
	if got := Value("aws_lb.x", cty.GetAttrPath("dns_name"), cty.String).AsString(); !strings.HasSuffix(got, ".example.com") {
		t.Errorf("dns_name = %q", got)
	}
	if got := PathString(cty.GetAttrPath("a").IndexInt(2).IndexString("k\"").GetAttr("b")); got != `.a[2]["k\""].b` {
		t.Errorf("PathString = %s", got)
	}
}

// TestValueAcrossProcesses runs the test binary again and compares the
// values it prints with this process's: Value depends on nothing else than
// its arguments (no map order, no random seed).
func TestValueAcrossProcesses(t *testing.T) {
	if os.Getenv("MOCK_VALUE_CHILD") == "1" {
		os.Stdout.WriteString(sampleValues())
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestValueAcrossProcesses$")
	cmd.Env = append(os.Environ(), "MOCK_VALUE_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	if want := sampleValues(); !strings.Contains(string(out), want) {
		t.Errorf("child printed\n%s\nwant\n%s", out, want)
	}
}

func sampleValues() string {
	ty := cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number, "c": cty.Bool, "d": cty.Map(cty.String), "e": cty.List(cty.Object(map[string]cty.Type{"x": cty.String}))})
	var b strings.Builder
	for _, addr := range []string{"aws_instance.web", "data.aws_ami.x", "module.m[\"k\"].aws_vpc.v[3]"} {
		v := Value(addr, cty.GetAttrPath("root"), ty)
		b.WriteString(addr + " " + v.GoString() + "\n")
	}
	return b.String()
}
