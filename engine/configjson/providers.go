package configjson

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tofucue/tofucue/config"
)

// ProviderAddr is the source address of the provider that a local name
// stands for in m: its required_providers entry's, else the built-in
// provider of that name, else hashicorp/NAME on OpenTofu's registry.
func ProviderAddr(m *config.Module, localName string) string {
	if m.Terraform != nil {
		if rp := m.Terraform.RequiredProviders[localName]; rp != nil && rp.Addr.Type != "" {
			return rp.Addr.String()
		}
	}
	return config.ImpliedProvider(localName).String()
}

// providerConfigs adds to b.providers the provider configurations of m,
// whose module path is path (parentPath for its caller's; "" and "" for
// the root), then those of every module it calls. A configuration of a
// child module that stands for one of the caller's (inherited by name, or
// passed in the call's providers argument) records the caller's key as
// its parent.
func (b *builder) providerConfigs(m *config.Module, path string, parent *config.Module, parentPath string) {
	reqs, order := providerRequirements(m)

	for _, key := range sortedKeys(m.ProviderConfigs) {
		p := m.ProviderConfigs[key]
		addr := ProviderAddr(m, p.Name)
		b.providers[providerKey(key, path)] = &ProviderConfig{
			Name:              p.Name,
			FullName:          addr,
			Alias:             p.Alias,
			ModuleAddress:     path,
			Expressions:       expressions(p.Config, nil, m),
			VersionConstraint: constraintString(reqs[addr]),
		}
	}

	inherit := func(pc *ProviderConfig, name string) {
		if parent != nil {
			pc.parent = b.sourceProvider(providerKey(name, parentPath), pc.FullName)
		}
	}
	if m.Terraform != nil {
		for _, name := range sortedKeys(m.Terraform.RequiredProviders) {
			rp := m.Terraform.RequiredProviders[name]
			addr := ProviderAddr(m, name)
			for _, alias := range rp.ConfigurationAliases {
				key := providerKey(alias.String(), path)
				if _, ok := b.providers[key]; !ok {
					b.providers[key] = &ProviderConfig{Name: name, FullName: addr, ModuleAddress: path, VersionConstraint: constraintString(reqs[addr])}
				}
			}
			key := providerKey(name, path)
			if _, ok := b.providers[key]; ok {
				continue
			}
			pc := &ProviderConfig{Name: name, FullName: addr, ModuleAddress: path, VersionConstraint: constraintString(reqs[addr])}
			inherit(pc, name)
			b.providers[key] = pc
		}
	}

	// A provider that only resources imply is a default configuration,
	// named for its type.
	for _, addr := range order {
		typ := addr[strings.LastIndex(addr, "/")+1:]
		key := providerKey(typ, path)
		if _, ok := b.providers[key]; ok {
			continue
		}
		pc := &ProviderConfig{Name: typ, FullName: addr, ModuleAddress: path}
		inherit(pc, typ)
		b.providers[key] = pc
	}

	for _, name := range sortedKeys(m.ModuleCalls) {
		call := m.ModuleCalls[name]
		var child *config.Module
		if b.child != nil {
			child = b.child(m, call)
		}
		if child == nil {
			continue
		}
		cpath := childPath(path, name)
		for i := range call.Providers {
			pp := &call.Providers[i]
			pc := &ProviderConfig{Name: pp.InChild.String(), FullName: ProviderAddr(child, pp.InChild.Name), ModuleAddress: cpath}
			pc.parent = b.sourceProvider(providerKey(pp.InParent.String(), path), pc.FullName)
			b.providers[providerKey(pp.InChild.String(), cpath)] = pc
		}
		b.providerConfigs(child, cpath, m, path)
	}
}

// sourceProvider follows parents from key while the configurations are of
// the provider fullName, and returns the last one found: the
// configuration that a child's stands for. "" when key is none of them.
func (b *builder) sourceProvider(key, fullName string) string {
	found := ""
	for key != "" {
		pc, ok := b.providers[key]
		if !ok || pc.FullName != fullName {
			break
		}
		found = key
		key = pc.parent
	}
	return found
}

