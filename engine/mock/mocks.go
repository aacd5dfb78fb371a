package mock

import (
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/source"
)

// Mocks is the content of mocks files: mock providers with their
// mock_resource and mock_data defaults and overrides, and the overrides
// that apply whatever the provider.
type Mocks struct {
	providers []*mockProvider
	overrides []*override
	modules   []*override
}

type mockProvider struct {
	name, alias string
	declRange   hcl.Range
	usePlan     bool
	resources   map[typeKey]*mockResource
	overrides   []*override
}

// key is "name" or "name.alias", as Request.Provider spells it.
func (p *mockProvider) key() string {
	if p.alias == "" {
		return p.name
	}
	return p.name + "." + p.alias
}

type mockResource struct {
	key       typeKey
	defaults  cty.Value // an object, or cty.NilVal when none is given
	usePlan   bool
	declRange hcl.Range
	// valuesRange is the range of the defaults argument.
	valuesRange hcl.Range
}

type override struct {
	blockType string
	target    target
	values    cty.Value // an object
	usePlan   bool
	declRange hcl.Range
	// valuesRange is the range of the values (or outputs) argument, or of
	// the block header when there is none.
	valuesRange hcl.Range
}

// target is an override's target address: module calls with optional keys
// ("*" for every instance), then a resource, also with an optional key.
// A step without a key matches every instance too.
type target struct {
	modules []targetStep
	// resource is false for an override_module target.
	resource bool
	mode     config.ResourceMode
	typ      string
	name     targetStep
}

type targetStep struct {
	name string
	key  instanceKey
}

// instanceKey is an instance key in a target or an address: none, any
// ([*]), a number or a string.
type instanceKey struct {
	kind keyKind
	num  int64
	str  string
}

type keyKind uint8

const (
	keyNone keyKind = iota
	keyAny
	keyNum
	keyStr
)

func (k instanceKey) String() string {
	switch k.kind {
	case keyAny:
		return "[*]"
	case keyNum:
		return fmt.Sprintf("[%d]", k.num)
	case keyStr:
		return fmt.Sprintf("[%q]", k.str)
	}
	return ""
}

func (t *target) String() string {
	var b strings.Builder
	for _, m := range t.modules {
		if b.Len() > 0 {
			b.WriteString(".")
		}
		b.WriteString("module." + m.name + m.key.String())
	}
	if t.resource {
		if b.Len() > 0 {
			b.WriteString(".")
		}
		switch t.mode {
		case config.DataMode:
			b.WriteString("data.")
		case config.EphemeralMode:
			b.WriteString("ephemeral.")
		}
		b.WriteString(t.typ + "." + t.name.name + t.name.key.String())
	}
	return b.String()
}

// match tells whether the target matches an instance address, and how
// specific it is: the number of instance keys it names.
func (t *target) match(a *target) (int, bool) {
	if len(t.modules) != len(a.modules) || t.resource != a.resource {
		return 0, false
	}
	score := 0
	step := func(p, s targetStep) bool {
		if p.name != s.name {
			return false
		}
		switch p.key.kind {
		case keyNone, keyAny:
			return true
		}
		score++
		return p.key == s.key
	}
	for i := range t.modules {
		if !step(t.modules[i], a.modules[i]) {
			return 0, false
		}
	}
	if t.resource && (t.mode != a.mode || t.typ != a.typ || !step(t.name, a.name)) {
		return 0, false
	}
	return score, true
}

var (
	mocksFileSchema = &hcl.BodySchema{
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "mock_provider", LabelNames: []string{"name"}},
			{Type: "override_resource"},
			{Type: "override_data"},
			{Type: "override_module"},
			{Type: "run", LabelNames: []string{"name"}},
			{Type: "variables"},
			{Type: "provider", LabelNames: []string{"name"}},
		},
	}
	mockProviderSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "for_each"}, {Name: "override_during"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "mock_resource", LabelNames: []string{"type"}},
			{Type: "mock_data", LabelNames: []string{"type"}},
			{Type: "override_resource"},
			{Type: "override_data"},
		},
	}
	mockResourceSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "defaults"}, {Name: "override_during"}},
	}
)

