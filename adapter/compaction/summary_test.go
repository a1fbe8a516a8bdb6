package compaction

import "testing"

func TestCompactionSummaryText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"<summary>Inline.</summary>", "Inline."},
		{"<analysis>\nmentions <summary> here\n</analysis>\n<summary>\nThe summary.\n</summary>\n", "The summary."},
		{"<summary>\nOuter quotes </summary> inline.\n</summary>", "Outer quotes </summary> inline."},
		{"This session is being continued from a previous conversation that ran out of context.\n\nSummary:\nKept.\n\nIf you need specific details from before compaction, read it.", "Kept."},
		{"This session is being continued from a previous conversation, in an unknown frame", ""},
		{"  ", ""},
	}
	for _, c := range cases {
		got, ok := compactionSummaryText(c.in)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("compactionSummaryText(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}
