package functions

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"
)

// eval evaluates an HCL expression with the function table of opts and the
// given variables (path.module is "." unless vars says otherwise).
func eval(t *testing.T, opts Options, src string, vars map[string]cty.Value) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.hcl", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		t.Fatalf("parse %s: %s", src, diags.Error())
	}
	ctx := &hcl.EvalContext{
		Functions: Table(opts),
		Variables: map[string]cty.Value{"path": cty.ObjectVal(map[string]cty.Value{"module": cty.StringVal(".")})},
	}
	for k, v := range vars {
		ctx.Variables[k] = v
	}
	return expr.Value(ctx)
}

// show writes a value so that its type shows: tuples and objects as HCL
// literals, lists, sets and maps wrapped in tolist, toset and tomap, marks
// and unknowns spelled out.
func show(v cty.Value) string {
	v, marks := v.Unmark()
	if len(marks) > 0 {
		return "sensitive(" + show(v) + ")"
	}
	ty := v.Type()
	switch {
	case !v.IsKnown():
		return "unknown(" + ty.FriendlyName() + ")"
	case v.IsNull():
		return "null"
	case ty == cty.String:
		return strconv.Quote(v.AsString())
	case ty == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return strconv.FormatBool(v.True())
	case ty.IsCapsuleType():
		return fmt.Sprintf("%#v", *v.EncapsulatedValue().(*cty.Type))
	}
	var parts []string
	for k, e := range v.Elements() {
		switch {
		case ty.IsMapType() || ty.IsObjectType():
			parts = append(parts, strconv.Quote(k.AsString())+" = "+show(e))
		default:
			parts = append(parts, show(e))
		}
	}
	body := strings.Join(parts, ", ")
	switch {
	case ty.IsListType():
		return "tolist([" + body + "])"
	case ty.IsSetType():
		return "toset([" + body + "])"
	case ty.IsMapType():
		return "tomap({" + body + "})"
	case ty.IsObjectType():
		return "{" + body + "}"
	}
	return "[" + body + "]"
}

type example struct {
	expr string
	want string // show of the result
}

// run checks examples against the table with BaseDir testdata.
func run(t *testing.T, cases []example) {
	t.Helper()
	runWith(t, nil, cases)
}

// runWith checks examples with the variables vars in scope.
func runWith(t *testing.T, vars map[string]cty.Value, cases []example) {
	t.Helper()
	for _, c := range cases {
		got, diags := eval(t, Options{BaseDir: "testdata"}, c.expr, vars)
		if diags.HasErrors() {
			t.Errorf("%s: %s", c.expr, diags.Error())
			continue
		}
		if s := show(got); s != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.expr, s, c.want)
		}
		resultKindAgrees(t, c.expr, got)
	}
}

type failure struct {
	expr string
	want string // part of the error message
}

func runErrors(t *testing.T, cases []failure) {
	t.Helper()
	for _, c := range cases {
		got, diags := eval(t, Options{BaseDir: "testdata"}, c.expr, nil)
		if !diags.HasErrors() {
			t.Errorf("%s: no error, got %s", c.expr, show(got))
			continue
		}
		if !strings.Contains(diags.Error(), c.want) {
			t.Errorf("%s: error %q does not contain %q", c.expr, diags.Error(), c.want)
		}
	}
}

