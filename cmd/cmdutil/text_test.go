package cmdutil

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 runs", 1: "1 run", 2: "2 runs"} {
		if got := Plural(n, "run", "runs"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

// A failed check says what failed once: no ": check failed" after it,
// however it is wrapped, and errors.Is still finds ErrMismatch.
func TestMismatchfSaysItOnce(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", Mismatchf("%d of %d runs failed", 1, 2))
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("errors.Is(%v, ErrMismatch) = false", err)
	}
	if strings.Contains(err.Error(), ErrMismatch.Error()) || err.Error() != "wrapped: 1 of 2 runs failed" {
		t.Errorf("err = %q", err)
	}
}
