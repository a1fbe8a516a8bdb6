package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/cmd/version"
)

// TestVersionFlag: `airwire --version` prints the same line as `airwire
// version`, with the factory's version in it.
func TestVersionFlag(t *testing.T) {
	want := version.Line("v1.2.3")
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		var out, errOut bytes.Buffer
		f := factory.New("v1.2.3", factory.WithIO(strings.NewReader(""), &out, &errOut))
		if code := Run(context.Background(), f, args); code != ExitOK {
			t.Fatalf("%v: exit %d, stderr %s", args, code, errOut.String())
		}
		if out.String() != want {
			t.Errorf("%v printed %q, want %q", args, out.String(), want)
		}
	}
}
