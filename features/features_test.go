package features

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func rng(line int) hcl.Range {
	return hcl.Range{Filename: "dir/main.tf", Start: hcl.Pos{Line: line, Column: 1}, End: hcl.Pos{Line: line, Column: 9}}
}

func kw(name string, line int) Keyword { return Keyword{Name: name, Range: rng(line)} }

// testRegistry has one feature of each state and two editions, the second of
// which packs the selectable feature "widgets".
func testRegistry(t *testing.T) *Registry {
	t.Helper()
	r, err := NewRegistry([]Feature{
		{Name: "widgets", State: Selectable, Block: "widget", Symbol: "widget", Noun: "widget library"},
		{Name: "gadgets", State: Experiment, Block: "gadget", Symbol: "gadget"},
		{Name: "gizmos", State: Removed, Conclusion: "Use widgets instead."},
		{Name: "quiet", State: Selectable},
	}, []Edition{{Name: "tofu2024"}, {Name: "tofu2030", Features: []string{"widgets", "quiet"}}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// outcome is what a resolution gives, in a form tests compare.
type outcome struct {
	enabled []string // "name: reason; reason"
	diags   []string // "severity summary: detail"
}

func resolve(r *Registry, d Declarations) outcome {
	d.LanguageVersion = "1.12.0"
	set, diags := r.Resolve(d)
	var o outcome
	all := set.All()
	for i := range all {
		a := &all[i]
		var why []string
		for _, rs := range a.Reasons {
			why = append(why, rs.String())
		}
		o.enabled = append(o.enabled, a.Feature.Name+": "+strings.Join(why, "; "))
	}
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		if _, ok := OptInOf(d); !ok {
			sev += " (no OptIn extra)"
		}
		o.diags = append(o.diags, sev+" "+d.Summary+": "+d.Detail)
	}
	return o
}

func TestResolveTransitions(t *testing.T) {
	tests := []struct {
		name    string
		decls   Declarations
		enabled []string
		diags   []string // substrings, one per diagnostic, in order
	}{
		{
			name: "nothing declared: only the default edition, which packs nothing",
		},
		{
			name:    "experiment named is enabled",
			decls:   Declarations{Experiments: []Keyword{kw("gadgets", 2)}},
			enabled: []string{"gadgets: named in experiments at main.tf:2"},
		},
		{
			name:    "experiment named with its block: enabled, no diagnostics",
			decls:   Declarations{Experiments: []Keyword{kw("gadgets", 2)}, Blocks: []Block{{Type: "gadget", Name: "a", Range: rng(5)}}},
			enabled: []string{"gadgets: named in experiments at main.tf:2"},
		},
		{
			name:  "experiment block without the keyword: an error, not enabled",
			decls: Declarations{Blocks: []Block{{Type: "gadget", Name: "a", Range: rng(5)}}},
			diags: []string{`error Experiment not enabled: The gadget block type belongs to the experimental feature "gadgets", which this module has not opted in to. To use it, name the feature in a terraform block: experiments = [gadgets].`},
		},
		{
			name:    "selectable by its block; the first block is the reason",
			decls:   Declarations{Blocks: []Block{{Type: "widget", Name: "a", Range: rng(3)}, {Type: "widget", Name: "b", Range: rng(8)}}},
			enabled: []string{`widgets: widget block "a" at main.tf:3`},
		},
		{
			name:  "selectable named without a block: a warning, and still not enabled",
			decls: Declarations{Experiments: []Keyword{kw("widgets", 2)}},
			diags: []string{`warning Feature is not an experiment: A module opts in to the "widgets" feature by declaring at least one widget block, which makes widget.NAME refer to the widget block named NAME everywhere in the module; it cannot be named in experiments. This module declares no widget block, so the feature is not enabled.`},
		},
		{
			name:    "selectable named and opted in by block: the warning says the keyword can go",
			decls:   Declarations{Experiments: []Keyword{kw("widgets", 2)}, Blocks: []Block{{Type: "widget", Name: "a", Range: rng(3)}}},
			enabled: []string{`widgets: widget block "a" at main.tf:3`},
			diags:   []string{`This module has opted in (widget block "a" at main.tf:3), so the keyword can be removed.`},
		},
		{
			name:  "selectable with no block is enabled only by editions",
			decls: Declarations{Experiments: []Keyword{kw("quiet", 2)}},
			diags: []string{`The "quiet" feature is enabled by the language editions that include it (tofu2030); it cannot be named in experiments. This module's edition does not include it, so the feature is not enabled.`},
		},
		{
			name:  "removed: an error with the conclusion, not enabled",
			decls: Declarations{Experiments: []Keyword{kw("gizmos", 2)}},
			diags: []string{`error Experiment has concluded: Experiment "gizmos" is no longer available. Use widgets instead.`},
		},
		{
			name:  "unknown keyword",
			decls: Declarations{Experiments: []Keyword{kw("sprockets", 2)}},
			diags: []string{`error Unknown experiment keyword: There is no current experiment with the keyword "sprockets".`},
		},
		{
			name:    "a keyword named twice is read once",
			decls:   Declarations{Experiments: []Keyword{kw("gadgets", 2), kw("gadgets", 3), kw("sprockets", 4), kw("sprockets", 5)}},
			enabled: []string{"gadgets: named in experiments at main.tf:2"},
			diags:   []string{`"sprockets"`},
		},
		{
			name:    "the edition packs its features",
			decls:   Declarations{Edition: &Keyword{Name: "tofu2030", Range: rng(1)}},
			enabled: []string{"widgets: edition tofu2030 at main.tf:1", "quiet: edition tofu2030 at main.tf:1"},
		},
		{
			name:    "edition and block are both reasons",
			decls:   Declarations{Edition: &Keyword{Name: "tofu2030", Range: rng(1)}, Blocks: []Block{{Type: "widget", Name: "w", Range: rng(4)}}},
			enabled: []string{`widgets: edition tofu2030 at main.tf:1; widget block "w" at main.tf:4`, "quiet: edition tofu2030 at main.tf:1"},
		},
		{
			name:  "a future edition",
			decls: Declarations{Edition: &Keyword{Name: "tofu2099", Range: rng(1)}},
			diags: []string{"error Unsupported language edition: OpenTofu v1.12.0 only supports language editions tofu2024 and tofu2030. This module requires a newer version of OpenTofu CLI."},
		},
		{
			name:  "an unknown older edition",
			decls: Declarations{Edition: &Keyword{Name: "tofu2000", Range: rng(1)}},
			diags: []string{"This module requires a different version of OpenTofu CLI."},
		},
		{
			name:  "the predecessor's edition",
			decls: Declarations{Edition: &Keyword{Name: "TF2021", Range: rng(1)}},
			diags: []string{`error Unsupported language edition: OpenTofu v1.12.0 does not support language edition "TF2021". This module may be intended for use with other software.`},
		},
		{
			name:  "an edition that is not a keyword",
			decls: Declarations{Edition: &Keyword{Name: "", Range: rng(1)}},
			diags: []string{`error Invalid language edition: The "edition" argument expects a bare language edition keyword. OpenTofu 1.12.0 supports only language editions tofu2024 and tofu2030, of which tofu2024 is the default.`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := resolve(testRegistry(t), tt.decls)
			if strings.Join(got.enabled, "\n") != strings.Join(tt.enabled, "\n") {
				t.Errorf("enabled:\n got %q\nwant %q", got.enabled, tt.enabled)
			}
			if len(got.diags) != len(tt.diags) {
				t.Fatalf("diagnostics:\n got %q\nwant %d matching %q", got.diags, len(tt.diags), tt.diags)
			}
			for i, want := range tt.diags {
				if !strings.Contains(got.diags[i], want) {
					t.Errorf("diagnostic %d:\n got %q\nwant it to contain %q", i, got.diags[i], want)
				}
			}
		})
	}
}

// The default registry speaks about OpenTofu's one edition in OpenTofu's
// words.
func TestDefaultEditionWording(t *testing.T) {
	tests := map[string]string{
		"":         `The "edition" argument expects a bare language edition keyword. OpenTofu 1.12.0 supports only language edition tofu2024, which is the default.`,
		"tofu2038": "OpenTofu v1.12.0 only supports language edition tofu2024. This module requires a newer version of OpenTofu CLI.",
		"tofu2023": "OpenTofu v1.12.0 only supports language edition tofu2024. This module requires a different version of OpenTofu CLI.",
	}
	for name, want := range tests {
		got := resolve(Default, Declarations{Edition: &Keyword{Name: name, Range: rng(1)}})
		if len(got.diags) != 1 || !strings.HasSuffix(got.diags[0], ": "+want) {
			t.Errorf("edition %q: got %q, want %q", name, got.diags, want)
		}
	}
	if got := resolve(Default, Declarations{Edition: &Keyword{Name: "tofu2024", Range: rng(1)}}); len(got.diags)+len(got.enabled) != 0 {
		t.Errorf("edition tofu2024: got %+v, want nothing enabled and no diagnostics", got)
	}
}

func TestDefaultRegistry(t *testing.T) {
	for _, tt := range []struct {
		name, block, symbol string
		state               State
	}{
		{"symbols", "symbols", "symbols", Selectable},
		{"middleware", "middleware", "middleware", Selectable},
		{"interface", "interface", "interface", Experiment},
	} {
		f, ok := Default.Lookup(tt.name)
		if !ok || f.State != tt.state || f.Block != tt.block || f.Symbol != tt.symbol {
			t.Errorf("Default.Lookup(%q) = %+v, %v; want state %s, block %q, symbol %q", tt.name, f, ok, tt.state, tt.block, tt.symbol)
		}
		if g, ok := Default.ForSymbol(tt.symbol); !ok || g.Name != tt.name {
			t.Errorf("Default.ForSymbol(%q) = %v, %v", tt.symbol, g.Name, ok)
		}
		if g, ok := Default.ForBlock(tt.block); !ok || g.Name != tt.name {
			t.Errorf("Default.ForBlock(%q) = %v, %v", tt.block, g.Name, ok)
		}
	}
	removed := 0
	for _, f := range Default.Features() {
		if f.State == Removed {
			removed++
		}
	}
	if removed == 0 {
		t.Error("the default registry has no removed feature")
	}
	if _, ok := Default.ForSymbol("var"); ok {
		t.Error(`"var" must not be a feature symbol`)
	}
	if got := Default.DefaultEdition().Name; got != "tofu2024" {
		t.Errorf("default edition %q, want tofu2024", got)
	}
}

func TestNewRegistryRejects(t *testing.T) {
	tests := []struct {
		name     string
		features []Feature
		editions []Edition
		want     string
	}{
		{"duplicate name", []Feature{{Name: "a", State: Experiment}, {Name: "a", State: Experiment}}, nil, `feature "a" is registered twice`},
		{"bad name", []Feature{{Name: "not valid", State: Experiment}}, nil, "valid identifier"},
		{"no state", []Feature{{Name: "a"}}, nil, `feature "a" has no state`},
		{"removed without conclusion", []Feature{{Name: "a", State: Removed}}, nil, "needs a conclusion"},
		{"removed with a symbol", []Feature{{Name: "a", State: Removed, Block: "a", Symbol: "a", Conclusion: "x"}}, nil, "cannot keep a block"},
		{"symbol without block", []Feature{{Name: "a", State: Selectable, Symbol: "a"}}, nil, "no block"},
		{"language symbol", []Feature{{Name: "a", State: Selectable, Block: "a", Symbol: "var"}}, nil, `"var" is a symbol of the language`},
		{"language block", []Feature{{Name: "a", State: Selectable, Block: "resource"}}, nil, `"resource" is a block type of the language`},
		{"shared block", []Feature{{Name: "a", State: Selectable, Block: "x"}, {Name: "b", State: Selectable, Block: "x"}}, nil, `both add block type "x"`},
		{"shared symbol", []Feature{{Name: "a", State: Selectable, Block: "x", Symbol: "s"}, {Name: "b", State: Selectable, Block: "y", Symbol: "s"}}, nil, `both add symbol "s"`},
		{"no edition", nil, []Edition{}, "at least one edition"},
		{"edition of unknown feature", nil, []Edition{{Name: "e", Features: []string{"x"}}}, `unknown feature "x"`},
		{"edition of an experiment", []Feature{{Name: "a", State: Experiment}}, []Edition{{Name: "e", Features: []string{"a"}}}, "selectable features only"},
		{"duplicate edition", nil, []Edition{{Name: "e"}, {Name: "e"}}, `edition "e" is registered twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			editions := tt.editions
			if editions == nil {
				editions = []Edition{{Name: "e"}}
			}
			_, err := NewRegistry(tt.features, editions)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewRegistry: got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestSetString(t *testing.T) {
	r := testRegistry(t)
	set, _ := r.Resolve(Declarations{
		Edition:     &Keyword{Name: "tofu2030", Range: rng(1)},
		Experiments: []Keyword{kw("gadgets", 2)},
	})
	want := "widgets (edition tofu2030 at main.tf:1), gadgets (named in experiments at main.tf:2), quiet (edition tofu2030 at main.tf:1)"
	if got := set.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := (Set{}).String(); got != "none" {
		t.Errorf("empty set: %q", got)
	}
	if a, ok := set.Lookup("gadgets"); !ok || a.Reasons[0].Kind != ByExperiment {
		t.Errorf("Lookup(gadgets) = %+v, %v", a, ok)
	}
	if set.Enabled(Feature{Name: "gizmos"}) {
		t.Error("gizmos enabled")
	}
	defaultReason := Reason{Kind: ByEdition, Edition: "tofu2024"}
	if got := defaultReason.String(); got != "default edition tofu2024" {
		t.Errorf("default edition reason: %q", got)
	}
}