// resolveProviderKeys points each resource whose configuration stands for
// one of a calling module's at that one, in mod and below.
func (b *builder) resolveProviderKeys(mod *Module) {
	for _, r := range mod.Resources {
		if pc, ok := b.providers[r.ProviderConfigKey]; ok {
			if _, ok := b.providers[pc.parent]; ok {
				r.ProviderConfigKey = pc.parent
			}
		}
	}
	for _, name := range sortedKeys(mod.ModuleCalls) {
		if call := mod.ModuleCalls[name]; call.Module != nil {
			b.resolveProviderKeys(call.Module)
		}
	}
}

// providerRequirements are the providers m itself needs, by source
// address, with their version constraints (from required_providers and
// the deprecated version argument of provider blocks), and the addresses
// in the order they are first required.
func providerRequirements(m *config.Module) (map[string][]string, []string) {
	reqs := map[string][]string{}
	var order []string
	add := func(addr string, vc *config.VersionConstraint) {
		if _, ok := reqs[addr]; !ok {
			reqs[addr] = nil
			order = append(order, addr)
		}
		if vc != nil && vc.Required != nil {
			for _, c := range vc.Required {
				reqs[addr] = append(reqs[addr], c.String())
			}
		}
	}
	if m.Terraform != nil {
		for _, name := range sortedKeys(m.Terraform.RequiredProviders) {
			add(ProviderAddr(m, name), m.Terraform.RequiredProviders[name].Requirement)
		}
	}
	for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, key := range sortedKeys(rs) {
			r := rs[key]
			name, _, _ := strings.Cut(resourceProvider(r), ".")
			add(ProviderAddr(m, name), nil)
		}
	}
	for _, key := range sortedKeys(m.ProviderConfigs) {
		p := m.ProviderConfigs[key]
		add(ProviderAddr(m, p.Name), p.Version)
	}
	return reqs, order
}

// constraintString writes version constraints as OpenTofu writes a
// provider's: each once, sorted by version, "op M.m.p" (a pessimistic
// constraint on two components keeps two), joined by ", ".
func constraintString(cs []string) string {
	seen := map[string]versionSel{}
	for _, c := range cs {
		for part := range strings.SplitSeq(c, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			op := ""
			for _, o := range []string{">=", "<=", "~>", "!=", ">", "<", "="} {
				if strings.HasPrefix(part, o) {
					op = o
					break
				}
			}
			v := strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(part, op)), "v")
			if op == "=" {
				op = ""
			}
			core, rest := v, ""
			if i := strings.IndexAny(v, "-+"); i >= 0 {
				core, rest = v[:i], v[i:]
			}
			parts := strings.Split(core, ".")
			for i, p := range parts {
				if p == "*" || p == "x" {
					parts[i] = "0"
				}
			}
			n := 3
			if op == "~>" && len(parts) < 3 {
				n = 2
			}
			for len(parts) < n {
				parts = append(parts, "0")
			}
			s := versionSel{op: op, parts: parts, rest: rest}
			seen[s.String()] = s
		}
	}
	list := slices.Collect(maps.Values(seen))
	slices.SortFunc(list, func(a, b versionSel) int {
		for i := range 3 {
			var x, y int
			if i < len(a.parts) {
				x, _ = strconv.Atoi(a.parts[i])
			}
			if i < len(b.parts) {
				y, _ = strconv.Atoi(b.parts[i])
			}
			if c := cmp.Compare(x, y); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.op, b.op)
	})
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.String()
	}
	return strings.Join(out, ", ")
}

// versionSel is one version constraint: an operator ("" for =), the
// version's numeric parts and its prerelease and metadata suffix.
type versionSel struct {
	op    string
	parts []string
	rest  string
}

func (s versionSel) String() string {
	v := strings.Join(s.parts, ".") + s.rest
	if s.op == "" {
		return v
	}
	return fmt.Sprintf("%s %s", s.op, v)
}
