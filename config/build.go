package config

import (
	"fmt"
)

// addFile adds the declarations of a primary file to the module, reporting
// duplicates.
func (l *loader) addFile(f *file) {
	m := l.mod
	d := &decoder{path: f.path, opts: &l.opts}
	defer func() { l.report(d.diags...) }()

	for _, t := range f.terraform {
		l.addTerraform(d, t)
	}
	for _, lang := range f.language {
		if m.Language != nil {
			d.errorf(lang.DeclRange, "Duplicate language block", "A module may have only one language block. The language settings were already given at %s.", m.Language.DeclRange)
			continue
		}
		m.Language = lang
	}
	for _, v := range f.variables {
		addUnique(d, m.Variables, v.Name, v, "Duplicate variable declaration", "A variable named %q was already declared at %s. Variable names must be unique within a module.")
	}
	for _, lv := range f.locals {
		addUnique(d, m.Locals, lv.Name, lv, "Duplicate local value definition", "A local value named %q was already defined at %s. Local value names must be unique within a module.")
	}
	for _, o := range f.outputs {
		addUnique(d, m.Outputs, o.Name, o, "Duplicate output definition", "An output named %q was already defined at %s. Output names must be unique within a module.")
	}
	for _, mc := range f.moduleCalls {
		addUnique(d, m.ModuleCalls, mc.Name, mc, "Duplicate module call", "A module call named %q was already defined at %s. Module calls must have unique names within a module.")
	}
	addResources(d, m.ManagedResources, f.managed, "resource %q", "A %s resource named %q")
	addResources(d, m.DataResources, f.data, "data %q", "A %s data resource named %q")
	addResources(d, m.EphemeralResources, f.ephemeral, "ephemeral resource %q", "A %s ephemeral resource named %q")
	for _, p := range f.providers {
		if prev, dup := m.ProviderConfigs[p.Key()]; dup {
			if p.Alias == "" {
				d.errorf(p.Decl, "Duplicate provider configuration", "A default (non-aliased) provider configuration for %q was already given at %s. If multiple configurations are required, set the \"alias\" argument for alternative configurations.", p.Name, prev.Decl)
			} else {
				d.errorf(p.Decl, "Duplicate provider configuration", "A provider configuration for %q with alias %q was already given at %s. Each configuration for the same provider must have a distinct alias.", p.Name, p.Alias, prev.Decl)
			}
			continue
		}
		m.ProviderConfigs[p.Key()] = p
	}
	m.Moved = append(m.Moved, f.moved...)
	m.Imports = append(m.Imports, f.imports...)
	m.Removed = append(m.Removed, f.removed...)
	for _, c := range f.checks {
		if prev, dup := m.Checks[c.Name]; dup {
			d.errorf(c.Decl, "Duplicate check block", "A check block named %q was already defined at %s. Check blocks must have unique names within a module.", c.Name, prev.Decl)
			continue
		}
		if c.DataSource != nil {
			if prev, dup := m.DataResources[c.DataSource.Key()]; dup {
				d.errorf(c.DataSource.Decl, fmt.Sprintf("Duplicate data %q configuration", c.DataSource.Type), "A %s data resource named %q was already declared at %s. Resource names must be unique per type in each module, including within check blocks.", c.DataSource.Type, c.DataSource.Name, prev.Decl)
			}
		}
		m.Checks[c.Name] = c
	}
	for _, mw := range f.middleware {
		addUnique(d, m.Middleware, mw.Name, mw, "Duplicate middleware block", "A middleware block named %q was already defined at %s. Middleware names must be unique within a module.")
	}
	addFeatureBlocks(d, m, f.featureBlocks)
}

// addUnique adds a named declaration to its map, or reports it as a
// duplicate of the one already there. detail takes the name and the range
// of the first declaration.
func addUnique[T Declaration](d *decoder, into map[string]T, name string, decl T, summary, detail string) {
	if prev, dup := into[name]; dup {
		d.errorf(decl.DeclRange(), summary, detail, name, prev.DeclRange())
		return
	}
	into[name] = decl
}

