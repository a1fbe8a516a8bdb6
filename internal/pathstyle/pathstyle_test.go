package pathstyle

import (
	"slices"
	"testing"
)

func TestFor(t *testing.T) {
	for goos, want := range map[string]Flavour{"linux": Posix, "freebsd": Posix, "darwin": Darwin, "windows": Windows} {
		if got := For(goos); got != want {
			t.Errorf("For(%q) = %v, want %v", goos, got, want)
		}
	}
}

func TestIsAbs(t *testing.T) {
	tests := []struct {
		f    Flavour
		p    string
		want bool
	}{
		{Posix, "/usr/local/bin/claude", true},
		{Posix, "./claude", false},
		{Posix, `C:\claude.exe`, false},
		{Darwin, "/opt/homebrew/bin/claude", true},
		{Darwin, "~/bin/claude", false},
		{Windows, `C:\Users\a b\claude.exe`, true},
		{Windows, `c:/Users/a/claude.exe`, true},
		{Windows, `\\server\share\claude.exe`, true},
		{Windows, `//server/share/claude.exe`, true},
		{Windows, `\claude.exe`, false},  // on the current drive
		{Windows, `C:claude.exe`, false}, // in the drive's current directory
		{Windows, `bin\claude.exe`, false},
		{Windows, `1:\x`, false},
	}
	for _, tt := range tests {
		if got := tt.f.IsAbs(tt.p); got != tt.want {
			t.Errorf("%v.IsAbs(%q) = %v, want %v", tt.f, tt.p, got, tt.want)
		}
	}
}

func TestHasSeparator(t *testing.T) {
	tests := []struct {
		f    Flavour
		p    string
		want bool
	}{
		{Posix, "claude", false},
		{Posix, "bin/claude", true},
		{Posix, `bin\claude`, false}, // a backslash is part of a Unix name
		{Windows, `bin\claude.exe`, true},
		{Windows, "bin/claude.exe", true},
		{Windows, "claude.cmd", false},
		{Windows, "C:claude.exe", true},
	}
	for _, tt := range tests {
		if got := tt.f.HasSeparator(tt.p); got != tt.want {
			t.Errorf("%v.HasSeparator(%q) = %v, want %v", tt.f, tt.p, got, tt.want)
		}
	}
}

func TestJoin(t *testing.T) {
	tests := []struct {
		f    Flavour
		dir  string
		elem []string
		want string
	}{
		{Posix, "/home/a", []string{".local/bin", "claude"}, "/home/a/.local/bin/claude"},
		{Posix, "/", []string{"claude"}, "/claude"},
		{Darwin, "/Users/a b/", []string{"", "claude"}, "/Users/a b/claude"},
		{Windows, `C:\Users\a`, []string{".local/bin", "claude.exe"}, `C:\Users\a\.local\bin\claude.exe`},
		{Windows, `C:\`, []string{"claude.exe"}, `C:\claude.exe`},
		{Windows, `\\srv\share`, []string{"npm", "claude.cmd"}, `\\srv\share\npm\claude.cmd`},
		{Windows, "c:/Users/a", []string{"bin"}, `c:\Users\a\bin`},
	}
	for _, tt := range tests {
		if got := tt.f.Join(tt.dir, tt.elem...); got != tt.want {
			t.Errorf("%v.Join(%q, %q) = %q, want %q", tt.f, tt.dir, tt.elem, got, tt.want)
		}
	}
}

func TestSplitList(t *testing.T) {
	tests := []struct {
		f    Flavour
		list string
		want []string
	}{
		{Posix, "/usr/bin::/bin:", []string{"/usr/bin", "/bin"}},
		{Darwin, "/opt/homebrew/bin:/usr/bin", []string{"/opt/homebrew/bin", "/usr/bin"}},
		{Windows, `C:\Windows;"C:\Program Files\nodejs";;C:\x:y`, []string{`C:\Windows`, `C:\Program Files\nodejs`, `C:\x:y`}},
		{Windows, "", nil},
	}
	for _, tt := range tests {
		if got := tt.f.SplitList(tt.list); !slices.Equal(got, tt.want) {
			t.Errorf("%v.SplitList(%q) = %q, want %q", tt.f, tt.list, got, tt.want)
		}
	}
}

func TestExt(t *testing.T) {
	tests := []struct {
		f       Flavour
		p, want string
	}{
		{Windows, `C:\a.b\claude`, ""},
		{Windows, `C:\a\claude.CMD`, ".CMD"},
		{Windows, `C:\a/claude.exe`, ".exe"},
		{Posix, "/a.b/claude", ""},
		{Posix, `/a/x\y.sh`, `.sh`},
	}
	for _, tt := range tests {
		if got := tt.f.Ext(tt.p); got != tt.want {
			t.Errorf("%v.Ext(%q) = %q, want %q", tt.f, tt.p, got, tt.want)
		}
	}
}

func TestKeys(t *testing.T) {
	tests := []struct {
		f          Flavour
		a, b       string
		same, node bool // equal Key, equal NodeKey
	}{
		{Posix, "/work/App", "/work/app", false, false},
		{Posix, "/work/app", "/work/app", true, true},
		{Darwin, "/Users/A/Work", "/users/a/work", true, false},
		{Darwin, "/Users/a/Caf\u00e9", "/Users/a/Cafe\u0301", true, false}, // NFC
		{Darwin, "/Users/a/Work", "/Users/a/Work2", false, false},
		{Windows, `C:\Users\a`, `c:\users\A`, true, true},
		{Windows, `C:\Users\a`, `c:/users/A`, true, false}, // NodeKey takes resolved paths
		{Windows, `\\srv\share\proj`, `\\SRV\Share\proj`, true, true},
		{Windows, `C:\Users\ab`, `C:\Users\abc`, false, false},
	}
	for _, tt := range tests {
		if got := tt.f.Key(tt.a) == tt.f.Key(tt.b); got != tt.same {
			t.Errorf("%v: Key(%q) == Key(%q) is %v, want %v", tt.f, tt.a, tt.b, got, tt.same)
		}
		if got := tt.f.NodeKey(tt.a) == tt.f.NodeKey(tt.b); got != tt.node {
			t.Errorf("%v: NodeKey(%q) == NodeKey(%q) is %v, want %v", tt.f, tt.a, tt.b, got, tt.node)
		}
	}
}

func TestDir(t *testing.T) {
	tests := []struct {
		f       Flavour
		p, want string
	}{
		{Windows, `C:\Users\a\AppData\Roaming\npm\claude.cmd`, `C:\Users\a\AppData\Roaming\npm`},
		{Windows, `D:/node/claude.cmd`, `D:/node`},
		{Windows, `claude.cmd`, ""},
		{Posix, `/usr/local/bin/claude`, "/usr/local/bin"},
		{Posix, `/a\b`, ""},
	}
	for _, tt := range tests {
		if got := tt.f.Dir(tt.p); got != tt.want {
			t.Errorf("%v.Dir(%q) = %q, want %q", tt.f, tt.p, got, tt.want)
		}
	}
}