// The examples of OpenTofu's function pages, function by function.
func TestDocumentedExamples(t *testing.T) {
	run(t, []example{
		{`abs(23)`, `23`},
		{`abs(0)`, `0`},
		{`abs(-12.4)`, `12.4`},
		{`alltrue(["true", true])`, `true`},
		{`alltrue([true, false])`, `false`},
		{`alltrue([])`, `true`},
		{`anytrue(["true"])`, `true`},
		{`anytrue([true, false])`, `true`},
		{`anytrue([])`, `false`},
		{`base64decode("SGVsbG8gV29ybGQ=")`, `"Hello World"`},
		{`base64encode("Hello World")`, `"SGVsbG8gV29ybGQ="`},
		{`base64sha256("hello world")`, `"uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek="`},
		{`base64sha512("hello world")`, `"MJ7MSJwS1utMxA9QyQLytNDtd+5RGnx6m808qG1M2G+YndNbxf9JlnDaNCVbRbDP2DDoH2Bdz33FVC6TrpzXbw=="`},
		{`basename("foo/bar/baz.txt")`, `"baz.txt"`},
		{`ceil(5)`, `5`},
		{`ceil(5.1)`, `6`},
		{`chomp("hello\n")`, `"hello"`},
		{`chomp("hello\r\n")`, `"hello"`},
		{`chomp("hello\n\n")`, `"hello"`},
		{`chunklist(["a", "b", "c", "d", "e"], 2)`, `tolist([tolist(["a", "b"]), tolist(["c", "d"]), tolist(["e"])])`},
		{`coalesce("a", "b")`, `"a"`},
		{`coalesce("", "b")`, `"b"`},
		{`coalesce(1, 2)`, `1`},
		{`coalesce(["", "b"]...)`, `"b"`},
		{`coalesce(1, "hello")`, `"1"`},
		{`coalesce(true, "hello")`, `"true"`},
		{`coalescelist(["a", "b"], ["c", "d"])`, `["a", "b"]`},
		{`coalescelist([], ["c", "d"])`, `["c", "d"]`},
		{`coalescelist([[], ["c", "d"]]...)`, `["c", "d"]`},
		{`compact(["a", "", "b", null, "c"])`, `tolist(["a", "b", "c"])`},
		{`concat(["a", ""], ["b", "c"])`, `["a", "", "b", "c"]`},
		{`contains(["a", "b", "c"], "a")`, `true`},
		{`contains(["a", "b", "c"], "d")`, `false`},
		{`csvdecode("a,b,c\n1,2,3\n4,5,6")`, `tolist([{"a" = "1", "b" = "2", "c" = "3"}, {"a" = "4", "b" = "5", "c" = "6"}])`},
		{`dirname("foo/bar/baz.txt")`, `"foo/bar"`},
		{`distinct(["a", "b", "a", "c", "d", "b"])`, `tolist(["a", "b", "c", "d"])`},
		{`element(["a", "b", "c"], 1)`, `"b"`},
		{`element(["a", "b", "c"], 3)`, `"a"`},
		{`element(["a", "b", "c"], length(["a", "b", "c"])-1)`, `"c"`},
		{`endswith("hello world", "world")`, `true`},
		{`endswith("hello world", "hello")`, `false`},
		{`file("${path.module}/hello.txt")`, `"Hello World"`},
		{`filebase64("${path.module}/hello.txt")`, `"SGVsbG8gV29ybGQ="`},
		{`fileexists("${path.module}/hello.txt")`, `true`},
		{`fileexists("${path.module}/nothing.txt")`, `false`},
		{`fileset(path.module, "files/*.txt")`, `toset(["files/hello.txt", "files/world.txt"])`},
		{`fileset(path.module, "files/{hello,world}.txt")`, `toset(["files/hello.txt", "files/world.txt"])`},
		{`fileset("${path.module}/files", "*")`, `toset(["hello.txt", "world.txt"])`},
		{`fileset("${path.module}/files", "**")`, `toset(["hello.txt", "subdirectory/anotherfile.txt", "world.txt"])`},
		{`fileset(path.module, "nothing/*")`, `toset([])`},
		{`flatten([["a", "b"], [], ["c"]])`, `["a", "b", "c"]`},
		{`flatten([[["a", "b"], []], ["c"]])`, `["a", "b", "c"]`},
		{`floor(5)`, `5`},
		{`floor(4.9)`, `4`},
		{`format("Hello, %s!", "Ander")`, `"Hello, Ander!"`},
		{`format("There are %d lights", 4)`, `"There are 4 lights"`},
		{`format("%#v", "hello")`, `"\"hello\""`},
		{`format("%#v", true)`, `"true"`},
		{`format("%#v", 1)`, `"1"`},
		{`format("%#v", {a = 1})`, `"{\"a\":1}"`},
		{`format("%#v", [true])`, `"[true]"`},
		{`format("%#v", null)`, `"null"`},
		{`formatdate("DD MMM YYYY hh:mm ZZZ", "2018-01-02T23:12:01Z")`, `"02 Jan 2018 23:12 UTC"`},
		{`formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01Z")`, `"Tuesday, 02-Jan-18 23:12:01 UTC"`},
		{`formatdate("EEE, DD MMM YYYY hh:mm:ss ZZZ", "2018-01-02T23:12:01-08:00")`, `"Tue, 02 Jan 2018 23:12:01 -0800"`},
		{`formatdate("MMM DD, YYYY", "2018-01-02T23:12:01Z")`, `"Jan 02, 2018"`},
		{`formatdate("HH:mmaa", "2018-01-02T23:12:01Z")`, `"11:12pm"`},
		{`formatdate("h'h'mm", "2018-01-02T23:12:01-08:00")`, `"23h12"`},
		{`formatdate("H 'o''clock'", "2018-01-02T23:12:01-08:00")`, `"11 o'clock"`},
		{`formatlist("Hello, %s!", ["Valentina", "Ander", "Olivia", "Sam"])`, `tolist(["Hello, Valentina!", "Hello, Ander!", "Hello, Olivia!", "Hello, Sam!"])`},
		{`formatlist("%s, %s!", "Salutations", ["Valentina", "Ander"])`, `tolist(["Salutations, Valentina!", "Salutations, Ander!"])`},
		{`"  items: ${indent(2, "[\n  foo,\n  bar,\n]\n")}"`, `"  items: [\n    foo,\n    bar,\n  ]\n  "`},
		{`index(["a", "b", "c"], "b")`, `1`},
		{`issensitive(1)`, `false`},
		{`issensitive("hello")`, `false`},
		{`issensitive(sensitive("hello"))`, `true`},
		{`join("-", ["foo", "bar", "baz"])`, `"foo-bar-baz"`},
		{`join(", ", ["foo"])`, `"foo"`},
		{`jsondecode("{\"hello\": \"world\"}")`, `{"hello" = "world"}`},
		{`jsondecode("true")`, `true`},
		{`jsonencode({"hello"="world"})`, `"{\"hello\":\"world\"}"`},
		{`keys({a=1, c=2, d=3})`, `["a", "c", "d"]`},
		{`length([])`, `0`},
		{`length(["a", "b"])`, `2`},
		{`length({"a" = "b"})`, `1`},
		{`length("hello")`, `5`},
		{`length("👾🕹️")`, `2`},
		{`log(50, 10)`, `1.6989700043360185`},
		{`log(16, 2)`, `4`},
		{`ceil(log(15, 2))`, `4`},
		{`ceil(log(17, 2))`, `5`},
		{`lookup({a="ay", b="bee"}, "a", "what?")`, `"ay"`},
		{`lookup({a="ay", b="bee"}, "c", "what?")`, `"what?"`},
		{`lower("HELLO")`, `"hello"`},
		{`lower("АЛЛО!")`, `"алло!"`},
		{`matchkeys(["i-123", "i-abc", "i-def"], ["us-west", "us-east", "us-east"], ["us-east"])`, `tolist(["i-abc", "i-def"])`},
		{`max(12, 54, 3)`, `54`},
		{`max([12, 54, 3]...)`, `54`},
		{`md5("hello world")`, `"5eb63bbbe01eeed093cb22bb8f5acdc3"`},
		{`merge({a="b", c="d"}, {e="f", c="z"})`, `{"a" = "b", "c" = "z", "e" = "f"}`},
		{`merge({a="b"}, {a=[1,2], c="z"}, {d=3})`, `{"a" = [1, 2], "c" = "z", "d" = 3}`},
		{`merge([{a="b", c="d"}, {}, {e="f", c="z"}]...)`, `{"a" = "b", "c" = "z", "e" = "f"}`},
		{`min(12, 54, 3)`, `3`},
		{`min([12, 54, 3]...)`, `3`},
		{`nonsensitive(sensitive("clear"))`, `"clear"`},
		{`nonsensitive("clear")`, `"clear"`},
		{`one([])`, `null`},
		{`one(["hello"])`, `"hello"`},
		{`one(toset([]))`, `null`},
		{`one(toset(["hello"]))`, `"hello"`},
		{`parseint("100", 10)`, `100`},
		{`parseint("FF", 16)`, `255`},
		{`parseint("-10", 16)`, `-16`},
		{`parseint("1011111011101111", 2)`, `48879`},
		{`parseint("aA", 62)`, `656`},
		{`pathexpand("/etc/resolv.conf")`, `"/etc/resolv.conf"`},
		{`pow(3, 2)`, `9`},
		{`pow(4, 0)`, `1`},
		{`range(3)`, `tolist([0, 1, 2])`},
		{`range(1, 4)`, `tolist([1, 2, 3])`},
		{`range(1, 8, 2)`, `tolist([1, 3, 5, 7])`},
		{`range(1, 4, 0.5)`, `tolist([1, 1.5, 2, 2.5, 3, 3.5])`},
		{`range(4, 1)`, `tolist([4, 3, 2])`},
		{`range(10, 5, -2)`, `tolist([10, 8, 6])`},
		{`regex("[a-z]+", "53453453.345345aaabbbccc23454")`, `"aaabbbccc"`},
		{`regex("(\\d\\d\\d\\d)-(\\d\\d)-(\\d\\d)", "2019-02-01")`, `["2019", "02", "01"]`},
		{`regex("^(?:(?P<scheme>[^:/?#]+):)?(?://(?P<authority>[^/?#]*))?", "https://example.com/docs/")`, `{"authority" = "example.com", "scheme" = "https"}`},
		{`regexall("[a-z]+", "1234abcd5678efgh9")`, `tolist(["abcd", "efgh"])`},
		{`length(regexall("[a-z]+", "1234abcd5678efgh9"))`, `2`},
		{`length(regexall("[a-z]+", "123456789")) > 0`, `false`},
		{`replace("1 + 2 + 3", "+", "-")`, `"1 - 2 - 3"`},
		{`replace("hello world", "/w.*d/", "everybody")`, `"hello everybody"`},
		{`reverse([1, 2, 3])`, `[3, 2, 1]`},
		{`sensitive(1)`, `sensitive(1)`},
		{`sensitive("hello")`, `sensitive("hello")`},
		{`sensitive([])`, `sensitive([])`},
		{`setintersection(["a", "b"], ["b", "c"], ["b", "d"])`, `toset(["b"])`},
		{`setproduct(["development", "staging"], ["app1", "app2"])`, `tolist([["development", "app1"], ["development", "app2"], ["staging", "app1"], ["staging", "app2"]])`},
		{`setproduct(["development", "staging", "production"], [])`, `tolist([])`},
		{`setproduct(["a"], ["b"])`, `tolist([["a", "b"]])`},
		{`setproduct(["staging", "production"], ["a", 2])`, `tolist([["staging", "a"], ["staging", "2"], ["production", "a"], ["production", "2"]])`},
		{`setsubtract(["a", "b", "c"], ["a", "c"])`, `toset(["b"])`},
		{`setunion(setsubtract(["a", "b", "c"], ["a", "c", "d"]), setsubtract(["a", "c", "d"], ["a", "b", "c"]))`, `toset(["b", "d"])`},
		{`setunion(["a", "b"], ["b", "c"], ["d"])`, `toset(["a", "b", "c", "d"])`},
		{`sha1("hello world")`, `"2aae6c35c94fcfb415dbe95f408b9ce91ee846ed"`},
		{`sha256("hello world")`, `"b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"`},
		{`sha512("hello world")`, `"309ecc489c12d6eb4cc40f50c902f2b4d0ed77ee511a7c7a9bcd3ca86d4cd86f989dd35bc5ff499670da34255b45b0cfd830e81f605dcf7dc5542e93ae9cd76f"`},
		{`signum(-13)`, `-1`},
		{`signum(0)`, `0`},
		{`signum(344)`, `1`},
		{`slice(["a", "b", "c", "d"], 1, 3)`, `["b", "c"]`},
		{`sort(["e", "d", "a", "x"])`, `tolist(["a", "d", "e", "x"])`},
		{`split(",", "foo,bar,baz")`, `tolist(["foo", "bar", "baz"])`},
		{`split(",", "foo")`, `tolist(["foo"])`},
		{`split(",", "")`, `tolist([""])`},
		{`startswith("hello world", "hello")`, `true`},
		{`startswith("hello world", "world")`, `false`},
		{`strcontains("hello world", "wor")`, `true`},
		{`strcontains("hello world", "wod")`, `false`},
		{`strrev("hello")`, `"olleh"`},
		{`strrev("a ☃")`, `"☃ a"`},
		{`substr("hello world", 1, 4)`, `"ello"`},
		{`substr("🤔🤷", 0, 1)`, `"🤔"`},
		{`substr("hello world", -5, -1)`, `"world"`},
		{`substr("hello world", 6, 10)`, `"world"`},
		{`sum([10, 13, 6, 4.5])`, `33.5`},
		{`templatefile("${path.module}/backends.tftpl", { port = 8080, ip_addrs = ["10.0.0.1", "10.0.0.2"] })`, `"backend 10.0.0.1:8080\nbackend 10.0.0.2:8080\n"`},
		{`templatefile("${path.module}/config.tftpl", {config = {"x" = "y", "foo" = "bar", "key" = "value"}})`, `"\nset foo = bar\n\nset key = value\n\nset x = y\n"`},
		{`templatefile("json.tftpl", { port = 8080, ip_addrs = ["10.0.0.1", "10.0.0.2"] })`, `"{\"backends\":[\"10.0.0.1:8080\",\"10.0.0.2:8080\"]}\n"`},
		{`templatestring("Hello, Jodie!", {})`, `"Hello, Jodie!"`},
		{`templatestring("Hello, $${name}!", { name = "Alice" })`, `"Hello, Alice!"`},
		{`templatestring("List Items: $${join(\", \", list)}", { list=["value1","value2","value3"] })`, `"List Items: value1, value2, value3"`},
		{`templatestring("%%{ for key, value in list ~}  $${key}:$${value} %%{ endfor ~}", { list={key1="value1", key2="value2", key3="value3"} })`, `"key1:value1 key2:value2 key3:value3 "`},
		{`templatestring(yamlencode("%{ for value in ["Value1", "Value2", "Value3"] ~}${value} %{ endfor ~}"), {})`, `"\"Value1 Value2 Value3 \"\n"`},
		{`textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")`, `"Hello World"`},
		{`textencodebase64("Hello World", "UTF-16LE")`, `"SABlAGwAbABvACAAVwBvAHIAbABkAA=="`},
		{`timeadd("2017-11-22T00:00:00Z", "10m")`, `"2017-11-22T00:10:00Z"`},
		{`timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z")`, `0`},
		{`timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00Z")`, `-1`},
		{`timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:00:00Z")`, `1`},
		{`timecmp("2017-11-22T01:00:00Z", "2017-11-22T00:00:00-01:00")`, `0`},
		{`title("hello world")`, `"Hello World"`},
		{`tobool(true)`, `true`},
		{`tobool("true")`, `true`},
		{`tobool(null)`, `null`},
		{`tolist(["a", "b", "c"])`, `tolist(["a", "b", "c"])`},
		{`tolist(["a", "b", 3])`, `tolist(["a", "b", "3"])`},
		{`tomap({"a" = 1, "b" = 2})`, `tomap({"a" = 1, "b" = 2})`},
		{`tomap({"a" = "foo", "b" = true})`, `tomap({"a" = "foo", "b" = "true"})`},
		{`tonumber(1)`, `1`},
		{`tonumber("1")`, `1`},
		{`tonumber(null)`, `null`},
		{`toset(["a", "b", "c"])`, `toset(["a", "b", "c"])`},
		{`toset(["a", "b", 3])`, `toset(["3", "a", "b"])`},
		{`toset(["c", "b", "b"])`, `toset(["b", "c"])`},
		{`tostring("hello")`, `"hello"`},
		{`tostring(1)`, `"1"`},
		{`tostring(true)`, `"true"`},
		{`tostring(null)`, `null`},
		{`transpose({"a" = ["1", "2"], "b" = ["2", "3"]})`, `tomap({"1" = tolist(["a"]), "2" = tolist(["a", "b"]), "3" = tolist(["b"])})`},
		{`trim("?!hello?!", "!?")`, `"hello"`},
		{`trim("foobar", "far")`, `"oob"`},
		{`trim("   hello! world.!  ", "! ")`, `"hello! world."`},
		{`trimprefix("helloworld", "hello")`, `"world"`},
		{`trimprefix("helloworld", "cat")`, `"helloworld"`},
		{`trimspace("  hello\n\n")`, `"hello"`},
		{`trimsuffix("helloworld", "world")`, `"hello"`},
		{`try({bar = "baz"}.bar, "fallback")`, `"baz"`},
		{`try({bar = "baz"}.boop, "fallback")`, `"fallback"`},
		{`can({bar = "baz"}.bar)`, `true`},
		{`can({bar = "baz"}.boop)`, `false`},
		{`can(formatdate("", "2018-01-02T23:12:01Z"))`, `true`},
		{`can(formatdate("", "yesterday"))`, `false`},
		{`type([])`, `cty.EmptyTuple`},
		{`type([{foo = "bar", map = {bleep = "bloop"}}, {beep = "boop"}])`, `cty.Tuple([]cty.Type{cty.Object(map[string]cty.Type{"foo":cty.String, "map":cty.Object(map[string]cty.Type{"bleep":cty.String})}), cty.Object(map[string]cty.Type{"beep":cty.String})})`},
		{`upper("hello")`, `"HELLO"`},
		{`upper("алло!")`, `"АЛЛО!"`},
		{`urldecode("Hello+World%21")`, `"Hello World!"`},
		{`urldecode("%E2%98%83")`, `"☃"`},
		{`urldecode("foo%3Abar%40localhost%3Ffoo%3Dbar%26bar%3Dbaz")`, `"foo:bar@localhost?foo=bar&bar=baz"`},
		{`urlencode("Hello World!")`, `"Hello+World%21"`},
		{`urlencode("☃")`, `"%E2%98%83"`},
		{`"http://example.com/search?q=${urlencode("tofu urlencode")}"`, `"http://example.com/search?q=tofu+urlencode"`},
		{`uuidv5("dns", "www.opentofu.org")`, `"df1e675d-b743-5f6c-9952-6311d0f141df"`},
		{`uuidv5("url", "https://www.opentofu.org/")`, `"ace93eea-1a2c-5eed-b41b-718be15d2e50"`},
		{`uuidv5("oid", "1.3.6.1.4")`, `"af9d40a5-7a36-5c07-b23a-851cd99fbfa5"`},
		{`uuidv5("x500", "CN=Example,C=GB")`, `"84e09961-4aa4-57f8-95b7-03edb1073253"`},
		{`uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.opentofu.org")`, `"df1e675d-b743-5f6c-9952-6311d0f141df"`},
		{`uuidv5("743ac3c0-3bf7-4a5b-9e6c-59360447c757", "LIBS:diskfont.library")`, `"ede1a974-df7e-5f17-84b9-76208818b2c8"`},
		{`values({a=3, c=2, d=1})`, `[3, 2, 1]`},
		{`yamldecode("hello: world")`, `{"hello" = "world"}`},
		{`yamldecode("true")`, `true`},
		{`yamldecode("{a: &foo [1, 2, 3], b: *foo}")`, `{"a" = [1, 2, 3], "b" = [1, 2, 3]}`},
		{`yamlencode({"a":"b", "c":"d"})`, `"\"a\": \"b\"\n\"c\": \"d\"\n"`},
		{`yamlencode({"foo":[1, 2, 3], "bar": "baz"})`, `"\"bar\": \"baz\"\n\"foo\":\n- 1\n- 2\n- 3\n"`},
		{`yamlencode({"foo":[1, {"a":"b","c":"d"}, 3], "bar": "baz"})`, `"\"bar\": \"baz\"\n\"foo\":\n- 1\n- \"a\": \"b\"\n  \"c\": \"d\"\n- 3\n"`},
		{`zipmap(["a", "b"], [1, 2])`, `{"a" = 1, "b" = 2}`},
	})
}