func addResources(d *decoder, into map[string]*Resource, rs []*Resource, summary, detail string) {
	for _, r := range rs {
		if prev, dup := into[r.Key()]; dup {
			d.errorf(r.Decl, "Duplicate "+fmt.Sprintf(summary, r.Type)+" configuration",
				detail+" was already declared at %s. Resource names must be unique per type in each module.", r.Type, r.Name, prev.Decl)
			continue
		}
		into[r.Key()] = r
	}
}

// addTerraform folds one terraform block of a primary file into the module.
func (l *loader) addTerraform(d *decoder, t *Terraform) {
	mt := l.mod.Terraform
	mt.Blocks = append(mt.Blocks, t.Blocks...)
	mt.RequiredVersions = append(mt.RequiredVersions, t.RequiredVersions...)
	mt.Experiments = append(mt.Experiments, t.Experiments...)
	mt.Middleware = append(mt.Middleware, t.Middleware...)
	for _, rng := range t.RequiredProvidersBlocks {
		if len(mt.RequiredProvidersBlocks) > 0 {
			d.errorf(rng, "Duplicate required providers configuration", "A module may have only one required providers configuration. The required providers were previously configured at %s.", mt.RequiredProvidersBlocks[0])
			continue
		}
		mt.RequiredProvidersBlocks = append(mt.RequiredProvidersBlocks, rng)
		for name, rp := range t.RequiredProviders {
			mt.RequiredProviders[name] = rp
		}
	}
	if t.Backend != nil {
		switch {
		case mt.Backend != nil:
			d.errorf(t.Backend.DeclRange, "Duplicate backend configuration", "A module may have only one backend configuration. The backend was previously configured at %s.", mt.Backend.DeclRange)
		case mt.Cloud != nil:
			d.errorf(t.Backend.DeclRange, "Both a backend and a cloud configuration are present", "A module may declare either one 'cloud' block or one 'backend' block configuring a state backend. A cloud backend was already configured at %s.", mt.Cloud.DeclRange)
		default:
			mt.Backend = t.Backend
		}
	}
	if t.Cloud != nil {
		switch {
		case mt.Cloud != nil:
			d.errorf(t.Cloud.DeclRange, "Duplicate cloud configurations", "A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at %s.", mt.Cloud.DeclRange)
		case mt.Backend != nil:
			d.errorf(t.Cloud.DeclRange, "Both a backend and a cloud configuration are present", "A module may declare either one 'cloud' block or one 'backend' block configuring a state backend. A backend was already configured at %s.", mt.Backend.DeclRange)
		default:
			mt.Cloud = t.Cloud
		}
	}
	if t.Encryption != nil {
		if mt.Encryption != nil {
			d.errorf(t.Encryption.DeclRange, "Duplicate encryption configuration", "A module may have only one encryption configuration. Encryption was previously configured at %s.", mt.Encryption.DeclRange)
		} else {
			mt.Encryption = t.Encryption
		}
	}
	for name, pm := range t.ProviderMetas {
		if prev, dup := mt.ProviderMetas[name]; dup {
			d.errorf(pm.DeclRange, "Duplicate provider_meta block", "A provider_meta block for provider %q was already declared at %s. Providers may only have one provider_meta block per module.", name, prev.DeclRange)
			continue
		}
		if mt.ProviderMetas == nil {
			mt.ProviderMetas = map[string]*OpaqueBlock{}
		}
		mt.ProviderMetas[name] = pm
	}
}

// checkModule runs the checks that need the whole module: the static values
// of module sources and versions, and references between declarations that
// the loader can decide.
func (l *loader) checkModule() {
	d := &decoder{opts: &l.opts}
	se := newStaticEvaluator(l.mod)
	for _, mc := range InOrder(l.mod.ModuleCalls) {
		se.decodeModuleCall(d, mc)
	}
	l.report(d.diags...)
}