// LoadMocks reads mocks files written in OpenTofu's test syntax (.hcl, or
// .json for the JSON form). See the package documentation for the blocks
// they may hold.
func LoadMocks(paths ...string) (*Mocks, hcl.Diagnostics) {
	m := &Mocks{}
	var diags hcl.Diagnostics
	parser := hclparse.NewParser()
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Failed to read mocks file",
				Detail:   fmt.Sprintf("Cannot read %s: %s.", path, err),
			})
			continue
		}
		diags = append(diags, m.parse(parser, path, src)...)
	}
	return m, diags
}

// parse reads one mocks file from its bytes.
func (m *Mocks) parse(parser *hclparse.Parser, path string, src []byte) hcl.Diagnostics {
	if d := source.CheckNesting(src, path, source.SyntaxOf(path)); d != nil {
		return hcl.Diagnostics{d}
	}
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		f, diags = parser.ParseJSON(src, path)
	} else {
		f, diags = parser.ParseHCL(src, path)
	}
	if f == nil || f.Body == nil {
		return diags
	}
	d := &mocksDecoder{m: m, src: src, path: path}
	d.diags = diags
	d.file(f.Body)
	return d.diags
}

type mocksDecoder struct {
	m     *Mocks
	src   []byte
	path  string
	diags hcl.Diagnostics
}

func (d *mocksDecoder) errorf(rng hcl.Range, summary, format string, args ...any) {
	d.diags = append(d.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng.Ptr()})
}

func (d *mocksDecoder) file(body hcl.Body) {
	content, diags := body.Content(mocksFileSchema)
	d.diags = append(d.diags, diags...)
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "mock_provider":
			d.mockProvider(blk)
		case "override_resource", "override_data":
			if o := d.override(blk, false); o != nil {
				d.m.overrides = d.addOverride(d.m.overrides, o)
			}
		case "override_module":
			if o := d.override(blk, false); o != nil {
				d.m.modules = d.addOverride(d.m.modules, o)
			}
		default:
			d.diags = append(d.diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  fmt.Sprintf("Ignored %s block", blk.Type),
				Detail:   fmt.Sprintf("A mocks file is read for its mock_provider, override_resource, override_data and override_module blocks; %s blocks of a test file are not used.", blk.Type),
				Subject:  blk.DefRange.Ptr(),
			})
		}
	}
}

func (d *mocksDecoder) mockProvider(blk *hcl.Block) {
	content, diags := blk.Body.Content(mockProviderSchema)
	d.diags = append(d.diags, diags...)
	p := &mockProvider{name: blk.Labels[0], declRange: blk.DefRange, resources: map[typeKey]*mockResource{}}
	if !hclsyntax.ValidIdentifier(p.name) {
		d.errorf(blk.LabelRanges[0], "Invalid provider name", "A provider name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.")
		return
	}
	if a, ok := content.Attributes["alias"]; ok {
		v, diags := a.Expr.Value(nil)
		d.diags = append(d.diags, diags...)
		switch {
		case diags.HasErrors():
		case v.IsNull() || !v.IsKnown() || v.Type() != cty.String:
			d.errorf(a.Expr.Range(), "Invalid provider configuration alias", "The alias must be a string.")
		case !hclsyntax.ValidIdentifier(v.AsString()):
			d.errorf(a.Expr.Range(), "Invalid provider configuration alias", "An alias must be a valid name: a letter or underscore, then letters, digits, underscores, and dashes.")
		default:
			p.alias = v.AsString()
		}
	}
	if a, ok := content.Attributes["for_each"]; ok && p.alias == "" {
		d.errorf(a.NameRange, "Invalid for_each in mock_provider", "for_each is allowed in a mock_provider block only together with alias.")
	}
	p.usePlan = d.overrideDuring(content, false)
	for _, prev := range d.m.providers {
		if prev.key() == p.key() {
			d.errorf(blk.DefRange, "Duplicate mock_provider block", "A mock_provider block for %s was already declared at %s.", p.key(), prev.declRange)
			return
		}
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "mock_resource", "mock_data":
			r := d.mockResource(b, p.usePlan)
			if r == nil {
				continue
			}
			if prev, dup := p.resources[r.key]; dup {
				d.errorf(b.LabelRanges[0], "Duplicate "+b.Type+" block", "A %s block for %s was already declared at %s.", b.Type, r.key.typ, prev.declRange)
				continue
			}
			p.resources[r.key] = r
		default:
			if o := d.override(b, p.usePlan); o != nil {
				p.overrides = d.addOverride(p.overrides, o)
			}
		}
	}
	d.m.providers = append(d.m.providers, p)
}

