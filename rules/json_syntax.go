package rules

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// JSONSyntax is the rule json_syntax.
var JSONSyntax = &Rule{
	Name:   "json_syntax",
	TFLint: "terraform_json_syntax",
	Doc: `Reports a .tf.json (or .tofu.json) file whose root is an array of
objects instead of one object, as TFLint's terraform_json_syntax does: the
parser accepts it, but OpenTofu's JSON syntax documents an object at the
root, and other tools that read the file expect one. The fix writes the
object: each top-level key once, in the order of first appearance, with
the values of a key written several times gathered into an array (which
declares the same blocks), and the file indented by two spaces. The rule is
off by default.

Bad:

    [
      {"variable": {"name": {"type": "string"}}},
      {"output": {"name": {"value": "${var.name}"}}}
    ]

Good:

    {
      "variable": {"name": {"type": "string"}},
      "output": {"name": {"value": "${var.name}"}}
    }`,
	Severity: Warning,
	Fixes:    true,
	Check: func(p *Pass) {
		for _, name := range slices.Sorted(maps.Keys(p.Module.Files)) {
			if !strings.HasSuffix(name, ".tf.json") && !strings.HasSuffix(name, ".tofu.json") {
				continue
			}
			src := p.Module.Files[name].Bytes
			start := len(src) - len(bytes.TrimLeft(src, " \t\r\n"))
			if start == len(src) || src[start] != '[' || !json.Valid(src) {
				continue
			}
			f := Finding{
				Message: "JSON configuration uses array syntax at root, expected object",
				Detail:  "Write the file's blocks as the properties of one object at the root, as OpenTofu's JSON syntax documents.",
				Range:   hcl.Range{Filename: name, Start: posAt(src, start), End: posAt(src, start+1)},
			}
			if fixed, ok := rootObject(src); ok {
				f.Fix = &Fix{
					Description: "Write the root as an object",
					Edits:       []Edit{{Range: hcl.Range{Filename: name, Start: hcl.InitialPos, End: posAt(src, len(src))}, NewText: fixed}},
				}
			}
			p.Report(f)
		}
	},
}

// rootObject returns the JSON text src, an array of objects, as one object
// that declares the same: each key once, in order of first appearance; a
// key that appears several times (in one element or in several) takes the
// array of its values, the elements of values that are arrays spliced in.
// ok is false when an element is not an object.
func rootObject(src []byte) (string, bool) {
	var elems []json.RawMessage
	if err := json.Unmarshal(src, &elems); err != nil {
		return "", false
	}
	var keys []string
	values := map[string][]json.RawMessage{}
	for _, e := range elems {
		dec := json.NewDecoder(bytes.NewReader(e))
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return "", false
		}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return "", false
			}
			key := t.(string)
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return "", false
			}
			if _, seen := values[key]; !seen {
				keys = append(keys, key)
			}
			values[key] = append(values[key], v)
		}
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for i, key := range keys {
		if i > 0 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		vs := values[key]
		if len(vs) == 1 {
			out.Write(vs[0])
			continue
		}
		var all []json.RawMessage
		for _, v := range vs {
			var inner []json.RawMessage
			if bytes.HasPrefix(bytes.TrimSpace(v), []byte("[")) && json.Unmarshal(v, &inner) == nil {
				all = append(all, inner...)
			} else {
				all = append(all, v)
			}
		}
		arr, _ := json.Marshal(all)
		out.Write(arr)
	}
	out.WriteByte('}')
	var indented bytes.Buffer
	if err := json.Indent(&indented, out.Bytes(), "", "  "); err != nil {
		return "", false
	}
	indented.WriteByte('\n')
	return indented.String(), true
}

// posAt is the position of byte offset off in src.
func posAt(src []byte, off int) hcl.Pos {
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	col := 1 + len([]rune(string(src[bytes.LastIndexByte(src[:off], '\n')+1:off])))
	return hcl.Pos{Line: line, Column: col, Byte: off}
}
