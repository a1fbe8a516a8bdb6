package jsstr

import "testing"

func TestTrim(t *testing.T) {
	for in, want := range map[string]string{
		"\ufeff\u00a0 x \u3000\n":                     "x",
		"\u2028\u2029\u202fx\u205f\u1680\u2000\u200a": "x",
		"\u0085x":   "\u0085x",
		"\u200bx":   "\u200bx",
		"  ":        "",
		"a b":       "a b",
		"\tx\v\f\r": "x",
	} {
		if got := Trim(in); got != want {
			t.Errorf("Trim(%q) = %q, want %q", in, got, want)
		}
	}
}