// The documented failures, and the errors OpenTofu gives for bad input.
func TestDocumentedErrors(t *testing.T) {
	runErrors(t, []failure{
		{`coalesce({}, "hello")`, "all arguments must have the same type"},
		{`coalesce(null, "")`, "no non-null, non-empty-string arguments"},
		{`one(["hello", "goodbye"])`, "must be a list, set, or tuple value with either zero or one elements"},
		{`one(toset(["hello", "goodbye"]))`, "must be a list, set, or tuple value with either zero or one elements"},
		{`parseint("12", 2)`, `cannot parse "12" as a base 2 integer`},
		{`regex("[a-z]+", "53453453.34534523454")`, "pattern did not match any part of the given string"},
		{`tobool("no")`, `cannot convert "no" to bool; only the strings "true" or "false" are allowed`},
		{`tobool(1)`, "cannot convert number to bool"},
		{`tonumber("no")`, `cannot convert "no" to number; given string must be a decimal representation of a number`},
		{`tostring([])`, "cannot convert tuple to string"},
		{`tostring(sensitive(["a"]))`, "cannot convert tuple to string"},
		{`tonumber(sensitive("x"))`, "cannot convert this sensitive string to number"},
		{`yamldecode("{a: &foo [1, *foo, 3]}")`, `cannot refer to anchor "foo" from inside its own definition`},
		{`yamldecode("{a: !not-supported foo}")`, `unsupported tag "!not-supported"`},
		{`base64decode("this-is-not-base64")`, `failed to decode base64 data "this-is-not-base64"`},
		{`base64decode(sensitive("this-is-not-base64"))`, "failed to decode base64 data (sensitive value)"},
		{`base64decode("/w==")`, "the result of decoding the provided string is not valid UTF-8"},
		{`index([], "a")`, "cannot search an empty list"},
		{`index(["a"], "b")`, "item not found"},
		{`index({a = 1}, 1)`, "argument must be a list or tuple"},
		{`lookup({a = 1}, "b")`, `the given object has no attribute "b"`},
		{`lookup(tomap({a = 1}), "b")`, `lookup failed to find key "b"`},
		{`lookup(tomap({a = 1}), sensitive("b"))`, `lookup failed to find key (sensitive value)`},
		{`lookup({a = "x"}, "b", "c", "d")`, "lookup() takes two or three arguments, got 4"},
		{`lookup(["a"], "b")`, "lookup() requires a map as the first argument"},
		{`lookup(tomap({a = "x"}), "b", ["c"])`, "the default value must have the same type as the map elements"},
		{`sum([])`, "cannot sum an empty list"},
		{`sum(["a"])`, "argument must be list, set, or tuple of number values"},
		{`sum([null])`, "argument must be list, set, or tuple of number values"},
		{`sum({a = 1})`, "argument must be list, set, or tuple. Received object"},
		{`sum(1)`, "cannot sum noniterable"},
		{`matchkeys(["a"], ["a", "b"], ["a"])`, "length of keys and values should be equal"},
		{`matchkeys(["a"], ["a"], [["a"]])`, "keys and searchset must be of the same type"},
		{`length(1)`, "argument must be a string, a collection type, or a structural type"},
		{`transpose({a = [null]})`, `cannot use null string for ["a"][0]`},
		{`urldecode("%zz")`, "failed to decode URL"},
		{`textencodebase64("Hello", "NOT-AN-ENCODING")`, `"NOT-AN-ENCODING" is not a supported IANA encoding name or alias in this OpenTofu version`},
		{`textencodebase64("☃", "ISO-8859-1")`, "the given string contains characters that cannot be represented in ISO_8859-1:1987"},
		{`textdecodebase64("a", "UTF-8")`, "invalid base64 symbol at offset 0"},
		{`timecmp("2017-11-22", "2017-11-22T00:00:00Z")`, "not a valid RFC3339 timestamp: missing required time introducer 'T'"},
		{`timecmp("2017-11-22T00:00:00Z", "2017-13-22T00:00:00Z")`, `not a valid RFC3339 timestamp: cannot use "-22T00:00:00Z" as month`},
		{`timecmp("2017-11-22T25:00:00Z", "2017-11-22T00:00:00Z")`, `not a valid RFC3339 timestamp: cannot use ":00:00Z" as hour`},
		{`timeadd("2017-11-22T00:00:00Z", "ten minutes")`, "invalid duration"},
		{`pathexpand("~someone/x")`, "cannot expand user-specific home dir"},
		{`uuidv5("nope", "x")`, "uuidv5() doesn't support namespace nope"},
		{`bcrypt("x", 10, 11)`, "bcrypt() takes no more than two arguments"},
		{`file("nothing.txt")`, `no file exists at "nothing.txt"`},
		{`file("binary.bin")`, "are not valid UTF-8; use the filebase64 function"},
		{`file("files")`, "failed to read file"},
		{`fileexists("files")`, `"files" is a directory, not a file`},
		{`templatefile("backends.tftpl", {port = 1})`, `vars map does not contain key "ip_addrs", referenced at backends.tftpl:1,16-24`},
		{`templatefile("backends.tftpl", "x")`, "invalid vars value: must be a map"},
		{`templatefile("backends.tftpl", {"not valid" = 1, port = 1, ip_addrs = []})`, `invalid template variable name "not valid"`},
		{`templatestring("$${x}", {})`, `vars map does not contain key "x"`},
		{`templatestring("$${", {})`, "test.hcl"},
		{`replace("a", "/(/", "b")`, "missing closing )"},
		{`rsadecrypt("not base64!", "key")`, "cipher text must be base64-encoded"},
		{`rsadecrypt("aGVsbG8=", "not a key")`, "invalid private key"},
	})
}

