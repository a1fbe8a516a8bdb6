package projectdir

import (
	"runtime"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	tests := []struct{ cwd, want string }{
		{"/scratch/cli/work", "-scratch-cli-work"},
		{"/tmp/a b/ü.x", "-tmp-a-b---x"},
		// One unit per character of the BMP, two past it, as JavaScript
		// counts: the reference's /[^a-zA-Z0-9]/g replaces code units.
		{"/x/😀", "-x---"},
		{"/漢字", "---"},
	}
	if runtime.GOOS != "darwin" {
		// Not normalized off macOS: u and a combining diaeresis.
		tests = append(tests, struct{ cwd, want string }{"/u\u0308", "-u-"})
	}
	for _, tt := range tests {
		if got := Name(tt.cwd); got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.cwd, got, tt.want)
		}
	}
}

func TestLongNamesAreCutAndHashed(t *testing.T) {
	long := "/" + strings.Repeat("d", 250)
	got := Name(long)
	// The suffix node gives: Math.abs(hashCode(long)).toString(36), with
	// the reference's hashCode.
	if want := "-" + strings.Repeat("d", 199) + "-bagbv5"; got != want {
		t.Errorf("Name(long) = %q, want %q", got, want)
	}
	// A character outside the BMP counts two units toward the cut.
	astral := "/" + strings.Repeat("😀", 120)
	if got := Name(astral); !strings.HasPrefix(got, strings.Repeat("-", 200)+"-") || strings.Count(got[:201], "-") != 201 {
		t.Errorf("Name(astral) = %q", got)
	}
}

// javaHash agrees with the reference's hashCode (values from node).
func TestJavaHash(t *testing.T) {
	for s, want := range map[string]int32{"": 0, "a": 97, "hello": 99162322, "😀": 1772899} {
		if got := javaHash(s); got != want {
			t.Errorf("javaHash(%q) = %d, want %d", s, got, want)
		}
	}
}
