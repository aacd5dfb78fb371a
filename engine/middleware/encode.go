package middleware

import (
	"encoding/json"
	"math/big"
	"strconv"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/functions"
)

// Redacted is what a middleware that may not see sensitive values gets in
// their place.
const Redacted = "(sensitive value)"

// sensitivePaths is a set of value paths at which a value is sensitive.
// A path is written as its steps: ["name"] for an attribute or a map key,
// [3] for an element.
type sensitivePaths map[string]bool

// add adds the paths at which v is marked sensitive.
func (s sensitivePaths) add(v cty.Value) {
	if v != cty.NilVal {
		s.collect(v, "")
	}
}

// collect walks v, found at path, without rebuilding it (as
// UnmarkDeepWithPaths would).
func (s sensitivePaths) collect(v cty.Value, path string) {
	if v.IsMarked() {
		if v.HasMark(functions.SensitiveMark) {
			s[path] = true
		}
		v, _ = v.Unmark()
	}
	if !v.IsKnown() || v.IsNull() {
		return
	}
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			_, ev := it.Element()
			s.collect(ev, path+"["+strconv.Itoa(i)+"]")
		}
	case ty.IsMapType() || ty.IsObjectType():
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			s.collect(ev, path+keyStep(k.AsString()))
		}
	}
}

// keyStep is the path step to an attribute or a map key: both are
// ["name"], so that before and after, which may hold the same attribute
// once as an object and once as a map, agree.
func keyStep(name string) string { return "[" + strconv.Quote(name) + "]" }

// encoded is a value as a middleware receives it, with OpenTofu's plan
// JSON companions: which parts are sensitive and which unknown (nil when
// none is).
type encoded struct {
	value, sensitive, unknown any
}

// encoder turns cty values into JSON-ready values: sensitive ones (at any
// of the paths in sens, which is the union over every value of one
// resource) redacted unless redact is false, unknown ones null.
type encoder struct {
	sens   sensitivePaths
	redact bool
}

func (e *encoder) encode(v cty.Value) encoded {
	if v == cty.NilVal {
		return encoded{}
	}
	val, sens, unk := e.walk(v, "")
	return encoded{value: val, sensitive: sens, unknown: unk}
}

// walk returns the JSON form of v, found at path, with its sensitivity and
// unknown-ness in OpenTofu's shape: true for a whole value, an object or
// array of the parts otherwise, nil for nothing.
func (e *encoder) walk(v cty.Value, path string) (val, sens, unk any) {
	v, _ = v.Unmark()
	if !e.sens[path] {
		return e.node(v, path)
	}
	if e.redact {
		return Redacted, true, nil
	}
	val, _, unk = e.node(v, path)
	return val, true, unk
}

// node is walk for a value whose own sensitivity is already dealt with.
func (e *encoder) node(v cty.Value, path string) (val, sens, unk any) {
	if !v.IsKnown() {
		return nil, nil, true
	}
	if v.IsNull() {
		return nil, nil, nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString(), nil, nil
	case ty == cty.Number:
		return number(v.AsBigFloat()), nil, nil
	case ty == cty.Bool:
		return v.True(), nil, nil
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		n := v.LengthInt()
		vals := make([]any, 0, n)
		senss := make([]any, 0, n)
		unks := make([]any, 0, n)
		anySens, anyUnk := false, false
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			_, ev := it.Element()
			cv, cs, cu := e.walk(ev, e.index(path, i))
			vals = append(vals, cv)
			senss = append(senss, orFalse(cs))
			unks = append(unks, orFalse(cu))
			anySens = anySens || cs != nil
			anyUnk = anyUnk || cu != nil
		}
		return vals, pick(anySens, senss), pick(anyUnk, unks)
	case ty.IsMapType() || ty.IsObjectType():
		vals := map[string]any{}
		senss := map[string]any{}
		unks := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			name := k.AsString()
			cv, cs, cu := e.walk(ev, e.key(path, name))
			vals[name] = cv
			if cs != nil {
				senss[name] = cs
			}
			if cu != nil {
				unks[name] = cu
			}
		}
		return vals, pick(len(senss) > 0, senss), pick(len(unks) > 0, unks)
	}
	return nil, nil, nil
}

// index and key are the paths of an element or an attribute of the value
// at path. Paths matter only when something is sensitive.
func (e *encoder) index(path string, i int) string {
	if len(e.sens) == 0 {
		return ""
	}
	return path + "[" + strconv.Itoa(i) + "]"
}

func (e *encoder) key(path, name string) string {
	if len(e.sens) == 0 {
		return ""
	}
	return path + keyStep(name)
}

func orFalse(v any) any {
	if v == nil {
		return false
	}
	return v
}

func pick[T any](ok bool, v T) any {
	if !ok {
		return nil
	}
	return v
}

// number writes a cty number as JSON: exactly, as cty's own JSON does;
// the infinities, which JSON lacks, as strings.
func number(f *big.Float) any {
	if f.IsInf() {
		if f.Sign() > 0 {
			return "Infinity"
		}
		return "-Infinity"
	}
	return json.Number(f.Text('f', -1))
}
