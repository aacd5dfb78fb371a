package convert

import (
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
)

// The names of the converted module's namespaces, from the package that
// owns the CUE form (see the package doc for the scheme).
const (
	varRoot       = cueform.VarRoot
	varPrefix     = cueform.VarPrefix
	argRoot       = cueform.ArgRoot
	localPrefix   = cueform.LocalPrefix
	dataRoot      = cueform.DataRoot
	ephemeralRoot = cueform.EphemeralRoot
	moduleRoot    = cueform.ModuleRoot
	outputRoot    = cueform.OutputRoot
	providerRoot  = cueform.ProviderRoot
	resourceRoot  = cueform.ResourceRoot
	pathRoot      = cueform.PathRoot
	workspaceRoot = cueform.WorkspaceRoot
	planTimeRoot  = cueform.PlanTimeRoot
	homeRoot      = cueform.HomeRoot
	terraformRoot = cueform.TerraformRoot
	checkRoot     = cueform.CheckRoot
	validateRoot  = cueform.ValidateRoot
	refactorRoot  = cueform.RefactorRoot
	libImport     = cueform.Library
)

// localIdent is the identifier of the hidden field that holds local.NAME:
// _local_NAME, with each "-" of the name written "$" (a character that an
// HCL name never has and a CUE identifier may). Each local is a field of
// its own rather than a field of one struct: in CUE an error in one field
// makes a reference through the struct that holds it an error too, and a
// local that waits for a resource (try(r[0].id, null)) would stop every
// other local, the count that plans r among them. ok is false for the rare
// name with a character that no CUE identifier has (a combining mark).
func localIdent(name string) (id string, ok bool) { return hiddenIdent(localPrefix, name) }

// varIdent is the identifier of the hidden field that holds a root
// module's var.NAME: _var_NAME, spelled as localIdent spells a local, and
// a field of its own for the same reason (an input that is an error stops
// only what reads it). A called module's variables stay fields of _var,
// which each call instance unifies with its arguments (see modules.go).
func varIdent(name string) (id string, ok bool) { return hiddenIdent(varPrefix, name) }

// hiddenIdent is prefix and name as one identifier, each "-" of the name
// written "$"; ok is false where it is not a CUE identifier.
func hiddenIdent(prefix, name string) (id string, ok bool) {
	id = prefix + strings.ReplaceAll(name, "-", "$")
	return id, ast.IsValidIdent(id)
}

// reservedRoots are names that a managed resource type must not take at the
// top level, because the scheme uses them itself.
var reservedRoots = map[string]bool{
	dataRoot: true, ephemeralRoot: true, moduleRoot: true, outputRoot: true,
	providerRoot: true, resourceRoot: true, libImport: true,
	"var": true, "local": true, "path": true, "terraform": true,
	"count": true, "each": true, "self": true,
}

// predeclared are CUE's predeclared identifiers that converted
// expressions use: a field with one of these names is written quoted, or
// it would shadow the type or builtin (number!: number would refer to
// itself).
var predeclared = map[string]bool{
	"string": true, "number": true, "bool": true, "int": true, "float": true,
	"bytes": true, "null": true, "len": true, "close": true, "and": true, "or": true,
	"div": true, "mod": true, "quo": true, "rem": true, "error": true, "_": true,
}

// stdImports are the CUE standard packages the converter may import, by
// the name they are referred to.
var stdImports = map[string]string{
	"strings": "strings", "list": "list", "math": "math", "strconv": "strconv",
	"regexp": "regexp", "json": "encoding/json", "yaml": "encoding/yaml",
	"base64": "encoding/base64", "hex": "encoding/hex", "net": "net",
	"sha256": "crypto/sha256", "sha1": "crypto/sha1", "sha512": "crypto/sha512",
	"md5": "crypto/md5", "time": "time", "path": "path", "uuid": "uuid",
	"bits": "math/bits",
}

