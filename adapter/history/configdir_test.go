package history

import (
	"testing"

	"github.com/airwire/airwire/internal/pathstyle"
)

// The configuration directory is under each platform's home, as Node's
// os.homedir finds it, unless CLAUDE_CONFIG_DIR names it.
func TestConfigDirOn(t *testing.T) {
	tests := []struct {
		f    pathstyle.Flavour
		env  map[string]string
		want string
	}{
		{pathstyle.Posix, map[string]string{"HOME": "/home/a", "USERPROFILE": `C:\Users\x`}, "/home/a/.claude"},
		{pathstyle.Darwin, map[string]string{"HOME": "/Users/a b/"}, "/Users/a b/.claude"},
		{pathstyle.Windows, map[string]string{"HOME": "/c/Users/a", "USERPROFILE": `C:\Users\a b`}, `C:\Users\a b\.claude`},
		{pathstyle.Windows, map[string]string{"USERPROFILE": `C:\Users\a`, "CLAUDE_CONFIG_DIR": `D:\cfg`}, `D:\cfg`},
	}
	for _, tt := range tests {
		if got := configDirOn(tt.f, func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("configDirOn(%v, %v) = %q, want %q", tt.f, tt.env, got, tt.want)
		}
	}
}