// The examples each function's subtleties deserve.
func TestSubtleties(t *testing.T) {
	run(t, []example{
		// cidr functions, IPv4 and IPv6.
		{`cidrhost("10.12.112.0/20", 16)`, `"10.12.112.16"`},
		{`cidrhost("10.12.112.0/20", 268)`, `"10.12.113.12"`},
		{`cidrhost("fd00:fd12:3456:7890:00a2::/72", 34)`, `"fd00:fd12:3456:7890::22"`},
		{`cidrhost("10.1.2.240/28", 1)`, `"10.1.2.241"`},
		{`cidrhost("10.1.2.240/28", 14)`, `"10.1.2.254"`},
		{`cidrhost("10.1.2.240/28", -1)`, `"10.1.2.255"`},
		{`cidrhost("10.1.2.240/28", -16)`, `"10.1.2.240"`},
		{`cidrhost("10.1.2.255/28", 0)`, `"10.1.2.240"`},
		{`cidrhost("010.001.002.000/24", 9)`, `"10.1.2.9"`},
		{`cidrhost("fd00::/64", 18446744073709551615)`, `"fd00::ffff:ffff:ffff:ffff"`},
		{`cidrnetmask("172.16.0.0/12")`, `"255.240.0.0"`},
		{`cidrnetmask("10.0.0.0/32")`, `"255.255.255.255"`},
		{`cidrnetmask("0.0.0.0/0")`, `"0.0.0.0"`},
		{`cidrsubnet("172.16.0.0/12", 4, 2)`, `"172.18.0.0/16"`},
		{`cidrsubnet("10.1.2.0/24", 4, 15)`, `"10.1.2.240/28"`},
		{`cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`, `"fd00:fd12:3456:7800:a200::/72"`},
		{`cidrsubnet("10.1.2.0/24", 0, 0)`, `"10.1.2.0/24"`},
		{`cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`, `tolist(["10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20"])`},
		{`cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32)`, `tolist(["fd00:fd12:3456:7800::/72", "fd00:fd12:3456:7800:100::/72", "fd00:fd12:3456:7800:200::/72", "fd00:fd12:3456:7800:300::/88"])`},
		{`[for b in cidrsubnets("10.0.0.0/8", 8, 8, 8, 8) : cidrsubnets(b, 4, 4)]`, `[tolist(["10.0.0.0/20", "10.0.16.0/20"]), tolist(["10.1.0.0/20", "10.1.16.0/20"]), tolist(["10.2.0.0/20", "10.2.16.0/20"]), tolist(["10.3.0.0/20", "10.3.16.0/20"])]`},
		{`cidrsubnets("10.0.0.0/30", 1, 1)`, `tolist(["10.0.0.0/31", "10.0.0.2/31"])`},
		{`cidrsubnets("10.0.0.0/24")`, `tolist([])`},
		{`cidrcontains("192.168.2.0/20", "192.168.2.1")`, `true`},
		{`cidrcontains("192.168.2.0/20", "192.168.2.0/22")`, `true`},
		{`cidrcontains("192.168.2.0/20", "192.126.2.1")`, `false`},
		{`cidrcontains("192.168.2.0/20", "192.126.2.0/18")`, `false`},
		{`cidrcontains("192.168.0.0/20", "192.168.0.0/19")`, `false`},
		{`cidrcontains("fe80::/48", "fe80::1")`, `true`},
		{`cidrcontains("fe80::/48", "fe81::1")`, `false`},
		{`cidrcontains("fe80::/48", "fe80::/64")`, `true`},

		// jsonencode: sorted keys, HTML-safe escapes, numbers as written.
		{`jsonencode({b = 1, a = [true, null], c = "<&>\u2028"})`, `"{\"a\":[true,null],\"b\":1,\"c\":\"\\u003c\\u0026\\u003e\\u2028\"}"`},
		{`jsonencode([1.5, -0.25, 100000000000000000000, 1e-7, 10])`, `"[1.5,-0.25,100000000000000000000,0.0000001,10]"`},
		{`jsonencode("quote \" and \\ and \n")`, `"\"quote \\\" and \\\\ and \\n\""`},
		{`jsonencode(tomap({z = "1", a = "2"}))`, `"{\"a\":\"2\",\"z\":\"1\"}"`},
		{`jsondecode("[1, \"a\", {\"b\": null}]")`, `[1, "a", {"b" = null}]`},

		// format verbs.
		{`format("%5.2f|%-5d|%05d|%x|%X|%o|%b", 3.14159, 42, 42, 255, 255, 8, 5)`, `" 3.14|42   |00042|ff|FF|10|101"`},
		{`format("%e|%E|%g", 123456.789, 0.000123, 1e21)`, `"1.234568e+05|1.230000E-04|1e+21"`},
		{`format("%q|%t|%v|%v|%v", "a\"b", true, 1.5, "s", [1])`, `"\"a\\\"b\"|true|1.5|s|[1]"`},
		{`format("%[2]s %[1]s %%", "a", "b")`, `"b a %"`},
		{`format("%.3s|%8s|%-8s|", "abcdef", "r", "l")`, `"abc|       r|l       |"`},

		// formatdate, more of the spec.
		{`formatdate("YY YYYY M MM MMM MMMM D DD EEE EEEE", "2006-01-02T15:04:05Z")`, `"06 2006 1 01 Jan January 2 02 Mon Monday"`},
		{`formatdate("h hh H HH m mm s ss aa AA ZZZZ ZZZZZ Z", "2006-01-02T15:04:05+05:30")`, `"15 15 3 03 4 04 5 05 pm PM +0530 +05:30 +05:30"`},

		// regex groups: named give a map, unnamed a list, none the match.
		{`regex("(?P<first>[a-z]+) (?P<second>[a-z]+)", "hello world")`, `{"first" = "hello", "second" = "world"}`},
		{`regex("([a-z]+) ([a-z]+)", "hello world")`, `["hello", "world"]`},
		{`regexall("(\\d)(\\w)", "1a 2b")`, `tolist([["1", "a"], ["2", "b"]])`},
		{`regexall("(?P<d>\\d)", "1 2")`, `tolist([{"d" = "1"}, {"d" = "2"}])`},

		// replace: plain substrings, and /regex/ with group references.
		{`replace("a.b.c", ".", "-")`, `"a-b-c"`},
		{`replace("a.b.c", "/\\./", "-")`, `"a-b-c"`},
		{`replace("hello world", "/(\\w+) (\\w+)/", "$2 $1")`, `"world hello"`},
		{`replace("hello world", "/(?P<a>\\w+) (?P<b>\\w+)/", "$${b}-$${a}")`, `"world-hello"`},
		{`replace("/", "/", "x")`, `"x"`},

		// substr: negative offsets count from the end, -1 length is the rest.
		{`substr("hello world", -5, 3)`, `"wor"`},
		{`substr("hello", 1, -1)`, `"ello"`},
		{`substr("hello", 10, 1)`, `""`},
		{`substr("hello", 0, 100)`, `"hello"`},
		{`substr("hello", -10, 1)`, `"h"`},

		// lookup on objects and maps, with and without a default.
		{`lookup({a = 1, b = "x"}, "b")`, `"x"`},
		{`lookup({a = 1}, "b", null)`, `null`},
		{`lookup(tomap({a = 1}), "b", 2)`, `2`},
		{`lookup(tomap({a = "x"}), "b", 2)`, `"2"`},
		{`lookup({a = {b = "c"}}, "a")`, `{"b" = "c"}`},

		// merge: objects stay objects, maps of one type stay maps.
		{`merge(tomap({a = "1"}), tomap({b = "2"}))`, `tomap({"a" = "1", "b" = "2"})`},
		{`merge(tomap({a = "1"}), {b = 2})`, `{"a" = "1", "b" = 2}`},
		{`merge({a = 1}, null, {b = true})`, `{"a" = 1, "b" = true}`},
		{`merge()`, `{}`},

		// flatten goes through nested lists, tuples and sets but not maps.
		{`flatten([[1, [2, [3]]], toset([4]), [{a = [5]}]])`, `[1, 2, 3, 4, {"a" = [5]}]`},
		{`flatten([])`, `[]`},

		// setproduct of a list keeps the order; of sets, a set.
		{`setproduct(toset(["a", "b"]), toset([1]))`, `toset([["a", 1], ["b", 1]])`},
		{`length(setproduct([1, 2], [3, 4], [5, 6]))`, `8`},

		// try and can.
		{`try(tonumber("x"), tobool("true"), "none")`, `true`},
		{`try(["a"][3], "none")`, `"none"`},
		{`can(regex("^a", "abc"))`, `true`},
		{`can(regex("^b", "abc"))`, `false`},

		// element wraps around, in both directions (go-cty since 1.15).
		{`element(["a", "b", "c"], 7)`, `"b"`},
		{`element(["a", "b", "c"], -1)`, `"c"`},

		// length counts grapheme clusters; of a known structure, the type.
		{`length("e\u0301")`, `1`},
		{`length({a = 1, b = 2})`, `2`},
		{`length(toset(["a", "a"]))`, `1`},
		{`length(sensitive([1, 2]))`, `sensitive(2)`},

		// coalesce skips empty strings, not empty lists.
		{`coalesce(null, "", "x")`, `"x"`},
		{`coalesce(null, 0)`, `0`},

		// sum, alltrue, anytrue with nulls and conversions.
		{`sum(["1", 2])`, `3`},
		{`sum(toset([1, 2, 3]))`, `6`},
		{`alltrue([true, null])`, `false`},
		{`anytrue([null, true])`, `true`},

		// one of a tuple.
		{`one([{a = 1}])`, `{"a" = 1}`},

		// ephemeralasnull of a value with nothing ephemeral in it.
		{`ephemeralasnull({a = "x", b = [1, null]})`, `{"a" = "x", "b" = [1, null]}`},
		{`ephemeralasnull(sensitive("x"))`, `sensitive("x")`},

		// marks: nonsensitive removes only the top mark; lookup keeps marks.
		{`issensitive(nonsensitive(sensitive("x")))`, `false`},
		{`issensitive([sensitive("x")])`, `false`},
		{`lookup(sensitive({a = "x"}), "a")`, `sensitive("x")`},
		{`tolist([sensitive("a"), "b"])`, `tolist([sensitive("a"), "b"])`},
		{`base64decode(sensitive("SGk="))`, `sensitive("Hi")`},

		// base64gzip matches OpenTofu byte for byte (it flushes first), and
		// base64gunzip reverses it.
		{`base64gzip("test")`, `"H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA"`},
		{`base64gunzip(base64gzip("hello world"))`, `"hello world"`},

		// the file hashes.
		{`filemd5("hello.txt")`, `"b10a8db164e0754105b7a99be72e3fe5"`},
		{`filesha1("hello.txt")`, `"0a4d55a8d778e5022fab701977c5d840bbc486d0"`},
		{`filesha256("hello.txt")`, `"a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e"`},
		{`filesha512("hello.txt")`, `"2c74fd17edafd80e8447b0d46741ee243b7eb74dd2149a0ab1b9246fb30382f27e853d8585719e0e67cbda0daa8f51671064615d645ae27acb15bfb1447f459b"`},
		{`filebase64sha256("hello.txt")`, `"pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4="`},
		{`filebase64sha512("hello.txt")`, `"LHT9F+2v2A6ER7DUZ0HuJDt+t03SFJoKsbkkb7MDgvJ+hT2FhXGeDmfL2g2qj1FnEGRhXWRa4nrLFb+xRH9Fmw=="`},
		{`filebase64("binary.bin")`, `"//4="`},
		{`fileexists("files/subdirectory/anotherfile.txt")`, `true`},

		// templatefile may call itself, as OpenTofu allows.
		{`templatefile("count.tftpl", {n = 2})`, `"0,1,2"`},
		// Both branches of a conditional are evaluated, so this one
		// recurses to the depth limit, where the error is in the branch
		// not taken. Each level renders once, so it ends.
		{`templatefile("guarded.tftpl", {n = 2})`, `"0,1,2"`},
		{`templatefile("backends.tftpl", {port = 1, ip_addrs = []})`, `""`},

		// paths.
		{`basename("")`, `"."`},
		{`dirname("/a")`, `"/"`},
		{`abspath("/a/../b")`, `"/b"`},

		// textencodebase64 and textdecodebase64 round trip.
		{`textdecodebase64(textencodebase64("Grüße", "ISO-8859-1"), "latin1")`, `"Grüße"`},
		{`textencodebase64("Hi", "UTF-8")`, `"SGk="`},

		// startswith with an empty prefix.
		{`startswith("x", "")`, `true`},
		{`endswith("x", "")`, `true`},

		// yaml numbers and strings.
		{`yamldecode("a: 1.5\nb: '1'\nc: null\nd: [x, 0x10]")`, `{"a" = 1.5, "b" = "1", "c" = null, "d" = ["x", 16]}`},
		{`yamlencode("multi\nline\n")`, `"|\n  multi\n  line\n"`},
		{`yamlencode([true, null, 1.5])`, `"- true\n- null\n- 1.5\n"`},
	})
}

