package refs

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/features"
)

// Reference is a traversal read as a reference to something a module
// declares or the language provides.
type Reference struct {
	Subject Subject
	// Range covers the part of the traversal that names the subject: for
	// aws_instance.web[0].id, the text aws_instance.web[0].
	Range hcl.Range
	// Remaining is the rest of the traversal, after the subject.
	Remaining hcl.Traversal
	// Traversal is the whole traversal as written.
	Traversal hcl.Traversal
}

// Escaped reports a managed resource reference written with the resource.
// prefix, which always reaches the resource.
func (r *Reference) Escaped() bool { return r.Traversal.RootName() == "resource" }

// Text writes the whole traversal back in the language's syntax.
func (r *Reference) Text() string { return TraversalString(r.Traversal) }

// Subject is what a reference refers to. Its String is the address in the
// language's syntax, as diagnostics print it.
type Subject interface {
	String() string
	subject()
}

// InputVariable is var.NAME.
type InputVariable struct{ Name string }

// LocalValue is local.NAME.
type LocalValue struct{ Name string }

// ModuleCall is module.NAME: every instance of a module call.
type ModuleCall struct{ Name string }

// ModuleCallInstance is module.NAME[KEY].
type ModuleCallInstance struct {
	Call ModuleCall
	Key  InstanceKey
}

// ModuleCallOutput is module.NAME.OUTPUT or module.NAME[KEY].OUTPUT.
type ModuleCallOutput struct {
	Call ModuleCallInstance
	Name string
}

// Resource is a resource as a whole: TYPE.NAME, data.TYPE.NAME or
// ephemeral.TYPE.NAME.
type Resource struct {
	Mode       config.ResourceMode
	Type, Name string
}

// ResourceInstance is a resource followed by more steps; Key is NoKey when
// the next step is not an index.
type ResourceInstance struct {
	Resource Resource
	Key      InstanceKey
}

// PathAttr is path.module, path.root or path.cwd.
type PathAttr struct{ Name string }

// TerraformAttr is terraform.NAME or tofu.NAME; Alias is the prefix used.
type TerraformAttr struct{ Alias, Name string }

// CountAttr is count.index.
type CountAttr struct{ Name string }

// EachAttr is each.key or each.value.
type EachAttr struct{ Name string }

// Self is self, in provisioners, connections and postconditions.
type Self struct{}

// TypeKeyword is a type name (string, number, bool, any) alone, as it
// appears in type expressions.
type TypeKeyword string

// FeatureSymbol is SYMBOL.NAME of an opt-in feature: a reference to the
// feature's block of that name, such as symbols.serverless.
type FeatureSymbol struct {
	Feature features.Feature
	Name    string
}

func (InputVariable) subject()      {}
func (LocalValue) subject()         {}
func (ModuleCall) subject()         {}
func (ModuleCallInstance) subject() {}
func (ModuleCallOutput) subject()   {}
func (Resource) subject()           {}
func (ResourceInstance) subject()   {}
func (PathAttr) subject()           {}
func (TerraformAttr) subject()      {}
func (CountAttr) subject()          {}
func (EachAttr) subject()           {}
func (Self) subject()               {}
func (TypeKeyword) subject()        {}
func (FeatureSymbol) subject()      {}

func (s InputVariable) String() string { return "var." + s.Name }
func (s LocalValue) String() string    { return "local." + s.Name }
func (s ModuleCall) String() string    { return "module." + s.Name }
func (s ModuleCallInstance) String() string {
	return s.Call.String() + s.Key.String()
}
func (s ModuleCallOutput) String() string { return s.Call.String() + "." + s.Name }
func (s Resource) String() string {
	switch s.Mode {
	case config.DataMode:
		return "data." + s.Type + "." + s.Name
	case config.EphemeralMode:
		return "ephemeral." + s.Type + "." + s.Name
	}
	return s.Type + "." + s.Name
}
func (s ResourceInstance) String() string { return s.Resource.String() + s.Key.String() }
func (s PathAttr) String() string         { return "path." + s.Name }
func (s TerraformAttr) String() string    { return s.Alias + "." + s.Name }
func (s CountAttr) String() string        { return "count." + s.Name }
func (s EachAttr) String() string         { return "each." + s.Name }
func (Self) String() string               { return "self" }
func (s TypeKeyword) String() string      { return string(s) }
func (s FeatureSymbol) String() string    { return s.Feature.Symbol + "." + s.Name }

// InstanceKey is the index of one instance of a resource or module call.
type InstanceKey interface {
	String() string // "", "[0]" or `["a"]`
	instanceKey()
}

// NoKey is the key of a reference that gives none.
var NoKey InstanceKey = noKey{}

type noKey struct{}

// IntKey is a count index.
type IntKey int

// StringKey is a for_each key.
type StringKey string

func (noKey) instanceKey()     {}
func (IntKey) instanceKey()    {}
func (StringKey) instanceKey() {}

func (noKey) String() string       { return "" }
func (k IntKey) String() string    { return fmt.Sprintf("[%d]", int(k)) }
func (k StringKey) String() string { return fmt.Sprintf("[%q]", string(k)) }

// instanceKey converts an index step's key. Numbers must be whole and fit
// an int; strings are for_each keys.
func instanceKey(v cty.Value) (InstanceKey, error) {
	if v.IsNull() || !v.IsKnown() {
		return nil, fmt.Errorf("the key must be known and not null")
	}
	switch v.Type() {
	case cty.String:
		return StringKey(v.AsString()), nil
	case cty.Number:
		bf := v.AsBigFloat()
		i, acc := bf.Int64()
		if acc != big.Exact || int64(int(i)) != i {
			return nil, fmt.Errorf("%s is not a valid index: it must be a whole number", bf.Text('g', -1))
		}
		return IntKey(int(i)), nil
	}
	return nil, fmt.Errorf("the key must be a string or a number, not %s", v.Type().FriendlyName())
}

// TraversalString writes a traversal in the language's syntax.
func TraversalString(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + keyString(s.Key) + "]")
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}

func keyString(v cty.Value) string {
	if v.IsNull() || !v.IsKnown() {
		return "?"
	}
	switch v.Type() {
	case cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case cty.Number:
		return v.AsBigFloat().Text('g', -1)
	case cty.Bool:
		return fmt.Sprint(v.True())
	}
	return "?"
}
