package version

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
)

func TestResolve(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name    string
		stamped string
		info    *debug.BuildInfo
		want    string
	}{
		{"ldflags stamp wins over the module version", "v1.4.0", &debug.BuildInfo{Main: debug.Module{Version: "v1.3.0"}}, "v1.4.0"},
		{"ldflags stamp without build info", "v1.4.0-3-gabc", nil, "v1.4.0-3-gabc"},
		{"go install @version", Dev, &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"empty stamp reads build info", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"checkout build: toolchain pseudo-version", Dev,
			&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20260101120000-0123456789ab+dirty"}, Settings: vcs(rev, "true")},
			"v0.0.0-20260101120000-0123456789ab+dirty"},
		{"devel with a clean checkout", Dev, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")}, "dev-0123456789ab"},
		{"devel with a modified checkout", Dev, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, "dev-0123456789ab-dirty"},
		{"short revision kept whole", Dev, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("abc", "false")}, "dev-abc"},
		{"devel without vcs", Dev, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, Dev},
		{"test binary: no main module version", Dev, &debug.BuildInfo{}, Dev},
		{"no build info", Dev, nil, Dev},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Resolve(tt.stamped, tt.info); got != tt.want {
				t.Errorf("Resolve(%q, …) = %q, want %q", tt.stamped, got, tt.want)
			}
		})
	}
}

func TestRunVersion(t *testing.T) {
	var out bytes.Buffer
	f := factory.New("v9.8.7", factory.WithIO(strings.NewReader(""), &out, &bytes.Buffer{}))
	cmd := NewCmdVersion(f, nil)
	cmd.SetArgs([]string{}) // not nil: cobra would read os.Args
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := "airwire v9.8.7 (" + runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}