// Errors in the subtle cases.
func TestSubtleErrors(t *testing.T) {
	runErrors(t, []failure{
		{`cidrhost("10.1.2.0/24", 256)`, "prefix of 24 does not accommodate a host numbered 256"},
		{`cidrhost("10.1.2.0/24", -257)`, "prefix of 24 does not accommodate a host numbered -257"},
		{`cidrhost("10.1.2.0/33", 1)`, "invalid CIDR expression: invalid CIDR address: 10.1.2.0/33"},
		{`cidrhost("10.1.2.0", 1)`, "invalid CIDR expression: invalid CIDR address: 10.1.2.0"},
		{`cidrhost("fe80::1%eth0/64", 1)`, "invalid CIDR address"},
		{`cidrnetmask("fd00::/8")`, "IPv6 addresses cannot have a netmask: fd00::/8"},
		{`cidrsubnet("10.1.2.0/24", 9, 0)`, "insufficient address space to extend prefix of 24 by 9"},
		{`cidrsubnet("10.1.2.0/24", 4, 16)`, "prefix extension of 4 does not accommodate a subnet numbered 16"},
		{`cidrsubnet("10.1.2.0/24", 4, -1)`, "prefix extension of 4 does not accommodate a subnet numbered -1"},
		{`cidrsubnets("10.0.0.0/30", 1, 1, 1)`, "not enough remaining address space for a subnet with a prefix of 31 bits after 10.0.0.2/31"},
		{`cidrsubnets("10.0.0.0/8", 0)`, "must extend prefix by at least one bit"},
		{`cidrsubnets("fd00::/8", 33)`, "may not extend prefix by more than 32 bits"},
		{`cidrsubnets("10.0.0.0/30", 3)`, "would extend prefix to 33 bits, which is too long for an IPv4 address"},
		{`cidrsubnets("0.0.0.0/0", 4)`, "not enough remaining address space for a subnet with a prefix of 4 bits after 240.0.0.0/4"},
		{`cidrsubnets("nope", 4)`, "invalid CIDR expression"},
		{`cidrcontains("fe80::/48", "192.168.0.1")`, "address family mismatch: fe80::/48 vs. 192.168.0.1"},
		{`cidrcontains("10.0.0.0/8", "nope")`, "invalid IP address or prefix: nope"},
		{`cidrcontains("nope", "10.0.0.1")`, "invalid CIDR address: nope"},
		{`jsonencode(["a", 1][5])`, "Invalid index"},
		{`format("%d", "x")`, "unsupported value for \"%d\" at 0: a number is required"},
		{`format("%s %s", "x")`, "not enough arguments for \"%s\" at 3: need index 2 but have 1 total"},
		{`formatdate("YYYY", "2006-01-02")`, "not a valid RFC3339 timestamp"},
		{`merge({a = 1}, ["b"])`, "arguments must be maps or objects, got"},
		{`flatten("x")`, "can only flatten lists, sets and tuples"},
		{`element([], 0)`, "cannot use element function with an empty list"},
		{`try(tonumber("x"), tobool("x"))`, "no expression succeeded"},
		{`templatefile("loop.tftpl", {})`, "maximum recursion depth"},
		{`one([1, 2])`, "must be a list, set, or tuple value with either zero or one elements"},
	})
}

