package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/internal/testdir"
)

func TestNormalSource(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// As a call writes it and as OpenTofu records it: the same.
		{"terraform-aws-modules/vpc/aws", "terraform-aws-modules/vpc/aws"},
		{"registry.opentofu.org/terraform-aws-modules/vpc/aws", "terraform-aws-modules/vpc/aws"},
		{"registry.terraform.io/terraform-aws-modules/vpc/aws", "terraform-aws-modules/vpc/aws"},
		{"Example.COM/acme/vpc/aws//modules/x", "example.com/acme/vpc/aws//modules/x"},
		{"terraform-aws-modules/iam/aws//modules/iam-user", "terraform-aws-modules/iam/aws//modules/iam-user"},
		{"github.com/acme/net", "git::https://github.com/acme/net.git"},
		{"github.com/acme/net//modules/a?ref=v1", "git::https://github.com/acme/net.git//modules/a?ref=v1"},
		{"git@github.com:acme/net.git", "git::ssh://git@github.com/acme/net.git"},
		{"git::https://example.com/net.git?ref=v2", "git::https://example.com/net.git?ref=v2"},
		{"./modules/x", "./modules/x"},
	} {
		if got := normalSource(c.in); got != c.want {
			t.Errorf("normalSource(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSplitRemoteSubdir(t *testing.T) {
	for _, c := range []struct{ in, pkg, sub string }{
		{"git::https://example.com/net.git//modules/a?ref=v1", "git::https://example.com/net.git?ref=v1", "modules/a"},
		{"git::https://example.com/net.git?ref=v1", "git::https://example.com/net.git?ref=v1", ""},
		{"https://example.com/net.zip//x", "https://example.com/net.zip", "x"},
	} {
		pkg, sub := splitRemoteSubdir(c.in)
		if pkg != c.pkg || sub != c.sub {
			t.Errorf("splitRemoteSubdir(%q) = %q, %q; want %q, %q", c.in, pkg, sub, c.pkg, c.sub)
		}
	}
}

func TestParseSourceMapping(t *testing.T) {
	if src, dir, err := ParseSourceMapping("terraform-aws-modules/vpc/aws=../vpc"); err != nil || src != "terraform-aws-modules/vpc/aws" || dir != "../vpc" {
		t.Errorf("got %q %q %v", src, dir, err)
	}
	// A git address with a query keeps its = signs: the first = splits.
	for _, bad := range []string{"x", "=dir", "a/b/c=", "./local=dir", "not a source=dir"} {
		if _, _, err := ParseSourceMapping(bad); err == nil {
			t.Errorf("ParseSourceMapping(%q): no error", bad)
		}
	}
}

const installedManifest = `{"Modules":[
 {"Key":"","Source":"","Dir":"."},
 {"Key":"vpc","Source":"registry.opentofu.org/acme/vpc/aws","Version":"1.4.0","Dir":".terraform/modules/vpc"},
 {"Key":"vpc.label","Source":"git::https://github.com/acme/label.git?ref=v1","Dir":".terraform/modules/vpc.label"}
]}`

func TestSourcesFind(t *testing.T) {
	dir := testdir.Write(t, map[string]string{
		"main.tf": `
module "vpc" {
  source  = "acme/vpc/aws"
  version = "~> 1.2"
}
module "other" {
  source = "acme/other/aws"
}
module "local" {
  source = "./modules/local"
}
`,
		"modules/local/main.tf":               ``,
		".terraform/modules/modules.json":     installedManifest,
		".terraform/modules/vpc/main.tf":      `module "label" { source = "github.com/acme/label?ref=v1" }`,
		".terraform/modules/vpc.label/out.tf": `output "id" { value = "x" }`,
		"vendor/other/main.tf":                `output "x" { value = 1 }`,
	})
	tree, diags := LoadTree(dir, NewSources(SourceOptions{Mappings: map[string]string{"acme/other/aws": filepath.Join(dir, "vendor", "other")}}))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	root := tree.Root
	check := func(mc *ModuleCall, kind SourceKind, rel, key string) {
		t.Helper()
		c := tree.Child(mc)
		if c == nil || c.Kind != kind || c.Key != key {
			t.Fatalf("%s: got %+v, want %v with key %q", mc.Name, c, kind, key)
		}
		if want := filepath.Join(dir, rel); c.Dir != want || c.Module == nil {
			t.Errorf("%s: dir %q, module %v; want %q", mc.Name, c.Dir, c.Module != nil, want)
		}
	}
	check(root.ModuleCalls["vpc"], FoundInstalled, ".terraform/modules/vpc", "vpc")
	check(root.ModuleCalls["other"], FoundMapped, "vendor/other", "other")
	check(root.ModuleCalls["local"], FoundLocal, "modules/local", "local")
	vpc := tree.Child(root.ModuleCalls["vpc"]).Module
	// The shorthand in the call and the manifest's expanded form match.
	check(vpc.ModuleCalls["label"], FoundInstalled, ".terraform/modules/vpc.label", "vpc.label")
	if len(tree.Modules) != 5 || len(tree.Unavailable()) != 0 {
		t.Errorf("%d modules, unavailable %v", len(tree.Modules), tree.Unavailable())
	}
}

func TestSourcesNotAvailable(t *testing.T) {
	for _, c := range []struct {
		name     string
		call     string
		manifest string
		summary  string
		detail   string
	}{
		{"no manifest", `source = "acme/vpc/aws"`, "", "Module not installed", `module.vpc has the registry source "acme/vpc/aws", which is not installed`},
		{"no record", `source = "acme/vpc/aws"`, `{"Modules":[]}`, "Module not installed", "--module-source acme/vpc/aws=DIR"},
		{"version", "source = \"acme/vpc/aws\"\n version = \">= 2.0\"", installedManifest, "Installed module out of date", "asks for version >= 2.0, but version 1.4.0 is installed"},
		{"source", `source = "acme/vpc/google"`, installedManifest, "Installed module out of date", `was installed from "registry.opentofu.org/acme/vpc/aws", but its source is now "acme/vpc/google"`},
		{"directory", `source = "acme/vpc/aws"`, installedManifest, "Installed module missing", "was installed in .terraform/modules/vpc, which is no longer there"},
		{"bad manifest", `source = "acme/vpc/aws"`, `{"Modules": [`, "Module manifest not readable", "modules.json: unexpected EOF"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"main.tf": "module \"vpc\" {\n " + c.call + "\n}\n"}
			if c.manifest != "" {
				files[".terraform/modules/modules.json"] = c.manifest
			}
			dir := testdir.Write(t, files)
			for _, strict := range []bool{false, true} {
				tree, diags := LoadTree(dir, NewSources(SourceOptions{Strict: strict}))
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				ch := tree.Child(tree.Root.ModuleCalls["vpc"])
				d := ch.Diagnostic
				if ch.Kind != NotAvailable || d == nil || ch.Module != nil {
					t.Fatalf("got %+v", ch)
				}
				want := hcl.DiagWarning
				if strict {
					want = hcl.DiagError
				}
				if d.Severity != want || d.Summary != c.summary || !strings.Contains(d.Detail, c.detail) || d.Subject == nil || d.Subject.Start.Line != 2 {
					t.Errorf("strict=%v: got %v %q %q at %v", strict, d.Severity, d.Summary, d.Detail, d.Subject)
				}
			}
		})
	}
}

func TestSourcesDataDir(t *testing.T) {
	dir := testdir.Write(t, map[string]string{
		"main.tf":                          `module "vpc" { source = "acme/vpc/aws" }`,
		"data/modules/modules.json":        `{"Modules":[{"Key":"vpc","Source":"registry.opentofu.org/acme/vpc/aws","Dir":"data/modules/vpc"}]}`,
		"data/modules/vpc/main.tf":         ``,
		".terraform/modules/modules.json":  `{"Modules":[]}`,
		".terraform/modules/vpc/main.tf":   ``,
		".terraform/modules/vpc/unused.tf": ``,
	})
	tree, _ := LoadTree(dir, NewSources(SourceOptions{DataDir: "data"}))
	if c := tree.Child(tree.Root.ModuleCalls["vpc"]); c.Kind != FoundInstalled || c.Dir != filepath.Join(dir, "data", "modules", "vpc") {
		t.Errorf("got %+v", c)
	}
}
