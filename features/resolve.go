package features

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Keyword is a bare keyword as the configuration writes it.
type Keyword struct {
	Name  string
	Range hcl.Range
}

// Block is a top-level block of a feature's type.
type Block struct {
	Type, Name string
	// Range is the block's declaration range (its type and labels).
	Range hcl.Range
}

// Declarations is what a module says that decides its features.
type Declarations struct {
	// LanguageVersion is the OpenTofu version whose language the module is
	// read as, for the edition messages.
	LanguageVersion string
	// Experiments are the keywords of terraform { experiments = [...] } and
	// language { experiments = [...] }, in source order.
	Experiments []Keyword
	// Edition is the keyword of language { edition = ... }; nil when the
	// module does not name one. A Name of "" means the argument was not a
	// bare keyword.
	Edition *Keyword
	// Blocks are the module's top-level blocks of feature types, in source
	// order.
	Blocks []Block
}

// ReasonKind is how a feature came to be enabled.
type ReasonKind int

const (
	// ByExperiment means that the module names the feature in an experiments list.
	ByExperiment ReasonKind = iota + 1
	// ByBlock means that the module declares a block of the feature's type.
	ByBlock
	// ByEdition means that the module's language edition includes the feature.
	ByEdition
)

// Reason is one reason that a feature is enabled.
type Reason struct {
	Kind ReasonKind
	// Range is where the reason is written: the experiment keyword, the
	// block's declaration or the edition keyword. It is empty for the
	// default edition, which the module does not write.
	Range hcl.Range
	// Block and Name identify the block, for ByBlock.
	Block, Name string
	// Edition names the edition, for ByEdition.
	Edition string
}

func (r Reason) String() string {
	switch r.Kind {
	case ByExperiment:
		return "named in experiments at " + shortPos(r.Range)
	case ByBlock:
		return fmt.Sprintf("%s block %q at %s", r.Block, r.Name, shortPos(r.Range))
	case ByEdition:
		if r.Range.Filename == "" {
			return "default edition " + r.Edition
		}
		return fmt.Sprintf("edition %s at %s", r.Edition, shortPos(r.Range))
	}
	return "unknown reason"
}

func shortPos(rng hcl.Range) string {
	return fmt.Sprintf("%s:%d", filepath.Base(rng.Filename), rng.Start.Line)
}

// Activation is an enabled feature with the reasons it is enabled.
type Activation struct {
	Feature Feature
	Reasons []Reason
}

// Set is the features a module has enabled.
type Set struct {
	active []Activation // in registry order
}

// Enabled reports whether the set holds the feature (by name).
func (s Set) Enabled(f Feature) bool {
	_, ok := s.Lookup(f.Name)
	return ok
}

// Lookup returns the activation of the named feature.
func (s Set) Lookup(name string) (Activation, bool) {
	i := slices.IndexFunc(s.active, func(a Activation) bool { return a.Feature.Name == name })
	if i < 0 {
		return Activation{}, false
	}
	return s.active[i], true
}

// All lists the enabled features in registry order.
func (s Set) All() []Activation { return slices.Clone(s.active) }