// overrideDuring reads override_during = plan | apply.
func (d *mocksDecoder) overrideDuring(content *hcl.BodyContent, def bool) bool {
	a, ok := content.Attributes["override_during"]
	if !ok {
		return def
	}
	switch hcl.ExprAsKeyword(a.Expr) {
	case "plan":
		return true
	case "apply":
		return false
	}
	if v, diags := a.Expr.Value(nil); !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
		switch v.AsString() {
		case "plan":
			return true
		case "apply":
			return false
		}
	}
	d.errorf(a.Expr.Range(), "Invalid override_during value", "The override_during argument must be the keyword plan or apply.")
	return def
}

func (d *mocksDecoder) mockResource(blk *hcl.Block, usePlan bool) *mockResource {
	content, diags := blk.Body.Content(mockResourceSchema)
	d.diags = append(d.diags, diags...)
	mode := config.ManagedMode
	if blk.Type == "mock_data" {
		mode = config.DataMode
	}
	r := &mockResource{key: typeKey{mode, blk.Labels[0]}, declRange: blk.DefRange, valuesRange: blk.DefRange, defaults: cty.NilVal}
	if a, ok := content.Attributes["defaults"]; ok {
		r.valuesRange = a.Range
		v, ok := d.object(a, blk.Type)
		if !ok {
			return nil
		}
		r.defaults = v
	}
	r.usePlan = d.overrideDuring(content, usePlan)
	return r
}

// object evaluates a constant object argument.
func (d *mocksDecoder) object(a *hcl.Attribute, blockType string) (cty.Value, bool) {
	v, diags := a.Expr.Value(nil)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	if v.IsNull() || !v.IsWhollyKnown() || (!v.Type().IsObjectType() && !v.Type().IsMapType()) {
		d.errorf(a.Expr.Range(), fmt.Sprintf("Invalid %s attribute", a.Name), "The %s argument of a %s block must be an object.", a.Name, blockType)
		return cty.NilVal, false
	}
	if v.Type().IsMapType() {
		v = cty.ObjectVal(v.AsValueMap())
	}
	return v, true
}

func (d *mocksDecoder) override(blk *hcl.Block, usePlan bool) *override {
	valuesName := "values"
	if blk.Type == "override_module" {
		valuesName = "outputs"
	}
	content, diags := blk.Body.Content(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "target"}, {Name: "override_during"}, {Name: valuesName}},
	})
	d.diags = append(d.diags, diags...)
	o := &override{blockType: blk.Type, declRange: blk.DefRange, valuesRange: blk.DefRange, values: cty.EmptyObjectVal}
	ta, ok := content.Attributes["target"]
	if !ok {
		d.errorf(blk.DefRange, "Missing target attribute", "An %s block must give the address of its target.", blk.Type)
		return nil
	}
	t, ok := d.target(ta.Expr)
	if !ok {
		return nil
	}
	switch {
	case blk.Type == "override_module" && t.resource:
		d.errorf(ta.Expr.Range(), "Invalid override target", "An override_module block can target only a module call, not %s.", t.String())
		return nil
	case blk.Type == "override_resource" && (!t.resource || t.mode != config.ManagedMode):
		d.errorf(ta.Expr.Range(), "Invalid override target", "An override_resource block can target only a managed resource, not %s.", t.String())
		return nil
	case blk.Type == "override_data" && (!t.resource || t.mode != config.DataMode):
		d.errorf(ta.Expr.Range(), "Invalid override target", "An override_data block can target only a data source, not %s.", t.String())
		return nil
	}
	o.target = t
	if a, ok := content.Attributes[valuesName]; ok {
		o.valuesRange = a.Range
		v, ok := d.object(a, blk.Type)
		if !ok {
			return nil
		}
		o.values = v
	}
	o.usePlan = d.overrideDuring(content, usePlan)
	return o
}

