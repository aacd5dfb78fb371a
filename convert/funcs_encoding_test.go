package convert

import (
	"strings"
	"testing"
)

func TestEncodingFunctionsSameAsOpenTofu(t *testing.T) {
	for _, expr := range []string{
		`jsonencode({b = [1, 2.5, "x<y>&z", null, true], a = "\u2028é\n\"", "k<" = {}})`,
		`jsonencode({Version = "2012-10-17", Statement = [{Effect = "Allow", Action = ["s3:GetObject"], Resource = "arn:aws:s3:::b/*", Condition = {StringEquals = {"aws:SourceAccount" = "123"}}}]})`,
		`jsonencode(null)`,
		`jsonencode("")`,
		`jsonencode([])`,
		`jsonencode({})`,
		`jsonencode(4 / 2)`,
		`jsonencode(1e20)`,
		`jsonencode(0.000001)`,
		`jsonencode(-12.75)`,
		`jsonencode(123456789012345678901234567890)`,
		`jsonencode({z = 1, a = {y = 2, b = [{d = 1, c = 2}]}})`,
		`jsonencode([[[[[[[["eight"]]]]]]]])`,
		`jsondecode("{\"a\": [1, 2.5, null, true, \"x\"], \"b\": {}}")`,
		`jsondecode("\"é\"")`,
		`jsondecode(jsonencode({a = [1, {b = "c"}]}))`,
		`base64encode("héllo")`,
		`base64encode("")`,
		`base64decode("aMOpbGxv")`,
		`base64decode("")`,
		`base64decode(base64encode("a\nb\u2028"))`,
		`textencodebase64("héllo", "UTF-8")`,
		`textencodebase64("héllo", "utf-8")`,
		`textdecodebase64("aMOpbGxv", "UTF-8")`,
		`textencodebase64("héllo", "ISO-8859-1")`,
		`textdecodebase64("6Q==", "ISO-8859-1")`,
		`base64gzip("hello")`,
		`base64gunzip(base64gzip("hello"))`,
		`csvdecode("a,b\n1,2\n3,4\n")`,
		`csvdecode("a,b\n")`,
		`csvdecode("name,\"quoted, field\"\nx,\"y \"\"z\"\"\"\n")`,
		`urlencode("a b/é&?=+")`,
		`urlencode("")`,
		`urldecode("a+b%20c%2F%C3%A9")`,
		`yamldecode("a: 1\nb: [x, y]\n")`,
		`yamlencode({a = 1, b = ["x", "y"]})`,
	} {
		t.Run(expr, func(t *testing.T) { checkSameAsOpenTofu(t, expr) })
	}
}

func TestEncodingFunctionErrors(t *testing.T) {
	for _, expr := range []string{
		`jsondecode("{")`,
		`base64decode("/w==")`,
		`base64decode("not base64")`,
		`textdecodebase64("/w==", "UTF-8")`,
		`textdecodebase64("77+9", "UTF-8")`,
		`csvdecode("")`,
		`csvdecode("a,b\n1\n")`,
		`urldecode("%zz")`,
	} {
		t.Run(expr, func(t *testing.T) { checkErrorLikeOpenTofu(t, expr) })
	}
}

func TestEncodingFunctionsNotConverted(t *testing.T) {
	for _, c := range []struct{ expr, detail string }{
		{`yamldecode(var.x)`, "yamldecode is converted only when its argument is a constant"},
		{`yamlencode(var.x)`, "yamlencode is converted only when"},
		{`base64gzip(var.x)`, "CUE has no gzip"},
		{`textencodebase64("x", var.enc)`, "CUE has no other character sets"},
	} {
		t.Run(c.expr, func(t *testing.T) { checkNotConverted(t, c.expr, c.detail) })
	}
}

// TestJSONEncodeDepthLimit checks that a value nesting deeper than the
// library's limit is a CUE error that says so, never a wrong string.
func TestJSONEncodeDepthLimit(t *testing.T) {
	_, v, err := convertLoose(t, `jsonencode([[[[[[[[["nine"]]]]]]]]])`)
	if err == nil {
		_, err = v.MarshalJSON()
	}
	if err == nil || !strings.Contains(err.Error(), "levels deep") {
		t.Errorf("got %v, want the depth error", err)
	}
}
