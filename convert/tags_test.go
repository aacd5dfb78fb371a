package convert

import (
	"testing"
	"testing/fstest"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/load"
)

// The stock cue tool sets a root module's inputs of primitive types with
// tags (cue export -t NAME=VALUE), and any input with a file of the
// package; an input without a value keeps its default.
func TestInputTags(t *testing.T) {
	r, _ := convertSource(t, map[string]string{"main.tf": `
variable "name" {
  type    = string
  default = "web"
}
variable "size" {
  type = number
}
variable "on" {
  type    = bool
  default = true
}
variable "tags" {
  type    = map(string)
  default = {}
}
variable "with-dash" {
  type    = string
  default = "d"
}
output "all" {
  value = "${var.name}-${var.size}-${var.on}-${length(var.tags)}-${var.with-dash}"
}
`})
	files, err := r.OutputFiles()
	if err != nil {
		t.Fatal(err)
	}
	files["inputs.cue"] = []byte("package m\n\n_var_tags: {a: \"1\", b: \"2\"}\n")
	fsys := fstest.MapFS{}
	for name, b := range files {
		fsys[name] = &fstest.MapFile{Data: b}
	}
	insts := load.Instances([]string{"."}, &load.Config{FS: fsys, Dir: "/", Tags: []string{"size=3", "on=false"}})
	if err := insts[0].Err; err != nil {
		t.Fatal(err)
	}
	v := cuecontext.New().BuildInstance(insts[0])
	got, err := v.LookupPath(cue.ParsePath("output.all")).String()
	if err != nil || got != "web-3-false-2-d" {
		t.Errorf("output.all = %q (%v), want web-3-false-2-d", got, err)
	}
}
