package mock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
)

// Schemas holds the schema of every resource type known to the mock
// providers, by mode: loaded from schema files, or inferred.
type Schemas struct {
	entries map[typeKey]*entry
	inf     *inference
}

type entry struct {
	block    *Block
	provider string
	// version is the schema version the provider gives the type.
	version  uint64
	inferred bool
}

func (s *Schemas) entry(mode config.ResourceMode, typ string) *entry {
	if s == nil {
		return nil
	}
	return s.entries[typeKey{mode, typ}]
}

func (s *Schemas) put(mode config.ResourceMode, typ string, e *entry) {
	if s.entries == nil {
		s.entries = map[typeKey]*entry{}
	}
	s.entries[typeKey{mode, typ}] = e
}

// Block returns the schema of a resource type, nil when it is unknown.
func (s *Schemas) Block(mode config.ResourceMode, typ string) *Block {
	if e := s.entry(mode, typ); e != nil {
		return e.block
	}
	return nil
}

// Inferred reports whether the schema of a resource type was inferred from
// configuration rather than loaded.
func (s *Schemas) Inferred(mode config.ResourceMode, typ string) bool {
	e := s.entry(mode, typ)
	return e != nil && e.inferred
}

// ProviderAddr is the address of the provider whose schema file describes
// the resource type ("registry.opentofu.org/hashicorp/aws"); "" for an
// inferred or unknown type.
func (s *Schemas) ProviderAddr(mode config.ResourceMode, typ string) string {
	if e := s.entry(mode, typ); e != nil {
		return e.provider
	}
	return ""
}

// Version is the schema version of a resource type, as its schema file
// gives it; 0 for an inferred or unknown type.
func (s *Schemas) Version(mode config.ResourceMode, typ string) uint64 {
	if e := s.entry(mode, typ); e != nil {
		return e.version
	}
	return 0
}

// Types lists the resource types known in a mode, sorted.
func (s *Schemas) Types(mode config.ResourceMode) []string {
	if s == nil {
		return nil
	}
	var out []string
	for k := range s.entries {
		if k.mode == mode {
			out = append(out, k.typ)
		}
	}
	sort.Strings(out)
	return out
}

// The JSON shape of `tofu providers schema -json`.
type (
	schemaFileJSON struct {
		FormatVersion   *string                        `json:"format_version"`
		ProviderSchemas map[string]*providerSchemaJSON `json:"provider_schemas"`
	}
	providerSchemaJSON struct {
		Provider                 json.RawMessage        `json:"provider"`
		ResourceSchemas          map[string]*schemaJSON `json:"resource_schemas"`
		DataSourceSchemas        map[string]*schemaJSON `json:"data_source_schemas"`
		EphemeralResourceSchemas map[string]*schemaJSON `json:"ephemeral_resource_schemas"`
	}
	schemaJSON struct {
		Version uint64     `json:"version"`
		Block   *blockJSON `json:"block"`
	}
	blockJSON struct {
		Attributes map[string]*attributeJSON `json:"attributes"`
		BlockTypes map[string]*blockTypeJSON `json:"block_types"`
	}
	attributeJSON struct {
		Type       json.RawMessage `json:"type"`
		NestedType *nestedTypeJSON `json:"nested_type"`
		Required   bool            `json:"required"`
		Optional   bool            `json:"optional"`
		Computed   bool            `json:"computed"`
		Sensitive  bool            `json:"sensitive"`
	}
	nestedTypeJSON struct {
		Attributes  map[string]*attributeJSON `json:"attributes"`
		NestingMode string                    `json:"nesting_mode"`
		MinItems    int                       `json:"min_items"`
		MaxItems    int                       `json:"max_items"`
	}
	blockTypeJSON struct {
		NestingMode string     `json:"nesting_mode"`
		Block       *blockJSON `json:"block"`
		MinItems    int        `json:"min_items"`
		MaxItems    int        `json:"max_items"`
	}
)

// LoadSchemas reads `tofu providers schema -json` files. A resource type
// that two providers describe keeps the first description, with a warning.
// Errors name the file and, where the JSON tells, the line and column.
func LoadSchemas(paths ...string) (*Schemas, hcl.Diagnostics) {
	s := &Schemas{entries: map[typeKey]*entry{}}
	var diags hcl.Diagnostics
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Failed to read provider schema file",
				Detail:   fmt.Sprintf("Cannot read %s: %s.", path, err),
			})
			continue
		}
		diags = append(diags, s.load(path, data)...)
	}
	return s, diags
}

