package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/config"
)

// inspectionsOf loads a module made of one file and returns, per any-typed
// variable, the places that the classifier found, as "TEXT@LINE".
func inspectionsOf(t *testing.T, src string) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	vars := anyTypedVariables(m)
	c := newAnyClassifier(m, vars)
	c.module(nil)
	out := map[string][]string{}
	for name, av := range vars {
		for _, pl := range av.places {
			out[name] = append(out[name], fmt.Sprintf("%s@%d", pl.text, pl.rng.Start.Line))
		}
		slices.Sort(out[name])
	}
	return out
}

func TestAnyClassifier(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want map[string][]string
	}{
		{
			name: "passing on is not inspecting",
			src: `variable "x" { type = any }
locals {
  a = jsonencode(var.x)
  b = "${var.x}"
  c = try(var.x, {})
  d = var.x != null
  e = null == var.x
  f = lookup(local.m, "k", var.x)
  g = [var.x, { v = var.x }]
  h = tostring(var.x)
  i = coalesce(var.x, "d")
}`,
			want: map[string][]string{},
		},
		{
			name: "inspections propagate through try, conditionals and parentheses",
			src: `variable "x" { type = any }
locals {
  a = try(var.x, {}).name
  b = (true ? var.x : {}).name
  c = (var.x)["k"]
  d = var.x == ""
  e = core::length(var.x)
  f = local.m[var.x]
  g = "%{ if var.x }yes%{ endif }"
  h = lookup(local.m, "k", var.x).name
}`,
			want: map[string][]string{"x": {
				`(true ? var.x : {}).name@4`, `(var.x)["k"]@5`, `core::length(var.x)@7`, `local.m[var.x]@8`,
				`lookup(local.m, "k", var.x).name@10`, `try(var.x, {}).name@3`, `var.x (as a condition)@9`, `var.x == ""@6`,
			}},
		},
		{
			name: "a for variable shadows, and an inspected chain is named once",
			src: `variable "m" { type = map(any) }
locals {
  a = [for x in var.m : [for x in local.other : x.name]]
  b = [for v in var.m : [for w in v.items : w.name]]
  c = [for k, v in var.m : k]
  d = [for v in values(var.m) : v.port]
}`,
			want: map[string][]string{"m": {`v.items@4`, `v.port@6`}},
		},
		{
			name: "each and dynamic iterators",
			src: `variable "m" { type = map(any) }
resource "r" "a" {
  for_each = var.m
  name     = each.key
  whole    = each.value
  dynamic "rule" {
    for_each = var.m
    iterator = r
    content {
      port  = r.value.port
      other = rule.value.port
    }
  }
}
resource "r" "b" {
  name = each.value.name
}
module "c" {
  source   = "./c"
  for_each = var.m
  port     = each.value.port
}`,
			want: map[string][]string{"m": {`each.value.port@21`, `r.value.port@10`}},
		},
		{
			name: "a for variable named var or each reads no variable and no for_each",
			src: `variable "x" { type = any }
resource "r" "a" {
  for_each = var.x
  a = [for var in local.l : var.x.name]
  b = [for each in local.l : each.value.name]
  c = [for k, each in var.x : each]
  d = [for k, each in var.x : each.name]
}`,
			want: map[string][]string{"x": {`each.name@7`, `for over var.x@6`, `for over var.x@7`, `for_each = var.x@3`}},
		},
		{
			name: "splats and nested any",
			src: `variable "l" { type = list(any) }
variable "o" { type = object({ name = string, extra = any }) }
locals {
  a = var.l[*]
  b = var.l[*].name
  c = var.o.extra
  d = var.o.extra.b
  e = var.o.name
  f = var.l[0]
  g = var.l[0].id
}`,
			want: map[string][]string{"l": {`var.l[*].name@5`, `var.l[0].id@10`}, "o": {`var.o.extra.b@7`}},
		},
		{
			name: "functions that look at elements of a collection of any",
			src: `variable "l" { type = list(any) }
locals {
  a = length(var.l)
  b = sort(var.l)
  c = contains(var.l, "x")
  d = element(var.l, 0).name
  e = join(",", var.l)
}`,
			want: map[string][]string{"l": {`element(var.l, 0).name@6`, `join(",", var.l)@7`, `sort(var.l)@4`}},
		},
		{
			name: "for_each, count and validation over any",
			src: `variable "x" {
  type = any
  validation {
    condition     = contains(["a"], var.x)
    error_message = "no"
  }
}
resource "r" "a" {
  for_each = var.x
  name     = each.value.name
}
resource "r" "b" {
  count = var.x
}`,
			// The validation checks the variable where the rule wants it
			// checked; for_each is listed beside the element's read.
			want: map[string][]string{"x": {`count = var.x@13`, `each.value.name@10`, `for_each = var.x@9`}},
		},
		{
			name: "tolerant reads are not inspections",
			src: `variable "x" { type = any }
locals {
  a = try(var.x.a, var.x.b, "d")
  b = can(var.x.c)
  c = lookup(var.x, "d", null)
  e = can(var.x.e) ? var.x.e : null
  f = try(var.x.f, null) != null ? var.x.f : null
  g = try(var.x.g, false) && true
  h = length(var.x) > 0
}`,
			want: map[string][]string{},
		},
		{
			name: "what reads on from a tolerant read inspects",
			src: `variable "x" { type = any }
locals {
  a = try(var.x.a, {}).b
  b = try(var.x.l, [])[0]
  c = can(var.x.e) ? var.x.e.f : null
  d = try(var.x.d)
  e = try(var.y, var.x.e)
  f = length(var.x) > 1
}`,
			want: map[string][]string{"x": {`length(var.x)@8`, `try(var.x.a, {}).b@3`, `try(var.x.l, [])[0]@4`, `var.x.d@6`, `var.x.e.f@5`, `var.x.e@7`}},
		},
		{
			name: "iteration whose elements are read tolerantly: the wrapper idiom",
			src: `variable "items" { type = any }
variable "defaults" { type = any }
module "wrapper" {
  source   = "../"
  for_each = var.items
  name     = try(each.value.name, var.defaults.name)
  size     = try(each.value.size, var.defaults.size, 1)
}
locals {
  names = [for k, v in var.items : try(v.name, k)]
}`,
			want: map[string][]string{"items": {`for over var.items@10`, `for_each = var.items@5`}},
		},
		{
			name: "exact types and untyped variables are not tracked",
			src: `variable "t" { type = object({ name = string }) }
variable "u" {}
locals {
  a = var.t.name
  b = var.u.name
}`,
			want: map[string][]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := inspectionsOf(t, tt.src)
			for name := range got {
				if len(got[name]) == 0 {
					delete(got, name)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got\n  %s\nwant\n  %s", formatInspections(got), formatInspections(tt.want))
			}
		})
	}
}

func formatInspections(m map[string][]string) string {
	var lines []string
	for name, places := range m {
		lines = append(lines, name+": "+strings.Join(places, " | "))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n  ")
}