func TestNamesAndTable(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) {
		t.Error("Names() is not sorted")
	}
	if c := slices.Compact(slices.Clone(names)); len(c) != len(names) {
		t.Error("Names() has duplicates")
	}
	table := Table(Options{})
	for _, n := range names {
		if _, ok := table[n]; !ok {
			t.Errorf("%s is in Names() but not in Table", n)
		}
	}
	for n := range table {
		if !slices.Contains(names, n) {
			t.Errorf("%s is in Table but not in Names()", n)
		}
	}
	for _, n := range []string{"abs", "cidrcontains", "templatestring", "tomap", "try", "can", "zipmap", "plantimestamp"} {
		if !slices.Contains(names, n) {
			t.Errorf("Names() lacks %s", n)
		}
	}
	for _, n := range []string{"list", "map", "convert", "provider::aws::arn_parse"} {
		if slices.Contains(names, n) {
			t.Errorf("Names() has %s, which OpenTofu does not document", n)
		}
	}
}

// Every documented example above names its function; every function has one.
func TestEveryFunctionHasAnExample(t *testing.T) {
	src, err := os.ReadFile("functions_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range Names() {
		if !regexp.MustCompile(`[{(\s]` + "`" + `?` + n + `\(`).Match(src) {
			t.Errorf("no test calls %s", n)
		}
	}
}