func (s *Schemas) load(path string, data []byte) hcl.Diagnostics {
	var f schemaFileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return hcl.Diagnostics{jsonError(path, data, err)}
	}
	l := &schemaLoader{path: path, data: data}
	if f.FormatVersion == nil {
		l.errorf(nil, "Invalid provider schema file", "%s has no format_version: it is not the output of `tofu providers schema -json`.", path)
		return l.diags
	}
	if major, _, _ := strings.Cut(*f.FormatVersion, "."); major != "1" {
		l.errorf([]string{"format_version"}, "Unsupported provider schema format", "%s has format_version %q; only version 1 is supported.", path, *f.FormatVersion)
		return l.diags
	}
	for _, addr := range sortedKeys(f.ProviderSchemas) {
		ps := f.ProviderSchemas[addr]
		if ps == nil {
			continue
		}
		for _, group := range []struct {
			key     string
			mode    config.ResourceMode
			schemas map[string]*schemaJSON
		}{
			{"resource_schemas", config.ManagedMode, ps.ResourceSchemas},
			{"data_source_schemas", config.DataMode, ps.DataSourceSchemas},
			{"ephemeral_resource_schemas", config.EphemeralMode, ps.EphemeralResourceSchemas},
		} {
			for _, typ := range sortedKeys(group.schemas) {
				where := []string{"provider_schemas", addr, group.key, typ}
				sj := group.schemas[typ]
				if sj == nil || sj.Block == nil {
					l.errorf(where, "Invalid provider schema", "The schema of %q in %s has no block.", typ, path)
					continue
				}
				b := l.block(sj.Block, append(where, "block"))
				if prev := s.entry(group.mode, typ); prev != nil {
					if prev.provider != addr {
						l.diags = append(l.diags, &hcl.Diagnostic{
							Severity: hcl.DiagWarning,
							Summary:  "Resource type described twice",
							Detail:   fmt.Sprintf("Both %s and %s describe %q; the schema of %s is used.", prev.provider, addr, typ, prev.provider),
							Subject:  l.rangeOf(where),
						})
					}
					continue
				}
				s.put(group.mode, typ, &entry{block: b, provider: addr, version: sj.Version})
			}
		}
	}
	return l.diags
}

type schemaLoader struct {
	path  string
	data  []byte
	diags hcl.Diagnostics
}

func (l *schemaLoader) errorf(where []string, summary, format string, args ...any) {
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  l.rangeOf(where),
	})
}

// rangeOf finds the value at a JSON path in the file, for a diagnostic's
// subject; the start of the file when it cannot.
func (l *schemaLoader) rangeOf(where []string) *hcl.Range {
	off := locate(l.data, where)
	p := position(l.data, off)
	return &hcl.Range{Filename: l.path, Start: p, End: p}
}

func (l *schemaLoader) block(bj *blockJSON, where []string) *Block {
	b := &Block{Attributes: map[string]*Attribute{}, BlockTypes: map[string]*NestedBlock{}}
	for _, name := range sortedKeys(bj.Attributes) {
		if a := l.attribute(bj.Attributes[name], append(clip(where), "attributes", name)); a != nil {
			b.Attributes[name] = a
		}
	}
	for _, name := range sortedKeys(bj.BlockTypes) {
		here := append(clip(where), "block_types", name)
		bt := bj.BlockTypes[name]
		if bt == nil {
			continue
		}
		if _, clash := b.Attributes[name]; clash {
			l.errorf(here, "Invalid provider schema", "%q is both an attribute and a block type.", name)
			continue
		}
		nesting, ok := parseNesting(bt.NestingMode)
		if !ok {
			l.errorf(append(here, "nesting_mode"), "Invalid provider schema", "Block type %q has nesting mode %q; it must be single, group, list, set or map.", name, bt.NestingMode)
			continue
		}
		inner := &blockJSON{}
		if bt.Block != nil {
			inner = bt.Block
		}
		b.BlockTypes[name] = &NestedBlock{
			Nesting:  nesting,
			Block:    l.block(inner, append(here, "block")),
			MinItems: bt.MinItems,
			MaxItems: bt.MaxItems,
		}
	}
	return b
}

