package cli

import (
	"os"
	"testing"

	"github.com/airwire/airwire/internal/testroot"
)

// TestMain removes the airwire binary the tests built (testroot.Binary).
func TestMain(m *testing.M) {
	os.Exit(testroot.RunTests(m))
}