// resourceTypeRoot is where managed resources of typeName live: the type
// itself at the top level, or under "resource" (OpenTofu's own escape
// prefix) when the type is a name the scheme reserves or an opt-in
// feature's symbol.
func (c *converter) resourceTypeRoot(typeName string) []string {
	if reservedRoots[typeName] || stdImports[typeName] != "" || c.featureSymbols[typeName] {
		return []string{resourceRoot, typeName}
	}
	return []string{typeName}
}

// resourcePath is the path of a resource's field: its namespace, type and
// name.
func (c *converter) resourcePath(mode config.ResourceMode, typeName, name string) []string {
	switch mode {
	case config.DataMode:
		return []string{dataRoot, typeName, name}
	case config.EphemeralMode:
		return []string{ephemeralRoot, typeName, name}
	}
	return append(c.resourceTypeRoot(typeName), name)
}

// pathExpr is a reference to the field at path from the top level.
func pathExpr(path []string) ast.Expr {
	var x ast.Expr = ident(path[0])
	for _, p := range path[1:] {
		x = selector(x, p)
	}
	return x
}

// scope is one level of names bound by the converter inside a declaration:
// for and dynamic iterators, count and each.
type scope struct {
	// names maps an OpenTofu name (a for variable, a dynamic block
	// iterator) to what it is in CUE.
	names map[string]binding
	// templateVars is set for the scope of a template (templatefile,
	// templatestring): the CUE identifier of its variables object. A
	// template sees nothing of the module: every name not bound inside
	// it is one of its variables.
	templateVars string
}

// binding is what an OpenTofu name in scope stands for.
type binding struct {
	// cue is the CUE identifier bound.
	cue string
	// iterator is set for a dynamic block's iterator: its key and value
	// are the CUE identifiers key and value.
	iterator   bool
	key, value string
	kind       kind
	// nameFacts is what the analysis reads of the name (its type, and
	// whether it is known while planning).
	nameFacts
	// templateVars is set for a template's variable: the CUE identifier
	// of the variables object it is an attribute of.
	templateVars string
	// forEach is, for each, the for_each expression of its block: where
	// it is known when converting, so are each.key and each.value in every
	// instance (see foldEach).
	forEach hcl.Expression
	// over is, for a for expression's variable, the collection it ranges
	// over: what the name depends on (see runtimeValues).
	over hcl.Expression
	// element is set for a for expression's variable that is an element
	// of over (its value variable, and its key variable over a set).
	element bool
}

// lookup finds an OpenTofu name bound in scope.
func (c *converter) lookup(name string) (binding, bool) {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if b, ok := c.scopes[i].names[name]; ok {
			return b, true
		}
		if tv := c.scopes[i].templateVars; tv != "" {
			return binding{templateVars: tv}, true
		}
	}
	return binding{}, false
}

// bound reports whether a CUE identifier is referred to by name somewhere
// the label of a field could shadow it: a namespace, an import, or a name
// bound in scope. Such a label is written quoted.
func (c *converter) bound(cueName string) bool {
	if reservedRoots[cueName] || predeclared[cueName] || stdImports[cueName] != "" || c.topLevel[cueName] {
		return true
	}
	for _, s := range c.scopes {
		if s.templateVars == cueName {
			return true
		}
		for name := range s.names {
			if b := s.names[name]; b.cue == cueName || b.key == cueName || b.value == cueName {
				return true
			}
		}
	}
	return false
}

// fresh returns a CUE identifier for an OpenTofu name bound in scope that
// shadows nothing the converted expressions use.
func (c *converter) fresh(name string) string {
	n := name
	if !isPlainLabel(n) {
		n = "v"
	}
	for i := 1; c.bound(n); i++ {
		n = name + "_" + strconv.Itoa(i)
		if !isPlainLabel(n) {
			n = "v_" + strconv.Itoa(i)
		}
	}
	return n
}

func (c *converter) push(names map[string]binding) {
	c.scopes = append(c.scopes, scope{names: names})
}

func (c *converter) pop() { c.scopes = c.scopes[:len(c.scopes)-1] }

// lbl is the label for a field named name in the current scope.
func (c *converter) lbl(name string) ast.Label { return label(name, c.bound) }