func (d *mocksDecoder) addOverride(list []*override, o *override) []*override {
	for _, prev := range list {
		if prev.blockType == o.blockType && prev.target.String() == o.target.String() {
			d.errorf(o.declRange, "Duplicate "+o.blockType+" block", "An %s block targeting %s was already declared at %s.", o.blockType, o.target.String(), prev.declRange)
			return list
		}
	}
	return append(list, o)
}

// target reads a target address: a reference written as an expression (a
// trailing [*] allowed), or, in JSON, as a string.
func (d *mocksDecoder) target(expr hcl.Expression) (target, bool) {
	rng := expr.Range()
	var text []byte
	start := rng.Start
	if _, native := expr.(hclsyntax.Expression); native && rng.End.Byte <= len(d.src) && rng.Start.Byte <= rng.End.Byte {
		text = d.src[rng.Start.Byte:rng.End.Byte]
	} else {
		v, diags := expr.Value(nil)
		if diags.HasErrors() || v.Type() != cty.String || v.IsNull() || !v.IsKnown() {
			d.errorf(rng, "Invalid override target", "The target must be the address of a resource, data source or module call.")
			return target{}, false
		}
		text = []byte(v.AsString())
		start = hcl.Pos{Line: rng.Start.Line, Column: rng.Start.Column + 1, Byte: rng.Start.Byte + 1}
	}
	tr, diags := hclsyntax.ParseTraversalPartial(text, rng.Filename, start)
	if diags.HasErrors() {
		d.errorf(rng, "Invalid override target", "The target must be the address of a resource, data source or module call.")
		return target{}, false
	}
	t, msg := parseTarget(tr, true)
	if msg != "" {
		d.errorf(rng, "Invalid override target", "%s", msg)
		return target{}, false
	}
	return t, true
}

// parseTarget reads a traversal as a target address (with [*] allowed when
// wildcard) and returns a message when it is not one.
func parseTarget(tr hcl.Traversal, wildcard bool) (target, string) {
	const want = "The target must be the address of a resource, data source or module call, such as aws_instance.web, data.aws_ami.ubuntu or module.network."
	var t target
	i := 0
	name := func() (string, bool) {
		if i >= len(tr) {
			return "", false
		}
		switch s := tr[i].(type) {
		case hcl.TraverseRoot:
			return s.Name, true
		case hcl.TraverseAttr:
			return s.Name, true
		}
		return "", false
	}
	key := func() (instanceKey, string) {
		if i >= len(tr) {
			return instanceKey{}, ""
		}
		switch s := tr[i].(type) {
		case hcl.TraverseSplat:
			if !wildcard || len(s.Each) > 0 {
				return instanceKey{}, want
			}
			i++
			return instanceKey{kind: keyAny}, ""
		case hcl.TraverseIndex:
			i++
			k := s.Key
			if k.IsNull() || !k.IsKnown() {
				return instanceKey{}, "An instance key must be a number or a string."
			}
			switch k.Type() {
			case cty.String:
				return instanceKey{kind: keyStr, str: k.AsString()}, ""
			case cty.Number:
				n, acc := k.AsBigFloat().Int64()
				if acc != big.Exact || n < 0 {
					return instanceKey{}, "An instance key number must be a whole number, zero or more."
				}
				return instanceKey{kind: keyNum, num: n}, ""
			}
			return instanceKey{}, "An instance key must be a number or a string."
		}
		return instanceKey{}, ""
	}
	for {
		n, ok := name()
		if !ok || n != "module" {
			break
		}
		i++
		mn, ok := name()
		if !ok {
			return t, want
		}
		i++
		k, msg := key()
		if msg != "" {
			return t, msg
		}
		t.modules = append(t.modules, targetStep{name: mn, key: k})
	}
	if i == len(tr) {
		if len(t.modules) == 0 {
			return t, want
		}
		return t, ""
	}
	t.resource = true
	n, _ := name()
	switch n {
	case "data":
		t.mode = config.DataMode
		i++
	case "ephemeral":
		t.mode = config.EphemeralMode
		i++
	case "resource":
		i++
	}
	typ, ok := name()
	if !ok {
		return t, want
	}
	switch typ {
	case "var", "local", "count", "each", "path", "self", "terraform", "tofu", "output", "run", "data", "ephemeral", "module":
		return t, fmt.Sprintf("%q is not a resource type. %s", typ, want)
	}
	i++
	rn, ok := name()
	if !ok {
		return t, want
	}
	i++
	k, msg := key()
	if msg != "" {
		return t, msg
	}
	t.typ, t.name = typ, targetStep{name: rn, key: k}
	if i != len(tr) {
		return t, want
	}
	return t, ""
}