func TestPlanTime(t *testing.T) {
	plan := Options{PlanTime: true}
	for _, src := range []string{`timestamp()`, `uuid()`, `bcrypt("x")`} {
		v, diags := eval(t, plan, src, nil)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags.Error())
		}
		if v.IsKnown() || v.Type() != cty.String {
			t.Errorf("%s at plan time = %s, want an unknown string", src, show(v))
		}
		// OpenTofu's results are never null, even unknown.
		isNull, _ := eval(t, plan, src+` == null`, nil)
		if !isNull.IsKnown() || isNull.True() {
			t.Errorf("%s == null at plan time = %s, want false", src, show(isNull))
		}
	}

	before := time.Now().UTC().Truncate(time.Second)
	// Templates see the same table.
	inTemplate, _ := eval(t, plan, `templatestring("$${timestamp()}", {})`, nil)
	if inTemplate.IsKnown() {
		t.Errorf("timestamp() in a template at plan time = %s, want unknown", show(inTemplate))
	}

	pt, _ := eval(t, plan, `plantimestamp()`, nil)
	if !pt.IsKnown() {
		t.Fatal("plantimestamp() is unknown at plan time")
	}
	if ts, err := time.Parse(time.RFC3339, pt.AsString()); err != nil || ts.Before(before) || ts.Location() != time.UTC {
		t.Errorf("plantimestamp() = %s, want an RFC 3339 UTC time from now", pt.AsString())
	}

	apply := Options{}
	ts, _ := eval(t, apply, `timestamp()`, nil)
	if _, err := time.Parse(time.RFC3339, ts.AsString()); err != nil || !strings.HasSuffix(ts.AsString(), "Z") {
		t.Errorf("timestamp() = %s, want RFC 3339 in UTC", show(ts))
	}
	id, _ := eval(t, apply, `uuid()`, nil)
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(id.AsString()) {
		t.Errorf("uuid() = %s, want a version 4 UUID", id.AsString())
	}
	h, _ := eval(t, apply, `bcrypt("hello world", 5)`, nil)
	if !strings.HasPrefix(h.AsString(), "$2a$05$") || bcrypt.CompareHashAndPassword([]byte(h.AsString()), []byte("hello world")) != nil {
		t.Errorf("bcrypt(\"hello world\", 5) = %s, not a hash of it", h.AsString())
	}
	// plantimestamp is fixed within a table.
	table := Table(apply)
	a, _ := table["plantimestamp"].Call(nil)
	time.Sleep(1100 * time.Millisecond)
	b, _ := table["plantimestamp"].Call(nil)
	if !a.RawEquals(b) {
		t.Errorf("plantimestamp() changed within one table: %s, %s", show(a), show(b))
	}
}

func TestUnknownArguments(t *testing.T) {
	vars := map[string]cty.Value{
		"s": cty.UnknownVal(cty.String).Refine().StringPrefix("hello").NewValue(),
		"l": cty.UnknownVal(cty.List(cty.String)),
		"t": cty.TupleVal([]cty.Value{cty.UnknownVal(cty.String), cty.StringVal("x")}),
	}
	cases := []example{
		{`startswith(s, "he")`, `true`},
		{`startswith(s, "hex")`, `false`},
		{`startswith(s, "hello world")`, `unknown(bool)`},
		{`length(t)`, `2`},
		{`length(l)`, `unknown(number)`},
		{`md5(s) == null`, `false`},
		{`cidrhost(s, 1) == null`, `false`},
		{`sum([1, s])`, `unknown(number)`},
		{`alltrue([true, tobool(s)])`, `unknown(bool)`},
		{`alltrue([false, tobool(s)])`, `false`},
		{`anytrue([true, tobool(s)])`, `true`},
		{`index(l, "a")`, `unknown(number)`},
		{`lookup({a = s}, "a")`, `unknown(string)`},
		{`one(l)`, `unknown(string)`},
		{`templatefile("backends.tftpl", {port = s, ip_addrs = ["a"]})`, `unknown(string)`},
		{`issensitive(s)`, `false`},
		{`jsonencode({a = s})`, `unknown(string)`},
	}
	runWith(t, vars, cases)
}

