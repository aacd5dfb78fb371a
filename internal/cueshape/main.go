// Command cueshape measures how machine-shaped the CUE that hcl2cue
// convert writes is (issue 34): how many constructs no person writes
// (_|_ tests, 'error' probes, ][0] selections) it holds per 100 lines,
// how many lines of CUE each line of HCL became, and how many tokens a
// module takes. scripts/cue-shape runs it on the corpus and on
// examples/vpc.
//
//	go run ./internal/cueshape [-worst N] [-modules] [-json] [-keep NAMES] OUTDIR SRCDIR
//
// OUTDIR is what hcl2cue convert -o OUTDIR SRCDIR/... (or -o OUTDIR
// SRCDIR, one module) wrote. Every directory of OUTDIR that holds a
// cue.mod directory is a converted module, and every .cue file outside
// cue.mod directories belongs to the nearest module at or above it:
//
//   - its library: the files below the module's tofu/ directory;
//   - the templates of the modules it calls: the files whose first
//     declaration is _module (module_*.cue);
//   - its own files: the rest, what its own HCL files became.
//
// A module's HCL is the configuration files of SRCDIR/PATH, PATH being
// the module's path below OUTDIR, that the loader reads
// (config.ModuleFiles: .tf, .tf.json, .tofu and .tofu.json files, not
// override files nor the .tf files a .tofu file hides), as convert's
// HCL column counts them. Lines are every line, blank and comment lines
// included, as wc -l counts them; Count says what a token is, and Counts
// which constructs count.
//
// It prints the number of modules, the lines of CUE (own files,
// templates, library), the constructs by kind with their number per 100
// lines of the own files and of all the output, the median over the
// modules of own CUE lines / HCL lines, and the -worst N modules (default
// 10) by constructs per 100 own lines, with their lines, constructs and
// tokens. -modules adds the same row for every module. -json prints it
// all, every module included, as JSON. -keep NAMES (comma-separated)
// counts of each own file only the declarations NAMES names (see Keep):
// scripts/cue-shape counts examples/vpc so on the article's declarations.
package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tofucue/tofucue/config"
)

// Module is one converted module's counts.
type Module struct {
	// Path is the module's slash-separated path below OUTDIR ("." for
	// OUTDIR itself).
	Path      string `json:"path"`
	HCLLines  int    `json:"hcl_lines"`
	Own       Counts `json:"own"`
	Templates Counts `json:"templates"`
	Library   Counts `json:"library"`
}

// Per100 is the number of machine constructs of own files per 100 of
// their lines.
func (m *Module) Per100() float64 { return per100(m.Own.Constructs(), m.Own.Lines) }

// Rates are constructs per 100 lines.
type Rates struct {
	Bottom float64 `json:"bottom"`
	Error  float64 `json:"error"`
	Index0 float64 `json:"index0"`
	Total  float64 `json:"total"`
}

func ratesOf(c Counts) Rates {
	return Rates{
		Bottom: per100(c.Bottom, c.Lines),
		Error:  per100(c.Error, c.Lines),
		Index0: per100(c.Index0, c.Lines),
		Total:  per100(c.Constructs(), c.Lines),
	}
}

func per100(n, lines int) float64 {
	if lines == 0 {
		return 0
	}
	return 100 * float64(n) / float64(lines)
}

// Summary is what cueshape prints.
type Summary struct {
	Modules   int    `json:"modules"`
	HCLLines  int    `json:"hcl_lines"`
	Own       Counts `json:"own"`
	Templates Counts `json:"templates"`
	Library   Counts `json:"library"`
	// All is the sum of Own, Templates and Library: all the CUE output.
	All     Counts `json:"all"`
	OwnRate Rates  `json:"own_per_100_lines"`
	AllRate Rates  `json:"all_per_100_lines"`
	// MedianRatio is the median over the modules with HCL lines of own
	// CUE lines / HCL lines.
	MedianRatio float64 `json:"median_cue_hcl_line_ratio"`
	// Worst are the modules with the most constructs per 100 own lines,
	// most first.
	Worst []*Module `json:"worst"`
	// All the modules, by path (in the JSON only, or with -modules).
	List []*Module `json:"all_modules"`
}

