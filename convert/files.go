package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/token"
	cueyaml "cuelang.org/go/encoding/yaml"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
)

// The files of a module's directory that a conversion embeds at most
// (see moduleFiles): beyond them the file functions whose paths are known
// only at plan time are not converted.
const (
	maxEmbedFiles = 2000
	maxEmbedBytes = 32 << 20
)

// A file function whose path is known only when the module is planned
// (a path built from an input, a for_each key, a fileset result) reads the
// module's files as the converted module embeds them: the root module's
// directory, whose files are fixed when it is converted, is copied beside
// the CUE and declared in cueform.FilesFile,
//
//	@extern(embed)
//
//	package m
//
//	_files: {
//		"data/a.yaml": _ @embed(file="data/a.yaml", type=text)
//	}
//
// and file(p) is _files[path.Clean(p, path.Unix)]: the paths are relative
// to the directory OpenTofu runs in, the root module's. A file not there
// is an error when the module is evaluated, as in OpenTofu.

// fileRef is table[path.Clean(p)], the file at path p among the module's
// files (cueform.Files or cueform.YAMLFiles), and notes the use.
func (c *converter) fileRef(table string, p ast.Expr, rng hcl.Range) ast.Expr {
	return &ast.IndexExpr{X: c.fileTable(table, rng), Index: c.std("path", "Clean", p, selector(ident("path"), "Unix"))}
}

// fileTable is the table of the module's files (cueform.Files or
// cueform.YAMLFiles), used by the call at rng.
func (c *converter) fileTable(table string, rng hcl.Range) ast.Expr {
	if c.fileUse == nil {
		r := rng
		c.fileUse = &r
	}
	return ident(table)
}

// outsideRoot says why the files of the path e, known only when the
// module is planned, are not among those the converted module embeds: e
// is built from path.module of a module outside the root module's
// directory ("" when it is not).
func (c *converter) outsideRoot(e hcl.Expression) string {
	if c.child != ".." && !strings.HasPrefix(c.child, "../") {
		return ""
	}
	if !c.a.refersTo(e, isPathModule, nil) {
		return ""
	}
	return fmt.Sprintf("The path is built from path.module and known only when the module is planned; the converted module embeds the files of the root module's directory, and this module's directory, %s, is outside it.", c.child)
}

// isPathModule tells the traversal path.module.
func isPathModule(t hcl.Traversal) bool {
	if t.RootName() != "path" || len(t) < 2 {
		return false
	}
	a, ok := t[1].(hcl.TraverseAttr)
	return ok && a.Name == "module"
}

// fileFold is arityFold for a function that reads a file: where OpenTofu
// fails because the constant path names no file, the call is missingFile's
// error where it is evaluated rather than a report.
func (cl *call) fileFold(lo, hi int) (x ast.Expr, done bool) {
	if !cl.arity(lo, hi) {
		return cl.fail(arityDetail(cl.name, lo, hi)), true
	}
	x, _, err, ok := cl.fold()
	switch {
	case ok:
		return x, true
	case err == "":
		return nil, false
	}
	if x, ok := cl.missingFile(); ok {
		return x, true
	}
	return cl.fail("OpenTofu reports an error for this call: " + err), true
}

// missingFile is the call cl of a file function whose constant path,
// inside the module's directory, names no file: OpenTofu fails where it
// evaluates the call, and so does the CUE, with OpenTofu's message; a
// warning says so. ok is false for any other call.
func (cl *call) missingFile() (x ast.Expr, ok bool) {
	if len(cl.src) == 0 {
		return nil, false
	}
	rel, _, ok := cl.c.constPath(cl.src[0])
	if !ok || filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
		return nil, false
	}
	if _, err := os.Stat(filepath.Join(cl.c.m.Dir, rel)); !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	msg := fmt.Sprintf("Call to function %q failed: no file exists at %q.", cl.name, filepath.ToSlash(rel))
	cl.c.diags = append(cl.c.diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "File function of a missing file",
		Detail:   msg + " OpenTofu fails where it evaluates this call, and so does the CUE form.",
		Subject:  cl.rng.Ptr(),
	})
	return ast.NewCall(ident("error"), stringLit(msg)), true
}

