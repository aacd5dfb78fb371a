package mock

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// Value is the generated mock value of type ty for the attribute at path
// of the resource instance addr. It is a pure function of its arguments:
// the same in every run and every process. The scheme is in the package
// documentation.
func Value(addr string, path cty.Path, ty cty.Type) cty.Value {
	return generate(addr, path, ty, nil)
}

// generate is Value, shaped by how the module uses an inferred attribute:
// lists get as many elements as the highest index used needs, maps get the
// keys used, and strings used with functions that parse them get a form
// those functions accept.
func generate(addr string, path cty.Path, ty cty.Type, shape *useNode) cty.Value {
	switch {
	case ty == cty.DynamicPseudoType || ty == cty.NilType:
		return generate(addr, path, cty.String, shape)
	case ty == cty.String:
		return cty.StringVal(mockString(addr, path, shape))
	case ty == cty.Number:
		h := digest(addr, path)
		return cty.NumberIntVal(int64(1 + binary.BigEndian.Uint64(h[8:16])%9))
	case ty == cty.Bool:
		h := digest(addr, path)
		return cty.BoolVal(h[16]&1 == 1)
	case ty.IsListType() || ty.IsSetType():
		ety := ty.ElementType()
		n := 1
		var child *useNode
		if shape != nil {
			child = shape.list
			n = max(1, shape.listLen)
		}
		elems := make([]cty.Value, n)
		for i := range elems {
			elems[i] = generate(addr, appendPath(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}), ety, child)
		}
		if ty.IsSetType() {
			return cty.SetVal(elems)
		}
		return cty.ListVal(elems)
	case ty.IsMapType():
		ety := ty.ElementType()
		keys := []string{"key"}
		var child *useNode
		if shape != nil && len(shape.keys) > 0 {
			keys = sortedKeys(shape.keys)
			child = shape.mapv
		}
		elems := make(map[string]cty.Value, len(keys))
		for _, k := range keys {
			elems[k] = generate(addr, appendPath(path, cty.IndexStep{Key: cty.StringVal(k)}), ety, child)
		}
		return cty.MapVal(elems)
	case ty.IsObjectType():
		atys := ty.AttributeTypes()
		vals := make(map[string]cty.Value, len(atys))
		for name, aty := range atys {
			var child *useNode
			if shape != nil {
				child = shape.attrs[name]
				if child == nil && shape.keys[name] {
					child = shape.mapv
				}
			}
			vals[name] = generate(addr, appendPath(path, cty.GetAttrStep{Name: name}), aty, child)
		}
		return cty.ObjectVal(vals)
	case ty.IsTupleType():
		etys := ty.TupleElementTypes()
		vals := make([]cty.Value, len(etys))
		for i, ety := range etys {
			vals[i] = generate(addr, appendPath(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}), ety, nil)
		}
		return cty.TupleVal(vals)
	}
	return cty.NullVal(ty)
}

func appendPath(path cty.Path, step cty.PathStep) cty.Path {
	p := make(cty.Path, len(path), len(path)+1)
	copy(p, path)
	return append(p, step)
}

// digest hashes an address and a path: SHA-256 of the address, a zero
// byte, and the path as PathString writes it.
func digest(addr string, path cty.Path) [32]byte {
	return sha256.Sum256([]byte(addr + "\x00" + PathString(path)))
}

// PathString writes a path the way the language writes the traversal:
// .name for an attribute, [0] for a number index, ["key"] for a string
// key. It is the text that Value hashes.
func PathString(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			b.WriteString("[" + keyText(s.Key) + "]")
		}
	}
	return b.String()
}

func keyText(k cty.Value) string {
	switch {
	case k.IsNull() || !k.IsKnown():
		return "?"
	case k.Type() == cty.String:
		return fmt.Sprintf("%q", k.AsString())
	case k.Type() == cty.Number:
		return k.AsBigFloat().Text('f', -1)
	}
	k, _ = k.Unmark()
	if buf, err := ctyjson.Marshal(k, k.Type()); err == nil {
		return string(buf)
	}
	return "?"
}

// lastName is the name of the last attribute step of a path, lower-cased:
// the name the generated string is built from.
func lastName(path cty.Path) string {
	for i := len(path) - 1; i >= 0; i-- {
		if s, ok := path[i].(cty.GetAttrStep); ok {
			return strings.ToLower(s.Name)
		}
	}
	return "value"
}

// mockString builds the string for an attribute: NAME-HASH8 in general,
// and a value of the right form for names (or uses) that call for one.
func mockString(addr string, path cty.Path, shape *useNode) string {
	h := digest(addr, path)
	hex8 := hex.EncodeToString(h[:4])
	name := lastName(path)
	form := formByName(name)
	if shape != nil && shape.form != formNone {
		form = shape.form
	}
	switch form {
	case formJSON:
		return "{}"
	case formCIDR:
		return fmt.Sprintf("10.%d.0.0/16", h[4])
	case formIPv6CIDR:
		return fmt.Sprintf("fd00:%02x%02x::/64", h[4], h[5])
	case formIP:
		return fmt.Sprintf("10.%d.%d.%d", h[4], h[5], 1+int(h[6])%254)
	case formARN:
		return fmt.Sprintf("arn:aws:mock:us-east-1:123456789012:%s/%s", name, hex8)
	case formURL:
		return fmt.Sprintf("https://%s.example.com/", hex8)
	case formHost:
		return fmt.Sprintf("%s.example.com", hex8)
	case formBase64:
		return "bW9jaw==" // "mock"
	case formTime:
		return "2024-01-01T00:00:00Z"
	}
	return name + "-" + hex8
}

// stringForm is a shape of generated string.
type stringForm int

const (
	formNone stringForm = iota
	formJSON
	formCIDR
	formIPv6CIDR
	formIP
	formARN
	formURL
	formHost
	formBase64
	formTime
)

// formByName picks the string form from an attribute's name.
func formByName(name string) stringForm {
	has := func(suffixes ...string) bool {
		for _, s := range suffixes {
			if name == s || strings.HasSuffix(name, "_"+s) {
				return true
			}
		}
		return false
	}
	switch {
	case has("json", "policy"):
		return formJSON
	case strings.Contains(name, "cidr"):
		if strings.Contains(name, "ipv6") {
			return formIPv6CIDR
		}
		return formCIDR
	case has("ip", "ip_address", "ipv4_address"):
		return formIP
	case has("arn"):
		return formARN
	case has("url"):
		return formURL
	case has("dns_name", "fqdn", "hostname", "domain_name"):
		return formHost
	}
	return formNone
}
