package uuid

import (
	"regexp"
	"testing"
)

var v4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestNewIsARandomVersion4UUID(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		u := New()
		if !v4.MatchString(u) || seen[u] {
			t.Fatalf("New() = %q (seen before: %v)", u, seen[u])
		}
		seen[u] = true
	}
}