// parseAddr reads an absolute instance address such as
// module.net[0].aws_subnet.a["x"].
func parseAddr(addr string) (target, bool) {
	tr, diags := hclsyntax.ParseTraversalAbs([]byte(addr), "", hcl.InitialPos)
	if diags.HasErrors() {
		return target{}, false
	}
	t, msg := parseTarget(tr, false)
	return t, msg == ""
}

// match is what the mocks say about one resource instance: the override
// for its address and the defaults for its type, most specific first.
type match struct {
	layers  []layer
	usePlan bool
}

type layer struct {
	values cty.Value
	rng    hcl.Range
}

func (m *Mocks) provider(key string) *mockProvider {
	if m == nil {
		return nil
	}
	for _, p := range m.providers {
		if p.key() == key {
			return p
		}
	}
	return nil
}

// lookup finds the mocks for a request: the most specific override that
// targets its address (one that names instance keys beats one that does
// not; a file-level override beats a mock_provider's), then the
// mock_resource or mock_data defaults of its provider for its type.
// usePlan is the override_during of the most specific of them, then the
// provider's.
func (m *Mocks) lookup(r *Request) match {
	var out match
	if m == nil {
		return out
	}
	p := m.provider(r.Provider)
	var best *override
	blockType := map[config.ResourceMode]string{config.ManagedMode: "override_resource", config.DataMode: "override_data"}[r.Mode]
	if addr, ok := parseAddr(r.Addr); ok && blockType != "" {
		bestScore := -1
		candidates := m.overrides
		if p != nil {
			candidates = append(candidates[:len(candidates):len(candidates)], p.overrides...)
		}
		for _, o := range candidates {
			if o.blockType != blockType {
				continue
			}
			if score, ok := o.target.match(&addr); ok && score > bestScore {
				best, bestScore = o, score
			}
		}
	}
	var mr *mockResource
	if p != nil {
		mr = p.resources[typeKey{r.Mode, r.Type}]
	}
	if best != nil {
		out.layers = append(out.layers, layer{best.values, best.valuesRange})
	}
	if mr != nil && mr.defaults != cty.NilVal {
		out.layers = append(out.layers, layer{mr.defaults, mr.valuesRange})
	}
	switch {
	case best != nil:
		out.usePlan = best.usePlan
	case mr != nil:
		out.usePlan = mr.usePlan
	case p != nil:
		out.usePlan = p.usePlan
	}
	return out
}

// ModuleOverride returns the outputs an override_module block gives the
// module instance at addr ("module.net", "module.net[0].module.sub"), and
// whether one targets it.
func (m *Mocks) ModuleOverride(addr string) (cty.Value, bool) {
	if m == nil {
		return cty.NilVal, false
	}
	a, ok := parseAddr(addr)
	if !ok || a.resource {
		return cty.NilVal, false
	}
	var best *override
	bestScore := -1
	for _, o := range m.modules {
		if score, ok := o.target.match(&a); ok && score > bestScore {
			best, bestScore = o, score
		}
	}
	if best == nil {
		return cty.NilVal, false
	}
	return best.values, true
}
