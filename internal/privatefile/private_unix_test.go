//go:build unix

package privatefile

import (
	"os"
	"testing"
)

// checkPrivate fails unless path is mode 0600.
func checkPrivate(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
}