// fileTableRef tells whether x is file(p) converted by fileFunc, a
// fileRef into table Files (with the unknown guard of a string function
// after it, and & string), and gives its index.
func fileTableRef(x ast.Expr) (ast.Expr, bool) {
	if b, ok := x.(*ast.BinaryExpr); ok && b.Op == token.OR {
		x = b.X
	}
	if b, ok := x.(*ast.BinaryExpr); ok && b.Op == token.AND {
		x = b.X
	}
	ix, ok := x.(*ast.IndexExpr)
	if !ok {
		return nil, false
	}
	if id, ok := ix.X.(*ast.Ident); !ok || id.Name != cueform.Files {
		return nil, false
	}
	return ix.Index, true
}

// moduleFile is a regular file of the root module's directory, embedded.
type moduleFile struct {
	path string // slash-separated, relative to the directory
	data []byte
	// yaml is what yamldecode makes of a YAML or JSON file when CUE's
	// decoder makes something else (nil: the same, or not decoded).
	yaml ast.Expr
	// yamlOK is set when the file is a YAML or JSON file that OpenTofu's
	// yamldecode reads.
	yamlOK bool
}

// moduleFiles reads the regular files under dir, which the converted
// module embeds: all of them but OpenTofu's own (configuration, variable
// definitions, tests, state), OpenTofu's and git's working directories,
// CUE files and CUE modules (an earlier conversion's output among them),
// and the manifest of one, and the directories other reports (another
// module's, whose conversion is written where these files would be).
// Symbolic links are not followed.
func moduleFiles(dir string, other func(rel string) bool) ([]moduleFile, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fsys := root.FS()
	var out []moduleFile
	total := 0
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (name == ".git" || name == ".terraform" || name == "cue.mod") {
				return fs.SkipDir
			}
			if p != "." {
				if _, err := fs.Stat(fsys, path.Join(p, "cue.mod")); err == nil {
					return fs.SkipDir
				}
				if other != nil && other(p) {
					return fs.SkipDir
				}
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasSuffix(name, ".cue") || name == ManifestName || isConfigName(name) {
			return nil
		}
		if len(out) == maxEmbedFiles {
			return fmt.Errorf("it holds more than %d files", maxEmbedFiles)
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if total += len(b); total > maxEmbedBytes {
			return fmt.Errorf("its files are larger than %d MiB in all", maxEmbedBytes>>20)
		}
		out = append(out, moduleFile{path: p, data: b})
		return nil
	})
	return out, err
}

// moduleFiles is moduleFiles of the root module's directory, read once
// for the family. A directory below it that holds OpenTofu configuration
// but is no module of the tree (an example beside the module, which
// calls it) is left out: converting a repository's modules writes that
// module's conversion there.
func (f *family) moduleFiles() ([]moduleFile, error) {
	if !f.dirRead {
		f.dirFiles, f.dirErr = moduleFiles(f.rootDir, func(rel string) bool {
			dir := filepath.Join(f.rootDir, filepath.FromSlash(rel))
			if f.tree != nil && f.tree.Modules[filepath.Clean(dir)] != nil {
				return false
			}
			return holdsConfig(dir)
		})
		f.dirRead = true
	}
	return f.dirFiles, f.dirErr
}

// holdsConfig is whether dir holds an OpenTofu configuration file.
func holdsConfig(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Type().IsRegular() && config.IsConfigFile(e.Name()) {
			return true
		}
	}
	return false
}