func main() {
	worst := flag.Int("worst", 10, "list the `N` modules with the most machine constructs per 100 own lines")
	list := flag.Bool("modules", false, "list every module after the summary")
	asJSON := flag.Bool("json", false, "print the summary as JSON, every module included")
	keepNames := flag.String("keep", "", "count only the declarations `NAMES` (comma-separated: base_cidr_block,aws_vpc.main,vpc_id) of the own files")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: cueshape [-worst N] [-modules] [-json] [-keep NAMES] OUTDIR SRCDIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 || *worst < 0 {
		flag.Usage()
		os.Exit(2)
	}
	var keep map[string]bool
	if *keepNames != "" {
		keep = map[string]bool{}
		for _, n := range strings.Split(*keepNames, ",") {
			keep[strings.TrimSpace(n)] = true
		}
	}
	mods, err := Measure(flag.Arg(0), flag.Arg(1), keep)
	if err == nil && len(mods) == 0 {
		err = fmt.Errorf("%s: no converted module (no cue.mod directory)", flag.Arg(0))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cueshape:", err)
		os.Exit(2)
	}
	s := Summarize(mods, *worst)
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(s)
	} else {
		err = s.write(os.Stdout, *list)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cueshape:", err)
		os.Exit(2)
	}
}

// Measure counts every module that convert wrote into outDir, with its
// HCL in srcDir; the modules come by path. With keep, it counts of the
// own files only the declarations keep names (see Keep).
func Measure(outDir, srcDir string, keep map[string]bool) ([]*Module, error) {
	outDir = filepath.Clean(outDir)
	mods := map[string]*Module{} // by directory
	var cueFiles []string
	err := filepath.WalkDir(outDir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "cue.mod":
			dir := filepath.Dir(path)
			rel, err := filepath.Rel(outDir, dir)
			if err != nil {
				return err
			}
			mods[dir] = &Module{Path: filepath.ToSlash(rel)}
			return filepath.SkipDir
		case d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".cue"):
			cueFiles = append(cueFiles, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	for _, path := range cueFiles {
		dir := filepath.Dir(path)
		var m *Module
		for m = mods[dir]; m == nil; m = mods[dir] {
			if dir == outDir || dir == filepath.Dir(dir) {
				return nil, fmt.Errorf("%s: not in a converted module (no cue.mod directory at or above it)", path)
			}
			dir = filepath.Dir(dir)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		c, template, err := Count(path, src)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return nil, err
		}
		library := strings.HasPrefix(filepath.ToSlash(rel), "tofu/")
		if keep != nil && !library && !template {
			if src, err = Keep(path, src, keep); err != nil {
				return nil, err
			}
			if c, _, err = Count(path, src); err != nil {
				return nil, err
			}
		}
		switch {
		case library:
			m.Library.Add(c)
		case template:
			m.Templates.Add(c)
		default:
			m.Own.Add(c)
		}
	}

	list := make([]*Module, 0, len(mods))
	for _, m := range mods {
		n, err := hclLines(filepath.Join(srcDir, filepath.FromSlash(m.Path)))
		if err != nil {
			return nil, err
		}
		m.HCLLines = n
		list = append(list, m)
	}
	slices.SortFunc(list, func(a, b *Module) int { return strings.Compare(a.Path, b.Path) })
	return list, nil
}

// hclLines is the number of lines of the configuration files of the
// module in dir that the loader reads.
func hclLines(dir string) (int, error) {
	primary, _, diags := config.ModuleFiles(dir)
	if diags.HasErrors() {
		return 0, errors.New(diags.Error())
	}
	n := 0
	for _, path := range primary {
		src, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		n += countLines(src)
	}
	return n, nil
}

// Summarize sums mods (by path) and picks the worst n.
func Summarize(mods []*Module, n int) *Summary {
	s := &Summary{Modules: len(mods), List: mods}
	var ratios []float64
	for _, m := range mods {
		s.HCLLines += m.HCLLines
		s.Own.Add(m.Own)
		s.Templates.Add(m.Templates)
		s.Library.Add(m.Library)
		if m.HCLLines > 0 {
			ratios = append(ratios, float64(m.Own.Lines)/float64(m.HCLLines))
		}
	}
	s.All = s.Own
	s.All.Add(s.Templates)
	s.All.Add(s.Library)
	s.OwnRate, s.AllRate = ratesOf(s.Own), ratesOf(s.All)
	s.MedianRatio = median(ratios)

	byRate := slices.Clone(mods)
	slices.SortStableFunc(byRate, func(a, b *Module) int {
		return cmp.Or(cmp.Compare(b.Per100(), a.Per100()), cmp.Compare(b.Own.Constructs(), a.Own.Constructs()))
	})
	s.Worst = byRate[:min(n, len(byRate))]
	return s
}

// median is the median of xs: the mean of the middle two for an even
// number; 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// write prints s as text; list adds every module.
func (s *Summary) write(w io.Writer, list bool) error {
	fmt.Fprintf(w, "modules: %d\n", s.Modules)
	fmt.Fprintln(w, "lines (every line, as wc -l counts them):")
	for _, r := range []struct {
		name  string
		lines int
	}{
		{"HCL, the modules' own files", s.HCLLines},
		{"CUE, own files", s.Own.Lines},
		{"CUE, templates of called modules", s.Templates.Lines},
		{"CUE, library (tofu/)", s.Library.Lines},
		{"CUE, all", s.All.Lines},
	} {
		fmt.Fprintf(w, "  %-34s %9d\n", r.name, r.lines)
	}
	fmt.Fprintf(w, "median own CUE lines / HCL lines: %.2f\n", s.MedianRatio)
	fmt.Fprintf(w, "tokens of the own files: %d\n", s.Own.Tokens)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-20s %8s %8s %10s %8s %8s %8s\n", "machine constructs", "own", "per 100", "templates", "library", "all", "per 100")
	row := func(name string, f func(Counts) int, own, all float64) {
		fmt.Fprintf(w, "  %-18s %8d %8.2f %10d %8d %8d %8.2f\n", name, f(s.Own), own, f(s.Templates), f(s.Library), f(s.All), all)
	}
	row("_|_", func(c Counts) int { return c.Bottom }, s.OwnRate.Bottom, s.AllRate.Bottom)
	row("'error'", func(c Counts) int { return c.Error }, s.OwnRate.Error, s.AllRate.Error)
	row("][0]", func(c Counts) int { return c.Index0 }, s.OwnRate.Index0, s.AllRate.Index0)
	row("total", Counts.Constructs, s.OwnRate.Total, s.AllRate.Total)
	fmt.Fprintln(w, "(per 100: per 100 lines of the own files; of all the CUE)")
	if len(s.Worst) > 0 {
		fmt.Fprintf(w, "\nworst modules by constructs per 100 own lines (%d):\n", len(s.Worst))
		if err := writeModules(w, s.Worst); err != nil {
			return err
		}
	}
	if list {
		fmt.Fprintln(w, "\nevery module:")
		if err := writeModules(w, s.List); err != nil {
			return err
		}
	}
	return nil
}

// writeModules prints a table of mods: own lines, HCL lines, own tokens
// and constructs.
func writeModules(w io.Writer, mods []*Module) error {
	_, err := fmt.Fprintf(w, "  %7s %7s %7s %8s %6s %7s %6s  %s\n", "PER100", "CUE", "HCL", "TOKENS", "_|_", "'error'", "][0]", "MODULE")
	for _, m := range mods {
		if err != nil {
			break
		}
		_, err = fmt.Fprintf(w, "  %7.1f %7d %7d %8d %6d %7d %6d  %s\n", m.Per100(), m.Own.Lines, m.HCLLines, m.Own.Tokens, m.Own.Bottom, m.Own.Error, m.Own.Index0, m.Path)
	}
	return err
}
