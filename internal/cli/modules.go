package cli

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tofucue/tofucue/config"
)

// moduleFlags are the flags of every command that loads module trees:
// where calls that are not local find their modules.
type moduleFlags struct {
	mappings  []string
	strict    bool
	calls     string
	allowRead []string
}

func (f *moduleFlags) register(fl *pflag.FlagSet) {
	f.registerMappings(fl)
	fl.BoolVar(&f.strict, "strict-modules", false, "make a module call whose module is not available (not local, installed or mapped) an error, not a warning")
}

// registerMappings registers --module-source and --allow-read alone, for
// tofulint, which reports nothing of a module that is not available.
func (f *moduleFlags) registerMappings(fl *pflag.FlagSet) {
	fl.StringArrayVar(&f.mappings, "module-source", nil, "read the modules of calls with source SOURCE from DIR, as SOURCE=DIR (repeatable); modules tofu init installed are read from .terraform")
	fl.StringArrayVar(&f.allowRead, "allow-read", nil, "let local module sources lead to DIR, outside the root module's repository (the git work tree that holds it, or its directory), which nothing is read outside of otherwise (repeatable)")
}

// registerCalls registers --call-module-type, TFLint's flag, for
// tofulint.
func (f *moduleFlags) registerCalls(fl *pflag.FlagSet) {
	fl.StringVar(&f.calls, "call-module-type", "all", "which module calls' modules are read to check references to their outputs, as TFLint's flag: all (local, installed and mapped), local (local paths and mappings) or none")
}

// sources are the flags' config.Sources; TF_DATA_DIR moves .terraform, as
// for tofu. The directory of each DIR/... among named is allowed to be
// read as --allow-read allows it: the user named it.
func (f *moduleFlags) sources(named ...string) (*config.Sources, error) {
	opts := config.SourceOptions{DataDir: os.Getenv("TF_DATA_DIR"), Strict: f.strict}
	if f.calls != "" {
		calls, err := config.ParseCallModuleType(f.calls)
		if err != nil {
			return nil, err
		}
		opts.Calls = calls
	}
	for _, m := range f.mappings {
		src, dir, err := config.ParseSourceMapping(m)
		if err != nil {
			return nil, err
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("--module-source %s: %s is not a directory", m, dir)
		}
		if opts.Mappings == nil {
			opts.Mappings = map[string]string{}
		}
		if prev, dup := opts.Mappings[src]; dup && prev != dir {
			return nil, fmt.Errorf("--module-source %s: %s is mapped to %s already", m, src, prev)
		}
		opts.Mappings[src] = dir
	}
	allow := slices.Clone(f.allowRead)
	for _, arg := range named {
		if dir, ok := strings.CutSuffix(arg, "/..."); ok {
			allow = append(allow, cmp.Or(dir, "."))
		}
	}
	for _, dir := range allow {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, fmt.Errorf("--allow-read %s: %w", dir, err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("--allow-read %s: not a directory", dir)
		}
		opts.AllowRead = append(opts.AllowRead, abs)
	}
	return config.NewSources(opts), nil
}
