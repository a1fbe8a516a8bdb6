package envlist

import "testing"

func TestLookup(t *testing.T) {
	env := []string{"A=1", "AB=2", "B=", "A=3", "C", "D==x"}
	for _, tc := range []struct {
		key, want string
		found     bool
	}{
		{"A", "3", true},  // the last entry wins
		{"AB", "2", true}, // a longer key is not A
		{"B", "", true},   // set, empty
		{"C", "", false},  // no "=": not an entry of C
		{"D", "=x", true}, // the first "=" ends the key
		{"Z", "", false},
		{"", "", false},
	} {
		got, found := Lookup(env, tc.key)
		if got != tc.want || found != tc.found {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tc.key, got, found, tc.want, tc.found)
		}
		if g := Getenv(env, tc.key); g != tc.want {
			t.Errorf("Getenv(%q) = %q, want %q", tc.key, g, tc.want)
		}
	}
}
