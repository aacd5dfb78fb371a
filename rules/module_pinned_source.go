package rules

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	goversion "github.com/hashicorp/go-version"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// ModulePinnedSource is the rule module_pinned_source.
var ModulePinnedSource = &Rule{
	Name:   "module_pinned_source",
	TFLint: "terraform_module_pinned_source",
	Doc: `Reports a module called from a git or Mercurial repository without a
pinned revision, as TFLint's terraform_module_pinned_source does: without
?ref= (git) or ?rev= (Mercurial) every tofu init may fetch other code, and
a default branch (master, main, default, develop, and those the option
default_branches adds) moves as well. With style = "semver" the revision
must be a version number. Git sources are git::, git@, git://,
github.com/ and bitbucket.org/ addresses; Mercurial ones hg::. The rule is
off by default.

Bad:

    module "consul" {
      source = "git::https://example.com/consul.git?ref=main"
    }

Good:

    module "consul" {
      source = "git::https://example.com/consul.git?ref=v1.2.0"
    }`,
	Severity: Warning,
	Options: []Option{{
		Name:    "style",
		Doc:     `"flexible" (any revision but a default branch) or "semver" (a version number).`,
		Type:    cty.String,
		Default: cty.StringVal("flexible"),
		Validate: func(v cty.Value) error {
			if s := v.AsString(); s != "flexible" && s != "semver" {
				return fmt.Errorf("%q is not a style; want flexible or semver", s)
			}
			return nil
		},
	}, {
		Name:    "default_branches",
		Doc:     "Branches besides master, main, default and develop that a revision must not be.",
		Type:    cty.List(cty.String),
		Default: cty.ListValEmpty(cty.String),
	}},
	Check: func(p *Pass) {
		branches := []string{"master", "main", "default", "develop"}
		for _, b := range p.Option("default_branches").AsValueSlice() {
			branches = append(branches, b.AsString())
		}
		semver := p.Option("style").AsString() == "semver"
		for _, mc := range config.InOrder(p.Module.ModuleCalls) {
			if mc.SourceAddr == nil || mc.Source == nil {
				continue
			}
			raw := mc.SourceAddr.Raw
			key := map[string]string{"git": "ref", "hg": "rev"}[repositoryKind(raw)]
			if key == "" {
				continue
			}
			query := url.Values{}
			if _, q, ok := strings.Cut(raw, "?"); ok {
				query, _ = url.ParseQuery(q)
			}
			name, rev := "ref", query.Get("ref")
			if rev == "" {
				name, rev = "rev", query.Get("rev")
			}
			f := Finding{Range: mc.Source.Range()}
			switch {
			case rev == "":
				f.Message = fmt.Sprintf("Module source %q is not pinned", raw)
				f.Detail = fmt.Sprintf("Add ?%s= with a tag or a commit, so that every tofu init fetches the same code.", key)
			case semver:
				if _, err := goversion.NewVersion(rev); err == nil {
					continue
				}
				f.Message = fmt.Sprintf("Module source %q uses a %s which is not a semantic version string", raw, name)
				f.Detail = "The option style = \"semver\" asks for a version number, such as v1.2.0."
			case slices.Contains(branches, rev):
				f.Message = fmt.Sprintf("Module source %q uses a default branch as %s (%s)", raw, name, rev)
				f.Detail = "A branch moves: pin a tag or a commit instead."
			default:
				continue
			}
			p.Report(f)
		}
	},
}

// repositoryKind is "git" or "hg" for a module source OpenTofu fetches
// from a git or Mercurial repository, "" otherwise.
func repositoryKind(raw string) string {
	switch {
	case strings.HasPrefix(raw, "hg::"):
		return "hg"
	case strings.HasPrefix(raw, "git::"), strings.HasPrefix(raw, "git@"), strings.HasPrefix(raw, "git://"),
		strings.HasPrefix(raw, "github.com/"), strings.HasPrefix(raw, "bitbucket.org/"):
		return "git"
	}
	return ""
}
