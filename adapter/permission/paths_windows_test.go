package permission

import "testing"

// On Windows the labels and containment follow Node's win32 path module,
// as the reference's do: backslashes, drive letters, any case.
func TestWindowsPaths(t *testing.T) {
	inside := []struct {
		dir, file string
		want      bool
	}{
		{`C:\Work`, `c:\work\src\main.go`, true},
		{`C:\Work`, `C:\Work`, true},
		{`C:\Work`, `C:\Workshop\a`, false},
		{`C:\Work`, `D:\Work\a`, false},
		{`\\srv\share\proj`, `\\srv\share\proj\a b.txt`, true},
	}
	for _, tt := range inside {
		if got := isInside(tt.dir, tt.file); got != tt.want {
			t.Errorf("isInside(%q, %q) = %v, want %v", tt.dir, tt.file, got, tt.want)
		}
	}
	for p, want := range map[string]string{`C:\Users\a\proj`: "proj", `C:\`: "", `C:/Users/a/`: "a"} {
		if got := nodeBase(p); got != want {
			t.Errorf("nodeBase(%q) = %q, want %q", p, got, want)
		}
	}
	for p, want := range map[string]string{`C:/a//b/`: `C:\a\b\`, `C:\a\..\b`: `C:\b`, `C:\`: `C:\`} {
		if got := nodeNormalize(p); got != want {
			t.Errorf("nodeNormalize(%q) = %q, want %q", p, got, want)
		}
	}
	for p, want := range map[string]string{`src\a.go`: `C:\Work\src\a.go`, `/.claude/skills/x`: `C:\.claude\skills\x`, `D:\a`: `D:\a`} {
		if got := resolve(`C:\Work`, p); got != want {
			t.Errorf("resolve(%q) = %q, want %q", p, got, want)
		}
	}
}
