package history

import "testing"

func TestExpandPastedContent(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		// The prompt of scenarios/session-list-first-prompt.yaml, whose
		// reference title is "Review this function:function add(a, b) { return a + b }Is it safe?".
		{"block between texts", "Review this function:\n\n<pasted_content id=\"ab12\">\nfunction add(a, b) { return a + b }\n</pasted_content id=\"ab12\">\n\nIs it safe?",
			"Review this function:function add(a, b) { return a + b }Is it safe?"},
		{"no block", "plain text", "plain text"},
		{"bad id", "x <pasted_content id=\"XY12\">\nbody\n</pasted_content id=\"XY12\">", "x <pasted_content id=\"XY12\">\nbody\n</pasted_content id=\"XY12\">"},
		{"unclosed", "a\n<pasted_content id=\"0000\">\nbody", "a\n<pasted_content id=\"0000\">\nbody"},
		{"two blocks, three newlines kept one", "a\n\n\n<pasted_content id=\"0001\">\nb\n</pasted_content id=\"0001\"><pasted_content id=\"0002\">\nc\nd\n</pasted_content id=\"0002\">e",
			"a\nbc\nde"},
		{"empty body", "<pasted_content id=\"00ff\">\n\n</pasted_content id=\"00ff\">z", "z"},
	} {
		if got := ExpandPastedContent(c.in); got != c.want {
			t.Errorf("%s: ExpandPastedContent(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}