// isConfigName tells OpenTofu's own files, which are not embedded.
func isConfigName(name string) bool {
	for _, ext := range []string{".tf", ".tf.json", ".tofu", ".tofu.json", ".tfvars", ".tfvars.json", ".tftest.hcl", ".tofutest.hcl", ".tfstate"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// isYAMLName tells the files that yamldecode(file(p)) finds in
// cueform.YAMLFiles: YAML and JSON files by their names.
func isYAMLName(p string) bool {
	switch path.Ext(p) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// decodeYAML works out, for each YAML or JSON file, whether CUE's decoder
// (which @embed uses) reads it as OpenTofu's yamldecode does; where it
// does not, the file's entry is what yamldecode makes of it, as a CUE
// literal. A file yamldecode refuses has no entry.
func (c *converter) decodeYAML(files []moduleFile) {
	envs, ok := c.constEnvs()
	if !ok {
		return
	}
	decode := envs[0].funcs["yamldecode"]
	ctx := cuecontext.New()
	for i := range files {
		f := &files[i]
		if !isYAMLName(f.path) || !utf8.Valid(f.data) {
			continue
		}
		v, err := decode.Call([]cty.Value{cty.StringVal(string(f.data))})
		if err != nil || !v.IsWhollyKnown() {
			continue
		}
		want, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			continue
		}
		f.yamlOK = true
		same := false
		if expr, err := cueyaml.Extract(f.path, f.data); err == nil {
			if got, err := ctx.BuildFile(expr).MarshalJSON(); err == nil {
				same = sameDecoding(got, want)
			}
		}
		if !same {
			f.yaml, _ = c.literal(v, hcl.Range{Filename: f.path})
		}
	}
}

// sameDecoding tells whether two JSON texts hold the same value, numbers
// written the same.
func sameDecoding(a, b []byte) bool {
	x, errX := decodeJSON(a)
	y, errY := decodeJSON(b)
	return errX == nil && errY == nil && reflect.DeepEqual(x, y)
}

// decodeJSON decodes a JSON text, its numbers as written (json.Number).
func decodeJSON(b []byte) (any, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	err := d.Decode(&v)
	return v, err
}

// embedFiles declares the root module's files in cueform.FilesFile, with
// the tables the converted files use, and adds them to res to be written
// beside it. A directory too large to embed is reported at the first use.
func (c *converter) embedFiles(res *Result, use hcl.Range) {
	text, yaml := usesIdent(res.Files, cueform.Files), usesIdent(res.Files, cueform.YAMLFiles)
	table, tableImports := c.fam.templateTable()
	if !usesIdent(res.Files, cueform.Templates) {
		table = nil
	}
	if !text && !yaml && table == nil {
		return
	}
	files, err := c.fam.moduleFiles()
	if err != nil {
		c.unconverted(use, "Module files not embedded",
			fmt.Sprintf("This file function's path is known only when the module is planned, so the converted module embeds the files of %s; they could not be embedded: %v.", c.m.Dir, err))
		files = nil
	}
	if yaml {
		c.decodeYAML(files)
	}
	c.imports = map[string]bool{}
	var decls []ast.Decl
	embed := func(p, typ string) ast.Decl {
		f := field(stringLit(p), ident("_"))
		f.Attrs = []*ast.Attribute{cueform.Attr("embed", cueform.Arg("file", p), "type="+typ)}
		return f
	}
	if text {
		s := &ast.StructLit{}
		for _, f := range files {
			typ := "text"
			if !utf8.Valid(f.data) {
				typ = "binary"
			}
			s.Elts = append(s.Elts, embed(f.path, typ))
		}
		d := field(ident(cueform.Files), s)
		docComment(d, []string{
			"The files of the module's directory, for the file functions whose paths",
			"are known only when it is planned: by path relative to the directory",
			"OpenTofu runs in, as text (bytes when not UTF-8), read when evaluated.",
		})
		decls = append(decls, d)
	}
	if yaml {
		s := &ast.StructLit{}
		for _, f := range files {
			switch {
			case !f.yamlOK:
			case f.yaml != nil:
				s.Elts = append(s.Elts, field(stringLit(f.path), f.yaml))
			default:
				s.Elts = append(s.Elts, embed(f.path, "yaml"))
			}
		}
		d := field(ident(cueform.YAMLFiles), s)
		docComment(d, []string{
			"The YAML and JSON files among them as yamldecode reads them: embedded",
			"where CUE decodes them the same, else what yamldecode made of them.",
		})
		decls = append(decls, d)
	}
	if table != nil {
		decls = append(decls, table)
		for n := range tableImports {
			c.imports[n] = true
		}
	}
	blankBeforeComments(decls)
	src := c.format(decls)
	if text || yaml {
		src = append([]byte("@extern(embed)\n\n"), src...)
		res.embeds = map[string][]byte{}
		for _, f := range files {
			res.embeds[f.path] = f.data
		}
	}
	res.Files = append(res.Files, File{Name: cueform.FilesFile, Source: src})
}

// usesIdent tells whether any of files names the identifier name (not
// as part of a longer one).
func usesIdent(files []File, name string) bool {
	for _, f := range files {
		src := f.Source
		for i := bytes.Index(src, []byte(name)); i >= 0; {
			end := i + len(name)
			if (i == 0 || !isIdentByte(src[i-1])) && (end == len(src) || !isIdentByte(src[end])) {
				return true
			}
			j := bytes.Index(src[end:], []byte(name))
			if j < 0 {
				break
			}
			i = end + j
		}
	}
	return false
}