// String lists the enabled features with their reasons, for messages and
// debugging: "symbols (symbols block "x" at main.tf:3)".
func (s Set) String() string {
	if len(s.active) == 0 {
		return "none"
	}
	var parts []string
	for i := range s.active {
		a := &s.active[i]
		var why []string
		for _, r := range a.Reasons {
			why = append(why, r.String())
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", a.Feature.Name, strings.Join(why, "; ")))
	}
	return strings.Join(parts, ", ")
}

// Resolve decides which features a module has enabled, and reports what is
// wrong with its opt-ins: unknown or removed experiment keywords, selectable
// features named as experiments, blocks of experiments that are not enabled,
// and unknown language editions. Every diagnostic carries an OptIn in its
// Extra field.
func (r *Registry) Resolve(d Declarations) (Set, hcl.Diagnostics) {
	res := &resolution{reg: r, reasons: map[string][]Reason{}}

	edition := r.resolveEdition(d, res)
	for _, name := range edition.Features {
		rs := Reason{Kind: ByEdition, Edition: edition.Name}
		if d.Edition != nil && d.Edition.Name == edition.Name {
			rs.Range = d.Edition.Range
		}
		res.enable(name, rs)
	}

	named := map[string]bool{}
	for _, kw := range d.Experiments {
		if named[kw.Name] {
			continue
		}
		named[kw.Name] = true
		f, ok := r.Lookup(kw.Name)
		switch {
		case !ok:
			res.problem(hcl.DiagError, kw.Range, OptIn{Kind: UnknownExperiment, Keyword: kw.Name},
				"Unknown experiment keyword", "There is no current experiment with the keyword %q.", kw.Name)
		case f.State == Removed:
			res.problem(hcl.DiagError, kw.Range, OptIn{Kind: RemovedFeature, Keyword: kw.Name},
				"Experiment has concluded", "Experiment %q is no longer available. %s", kw.Name, f.Conclusion)
		case f.State == Experiment:
			res.enable(f.Name, Reason{Kind: ByExperiment, Range: kw.Range})
		}
	}

	for _, b := range d.Blocks {
		f, ok := r.ForBlock(b.Type)
		if !ok {
			continue
		}
		switch f.State {
		case Selectable:
			if !res.hasBlockReason(f.Name) {
				res.enable(f.Name, Reason{Kind: ByBlock, Range: b.Range, Block: b.Type, Name: b.Name})
			}
		case Experiment:
			if !named[f.Name] {
				res.problem(hcl.DiagError, b.Range, OptIn{Kind: ExperimentNotEnabled, Keyword: f.Name},
					"Experiment not enabled",
					"The %s block type belongs to the experimental feature %q, which this module has not opted in to. To use it, name the feature in a terraform block: experiments = [%s].",
					b.Type, f.Name, f.Name)
			}
		}
	}

	// The warnings for selectable features named as experiments come last,
	// once the blocks are known: they say whether the module opted in.
	for _, kw := range d.Experiments {
		if f, ok := r.Lookup(kw.Name); ok && f.State == Selectable && named[kw.Name] {
			named[kw.Name] = false // once per keyword
			res.problem(hcl.DiagWarning, kw.Range, OptIn{Kind: SelectableNamed, Keyword: kw.Name},
				"Feature is not an experiment", "%s", res.selectableDetail(f))
		}
	}

	var set Set
	for _, f := range r.features {
		if reasons, ok := res.reasons[f.Name]; ok {
			set.active = append(set.active, Activation{Feature: f, Reasons: reasons})
		}
	}
	return set, res.diags
}

type resolution struct {
	reg     *Registry
	reasons map[string][]Reason
	diags   hcl.Diagnostics
}

func (res *resolution) enable(name string, r Reason) {
	res.reasons[name] = append(res.reasons[name], r)
}

func (res *resolution) hasBlockReason(name string) bool {
	return slices.ContainsFunc(res.reasons[name], func(r Reason) bool { return r.Kind == ByBlock })
}

func (res *resolution) problem(sev hcl.DiagnosticSeverity, rng hcl.Range, o OptIn, summary, detail string, args ...any) {
	res.diags = append(res.diags, &hcl.Diagnostic{
		Severity: sev,
		Summary:  summary,
		Detail:   fmt.Sprintf(detail, args...),
		Subject:  rng.Ptr(),
		Extra:    o,
	})
}

// selectableDetail explains the implicit opt-in of a selectable feature, and
// whether this module has it.
func (res *resolution) selectableDetail(f Feature) string {
	var b strings.Builder
	if f.Block != "" {
		fmt.Fprintf(&b, "A module opts in to the %q feature by declaring at least one %s block", f.Name, f.Block)
		if f.Symbol != "" {
			fmt.Fprintf(&b, ", which makes %s.NAME refer to the %s block named NAME everywhere in the module", f.Symbol, f.Block)
		}
		b.WriteString("; it cannot be named in experiments. ")
	} else {
		fmt.Fprintf(&b, "The %q feature is enabled by the language editions that include it (%s); it cannot be named in experiments. ", f.Name, strings.Join(res.reg.editionsWith(f.Name), ", "))
	}
	switch why := res.reasons[f.Name]; {
	case len(why) > 0:
		fmt.Fprintf(&b, "This module has opted in (%s), so the keyword can be removed.", why[0])
	case f.Block != "":
		fmt.Fprintf(&b, "This module declares no %s block, so the feature is not enabled.", f.Block)
	default:
		b.WriteString("This module's edition does not include it, so the feature is not enabled.")
	}
	if f.Conclusion != "" {
		b.WriteString(" ")
		b.WriteString(f.Conclusion)
	}
	return b.String()
}

// resolveEdition returns the edition whose features the module gets, and
// reports an edition keyword that this registry does not know, in
// OpenTofu's words. An unusable edition falls back to the default, so that
// the rest of the module is still read.
func (r *Registry) resolveEdition(d Declarations, res *resolution) Edition {
	if d.Edition == nil {
		return r.DefaultEdition()
	}
	kw := d.Edition.Name
	if e, ok := r.Edition(kw); ok {
		return e
	}
	o := OptIn{Kind: UnsupportedEdition, Keyword: kw}
	switch {
	case kw == "":
		o.Kind = InvalidEdition
		def := "which is the default"
		if len(r.editions) > 1 {
			def = "of which " + r.DefaultEdition().Name + " is the default"
		}
		res.problem(hcl.DiagError, d.Edition.Range, o, "Invalid language edition",
			`The "edition" argument expects a bare language edition keyword. OpenTofu %s supports only %s, %s.`,
			d.LanguageVersion, r.supportedEditions(), def)
	case strings.HasPrefix(kw, "TF"):
		res.problem(hcl.DiagError, d.Edition.Range, o, "Unsupported language edition",
			"OpenTofu v%s does not support language edition %q. This module may be intended for use with other software.",
			d.LanguageVersion, kw)
	default:
		rel := "different"
		if kw > r.editions[len(r.editions)-1].Name {
			rel = "newer"
		}
		res.problem(hcl.DiagError, d.Edition.Range, o, "Unsupported language edition",
			"OpenTofu v%s only supports %s. This module requires a %s version of OpenTofu CLI.",
			d.LanguageVersion, r.supportedEditions(), rel)
	}
	return r.DefaultEdition()
}

// supportedEditions words the list of editions: "language edition tofu2024"
// for the one edition OpenTofu has.
func (r *Registry) supportedEditions() string {
	names := make([]string, len(r.editions))
	for i, e := range r.editions {
		names[i] = e.Name
	}
	if len(names) == 1 {
		return "language edition " + names[0]
	}
	return "language editions " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func (r *Registry) editionsWith(feature string) []string {
	var out []string
	for _, e := range r.editions {
		if slices.Contains(e.Features, feature) {
			out = append(out, e.Name)
		}
	}
	return out
}

// ProblemKind classifies the opt-in diagnostics of Resolve.
type ProblemKind int

const (
	// UnknownExperiment reports an experiments list that names a keyword
	// no feature has.
	UnknownExperiment ProblemKind = iota + 1
	// RemovedFeature reports an experiments list that names a removed
	// feature.
	RemovedFeature
	// SelectableNamed reports an experiments list that names a selectable
	// feature.
	SelectableNamed
	// ExperimentNotEnabled reports a block of an experiment's type in a
	// module that has not named the experiment.
	ExperimentNotEnabled
	// InvalidEdition reports an edition argument that is not a bare
	// keyword.
	InvalidEdition
	// UnsupportedEdition reports an edition keyword that names no known
	// edition.
	UnsupportedEdition
)

// OptIn is the Extra of every diagnostic that Resolve returns, so that tools
// can tell opt-in problems from other load diagnostics.
type OptIn struct {
	Kind ProblemKind
	// Keyword is the experiment or edition keyword concerned.
	Keyword string
}

// OptInOf returns the OptIn of a diagnostic that Resolve produced.
func OptInOf(d *hcl.Diagnostic) (OptIn, bool) {
	o, ok := d.Extra.(OptIn)
	return o, ok
}
