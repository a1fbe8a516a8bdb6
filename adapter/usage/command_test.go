package usage

import "testing"

func TestIsCommand(t *testing.T) {
	for text, want := range map[string]bool{"/usage": true, " /usage\n": true, "/usage now": false, "/usages": false, "": false} {
		if IsCommand(text) != want {
			t.Errorf("IsCommand(%q) = %v", text, !want)
		}
	}
}