func TestFilesStayInBaseDir(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir) // ~ is outside the module too
	base := filepath.Join(dir, "module")
	write := func(name, text string) { writeFile(t, filepath.Join(dir, name), text) }
	write("secret.txt", "secret")
	write("module/inside.txt", "inside")
	write("module/sub/deeper.txt", "deeper")
	write("module/sub/t.tftpl", "${file(\"../secret.txt\")}")
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(base, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("inside.txt", filepath.Join(base, "samelink.txt")); err != nil {
		t.Fatal(err)
	}
	opts := Options{BaseDir: base}

	for src, want := range map[string]string{
		`file("inside.txt")`:                          `"inside"`,
		`file("./sub/../inside.txt")`:                 `"inside"`,
		`file("sub/deeper.txt")`:                      `"deeper"`,
		`file("samelink.txt")`:                        `"inside"`,
		`file(abspath("inside.txt"))`:                 `"inside"`,
		`fileexists("sub/none.txt")`:                  `false`,
		`fileset(".", "**/*.txt")`:                    `toset(["inside.txt", "samelink.txt", "sub/deeper.txt"])`,
		`fileset("sub", "*")`:                         `toset(["deeper.txt", "t.tftpl"])`,
		`filemd5("inside.txt")`:                       `"335cf4508dd597be4bfc9caa3e08b901"`,
		`abspath("sub/x") == "${abspath(".")}/sub/x"`: `true`,
	} {
		got, diags := eval(t, opts, src, nil)
		if diags.HasErrors() {
			t.Errorf("%s: %s", src, diags.Error())
			continue
		}
		if s := show(got); s != want {
			t.Errorf("%s = %s, want %s", src, s, want)
		}
	}

	outside := filepath.Join(dir, "secret.txt")
	for _, src := range []string{
		`file("../secret.txt")`,
		`file("sub/../../secret.txt")`,
		`file("` + outside + `")`,
		`file("link.txt")`,
		`filebase64("../secret.txt")`,
		`filesha256("../secret.txt")`,
		`fileexists("../secret.txt")`,
		`fileexists("link.txt")`,
		`fileset("..", "*.txt")`,
		`fileset(".", "../*.txt")`,
		`templatefile("../secret.txt", {})`,
		`templatefile("sub/t.tftpl", {})`,
		`file("~/x")`,
	} {
		got, diags := eval(t, opts, src, nil)
		if !diags.HasErrors() {
			t.Errorf("%s read outside the base directory: %s", src, show(got))
			continue
		}
		if !strings.Contains(diags.Error(), "is outside the module directory") {
			t.Errorf("%s: error %q does not say the path is outside", src, diags.Error())
		}
	}

	// A link that leads out is not listed.
	got, _ := eval(t, opts, `contains(fileset(".", "*"), "link.txt")`, nil)
	if got.True() {
		t.Error("fileset lists a link to a file outside the base directory")
	}
}

// writeFile writes text to p, making its directory first.
func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFilesInRoot checks Options.Root: relative paths resolve against
// BaseDir, and files anywhere in Root (a sibling module) may be read, but
// nothing outside it.
func TestFilesInRoot(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) { writeFile(t, filepath.Join(dir, name), text) }
	write("tree/examples/basic/main.tf", "")
	write("tree/files/policy.json", "policy")
	write("secret.txt", "secret")
	opts := Options{BaseDir: filepath.Join(dir, "tree", "examples", "basic"), Root: filepath.Join(dir, "tree")}
	for src, want := range map[string]string{
		`file("../../files/policy.json")`:     `"policy"`,
		`fileexists("main.tf")`:               `true`,
		`fileset("../../files", "*.json")`:    `toset(["policy.json"])`,
		`fileexists("../../files/none.json")`: `false`,
	} {
		got, diags := eval(t, opts, src, nil)
		if diags.HasErrors() {
			t.Errorf("%s: %s", src, diags.Error())
			continue
		}
		if s := show(got); s != want {
			t.Errorf("%s = %s, want %s", src, s, want)
		}
	}
	for _, src := range []string{`file("../../../secret.txt")`, `fileset("../../..", "*.txt")`} {
		if got, diags := eval(t, opts, src, nil); !diags.HasErrors() {
			t.Errorf("%s read outside the root: %s", src, show(got))
		}
	}
}

func TestRSADecrypt(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	cipher, err := rsa.EncryptPKCS1v15(rand.Reader, &key.PublicKey, []byte("Hello, world!")) //nolint:staticcheck // the scheme rsadecrypt reads
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	for name, block := range map[string]*pem.Block{
		"PKCS #1": {Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)},
		"PKCS #8": {Type: "PRIVATE KEY", Bytes: pkcs8},
	} {
		vars := map[string]cty.Value{
			"cipher": cty.StringVal(base64.StdEncoding.EncodeToString(cipher)),
			"key":    cty.StringVal(string(pem.EncodeToMemory(block))),
		}
		got, diags := eval(t, Options{}, `rsadecrypt(cipher, key)`, vars)
		if diags.HasErrors() {
			t.Errorf("%s: %s", name, diags.Error())
			continue
		}
		if got.AsString() != "Hello, world!" {
			t.Errorf("%s: rsadecrypt = %s", name, show(got))
		}
	}
}

// Bad input gives errors, never a panic.
func TestNoPanics(t *testing.T) {
	args := []string{`null`, `"x"`, `""`, `-1`, `1e400`, `[]`, `{}`, `[null]`, `{a = null}`, `tolist([])`, `toset([])`, `tomap({})`, `"10.0.0.0/8"`, `"::/0"`, `true`, `[[1]]`}
	table := Table(Options{BaseDir: "testdata"})
	for _, name := range Names() {
		for _, a := range args {
			for _, call := range []string{name + "()", name + "(" + a + ")", name + "(" + a + ", " + a + ")", name + "(" + a + ", " + a + ", " + a + ")"} {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s panicked: %v", call, r)
						}
					}()
					expr, diags := hclsyntax.ParseExpression([]byte(call), "x.hcl", hcl.Pos{Line: 1, Column: 1})
					if diags.HasErrors() {
						t.Fatalf("parse %s: %s", call, diags.Error())
					}
					_, _ = expr.Value(&hcl.EvalContext{Functions: table})
				}()
			}
		}
	}
}

// The table in the package doc lists every function once, with its spec's
// source and phase; what it says of the phase is what the implementation
// does at plan time.
func TestDocTable(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^//\t([a-z0-9]+) +(go-cty stdlib|go-cty-funcs [a-z]+|go-cty-yaml|hcl ext/tryfunc|written here) +(.+)$`)
	seen := map[string]bool{}
	plan := Table(Options{BaseDir: "testdata", PlanTime: true})
	for _, m := range row.FindAllStringSubmatch(string(src), -1) {
		name, source, status := m[1], m[2], m[3]
		if seen[name] {
			t.Errorf("doc.go lists %s twice", name)
		}
		seen[name] = true
		s, ok := Lookup(name)
		if !ok {
			t.Errorf("doc.go lists %s, which has no spec", name)
			continue
		}
		if source != s.Source {
			t.Errorf("doc.go says %s comes from %s, its spec %s", name, source, s.Source)
		}
		want := "known"
		switch {
		case s.Phase == Apply:
			want = "unknown at plan time"
		case s.Phase == Plan:
			want = "known: when Table was called"
		case s.ReadsFiles:
			want = "known; reads files in BaseDir"
		}
		if !strings.HasPrefix(status, want) {
			t.Errorf("doc.go says %s is %q, its spec %q", name, status, want)
		}
		f := plan[name]
		if len(f.Params()) > 0 || f.VarParam() != nil {
			continue
		}
		v, err := f.Call(nil)
		if err != nil {
			t.Errorf("%s(): %s", name, err)
			continue
		}
		if unknown := s.Phase == Apply; v.IsKnown() == unknown {
			t.Errorf("%s's spec says phase %v, but at plan time it gives %s", name, s.Phase, show(v))
		}
	}
	for _, n := range Names() {
		if !seen[n] {
			t.Errorf("doc.go does not list %s", n)
		}
	}
}

// A template nested deeper than the parser takes is an error, not a crash
// (issue 35 item 3), whether a file or a string.
func TestTemplateNesting(t *testing.T) {
	deep := strings.Repeat("${", 70000) + "1" + strings.Repeat("}", 70000)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "deep.tftpl"), []byte(deep), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, expr := range []string{`templatestring(deep, {})`, `templatefile("deep.tftpl", {})`} {
		expr, diags := hclsyntax.ParseExpression([]byte(expr), "test.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		_, diags = expr.Value(&hcl.EvalContext{
			Functions: Table(Options{BaseDir: dir}),
			Variables: map[string]cty.Value{"deep": cty.StringVal(deep)},
		})
		if !strings.Contains(diags.Error(), "Nesting too deep") {
			t.Errorf("got %v, want a Nesting too deep error", diags)
		}
	}
}
