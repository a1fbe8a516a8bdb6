// Package version implements `airwire version` and `airwire --version`, and
// decides which version string a build reports (Resolve).
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/factory"
)

// Dev is the version of a build that carries no version at all: no
// -ldflags stamp, no module version and no VCS information.
const Dev = "dev"

// VersionOptions are the inputs of `airwire version`.
type VersionOptions struct {
	IO      factory.IOStreams
	Version string
}

// NewCmdVersion builds `airwire version`. runF replaces the behaviour in tests.
func NewCmdVersion(f *factory.Factory, runF func(*VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{IO: f.IO, Version: f.Version}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the airwire version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runVersion(opts)
		},
	}
}

func runVersion(opts *VersionOptions) error {
	_, err := fmt.Fprint(opts.IO.Out, Line(opts.Version))
	return err
}

// Line is what `airwire version` and `airwire --version` print: the
// version, then the Go release and platform the binary was built for, so a
// bug report names all three.
func Line(v string) string {
	return fmt.Sprintf("airwire %s (%s, %s/%s)\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// Current is Resolve applied to the running binary's build information.
func Current(stamped string) string {
	info, _ := debug.ReadBuildInfo()
	return Resolve(stamped, info)
}

// Resolve picks the version a build reports. A release build stamps one
// with -ldflags (make build, make release) and that wins. `go install
// …/cmd/airwire@v1.2.3` stamps nothing, but the toolchain records the
// module version, so that comes next. A `go build` in a checkout records
// the module version the VCS implies (a tag or a pseudo-version); when the
// toolchain could not (it says "(devel)"), the commit and whether the tree
// was modified still tell builds apart. info is nil when the binary has
// no build information.
func Resolve(stamped string, info *debug.BuildInfo) string {
	if stamped != "" && stamped != Dev {
		return stamped
	}
	if info == nil {
		return Dev
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return Dev
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += "-dirty"
	}
	return Dev + "-" + rev
}
