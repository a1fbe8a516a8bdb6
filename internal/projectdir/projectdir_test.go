package projectdir

import (
	"runtime"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/pathstyle"
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

// Every platform's paths, named as the CLI names them there.
func TestNameOn(t *testing.T) {
	tests := []struct {
		f         pathstyle.Flavour
		cwd, want string
	}{
		{pathstyle.Windows, `C:\Users\a`, "C--Users-a"},
		{pathstyle.Windows, `c:\Users\a b\proj.v2`, "c--Users-a-b-proj-v2"},
		{pathstyle.Windows, `\\srv\share\proj`, "--srv-share-proj"},
		{pathstyle.Windows, "D:/work/x", "D--work-x"},
		{pathstyle.Darwin, "/Users/a/Cafe\u0301", "-Users-a-Caf-"}, // NFC: é is one unit
		{pathstyle.Posix, "/home/a/Cafe\u0301", "-home-a-Cafe-"},   // not normalized: two
		{pathstyle.Darwin, "/Users/a b/My Project", "-Users-a-b-My-Project"},
	}
	for _, tt := range tests {
		if got := NameOn(tt.f, tt.cwd); got != tt.want {
			t.Errorf("NameOn(%v, %q) = %q, want %q", tt.f, tt.cwd, got, tt.want)
		}
	}
}

// Directory names compare as the reference compares them: in any case on
// Windows, exact names in any case on macOS, and long names by their cut.
func TestMatchesAndIsExact(t *testing.T) {
	long := `C:\` + strings.Repeat("d", 250)
	cut := NameOn(pathstyle.Windows, long)[:maxLength]
	tests := []struct {
		f              pathstyle.Flavour
		dirName, cwd   string
		matches, exact bool
	}{
		{pathstyle.Posix, "-home-a", "/home/a", true, true},
		{pathstyle.Posix, "-home-A", "/home/a", false, false},
		{pathstyle.Darwin, "-Users-A", "/Users/a", false, true},
		{pathstyle.Windows, "c--users-a", `C:\Users\a`, true, true},
		{pathstyle.Windows, "C--Users-ab", `C:\Users\a`, false, false},
		{pathstyle.Windows, strings.ToLower(cut) + "-other", long, true, false},
		{pathstyle.Posix, "-" + strings.Repeat("d", 199) + "-x", "/" + strings.Repeat("d", 250), true, false},
		{pathstyle.Posix, "-" + strings.Repeat("D", 199) + "-x", "/" + strings.Repeat("d", 250), false, false},
		{pathstyle.Posix, "-" + strings.Repeat("d", 199), "/" + strings.Repeat("d", 199), true, true},
	}
	for _, tt := range tests {
		if got := Matches(tt.f, tt.dirName, tt.cwd); got != tt.matches {
			t.Errorf("Matches(%v, %q, %q) = %v, want %v", tt.f, tt.dirName, tt.cwd, got, tt.matches)
		}
		if got := IsExact(tt.f, tt.dirName, tt.cwd); got != tt.exact {
			t.Errorf("IsExact(%v, %q, %q) = %v, want %v", tt.f, tt.dirName, tt.cwd, got, tt.exact)
		}
	}
}