func (l *schemaLoader) attribute(aj *attributeJSON, where []string) *Attribute {
	if aj == nil {
		return nil
	}
	a := &Attribute{Required: aj.Required, Optional: aj.Optional, Computed: aj.Computed, Sensitive: aj.Sensitive}
	if !a.Required && !a.Optional && !a.Computed {
		l.errorf(where, "Invalid provider schema", "Attribute %q is neither required, optional nor computed.", where[len(where)-1])
		return nil
	}
	switch {
	case aj.NestedType != nil:
		nesting, ok := parseNesting(aj.NestedType.NestingMode)
		if !ok || nesting == NestingGroup {
			l.errorf(append(clip(where), "nested_type", "nesting_mode"), "Invalid provider schema", "Attribute %q has nesting mode %q; it must be single, list, set or map.", where[len(where)-1], aj.NestedType.NestingMode)
			return nil
		}
		obj := &Object{Attributes: map[string]*Attribute{}, Nesting: nesting, MinItems: aj.NestedType.MinItems, MaxItems: aj.NestedType.MaxItems}
		for _, name := range sortedKeys(aj.NestedType.Attributes) {
			if na := l.attribute(aj.NestedType.Attributes[name], append(clip(where), "nested_type", "attributes", name)); na != nil {
				obj.Attributes[name] = na
			}
		}
		a.NestedType = obj
		a.Type = obj.ImpliedType()
	case len(aj.Type) > 0:
		ty, err := ctyjson.UnmarshalType(aj.Type)
		if err != nil {
			l.errorf(append(clip(where), "type"), "Invalid provider schema", "Attribute %q has an invalid type: %s.", where[len(where)-1], err)
			return nil
		}
		a.Type = ty
	default:
		l.errorf(where, "Invalid provider schema", "Attribute %q has neither a type nor a nested_type.", where[len(where)-1])
		return nil
	}
	return a
}

func clip(s []string) []string { return s[:len(s):len(s)] }

// jsonError turns a decoding error into a diagnostic at its offset.
func jsonError(path string, data []byte, err error) *hcl.Diagnostic {
	off := 0
	detail := err.Error()
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = int(syn.Offset) - 1 // the offset is just past the bad byte
		detail = fmt.Sprintf("The file is not valid JSON: %s.", syn)
	case errors.As(err, &typ):
		off = int(typ.Offset)
		field := typ.Field
		if field == "" {
			field = "the top level"
		}
		detail = fmt.Sprintf("At %s: a JSON %s cannot be a %s value here.", field, typ.Value, typeName(typ.Type.Kind().String()))
	}
	p := position(data, off)
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider schema file",
		Detail:   detail,
		Subject:  &hcl.Range{Filename: path, Start: p, End: p},
	}
}

func typeName(kind string) string {
	switch kind {
	case "struct", "map":
		return "object"
	case "slice":
		return "array"
	}
	return kind
}

// position converts a byte offset into a line and column (counted in
// bytes from 1).
func position(data []byte, off int) hcl.Pos {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1
	return hcl.Pos{Line: line, Column: col, Byte: off}
}

// locate finds the byte offset of the value at a path of object keys in a
// JSON document, 0 when the path is not there or the document is invalid.
// It is used only to place diagnostics.
func locate(data []byte, path []string) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	off, ok := locateIn(dec, path)
	if !ok {
		return 0
	}
	return off
}

func locateIn(dec *json.Decoder, path []string) (int, bool) {
	if len(path) == 0 {
		return 0, true
	}
	tok, err := dec.Token()
	if err != nil {
		return 0, false
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return 0, false
	}
	for dec.More() {
		keyTok, err := dec.Token()
		if err != nil {
			return 0, false
		}
		key, _ := keyTok.(string)
		if key == path[0] {
			if len(path) == 1 {
				// Step over the colon and any space to the value.
				var raw json.RawMessage
				start := int(dec.InputOffset())
				if err := dec.Decode(&raw); err != nil {
					return 0, false
				}
				end := int(dec.InputOffset())
				return end - len(raw), start <= end
			}
			return locateIn(dec, path[1:])
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil && !errors.Is(err, io.EOF) {
			return 0, false
		}
	}
	return 0, false
}

// friendly is the name of a type in diagnostics.
func friendly(ty cty.Type) string {
	if ty == cty.NilType {
		return "any"
	}
	return ty.FriendlyName()
}
