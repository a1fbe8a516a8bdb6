// Package testroot finds the repository root for tests that read the
// checkout's scenarios, goldens and cassettes.
package testroot

import (
	"os"
	"testing"

	"github.com/airwire/airwire/internal/deps"
)

// Root is the directory holding go.mod, at or above the test's working
// directory; the test fails when there is none.
func Root(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := deps.ModuleRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	return root
}
