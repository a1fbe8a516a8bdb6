package notices

import (
	"strings"
	"testing"
)

// TestPlainText: the inline markdown a notice drops, and what it
// keeps because the markers do not stand free.
func TestPlainText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"## Hook blocked\nsee `npm test` for **why**", "Hook blocked\nsee npm test for why"},
		{"  # Title", "Title"},
		{"####### seven", "####### seven"},
		{"#tag", "#tag"},
		{"a ** b ** c", "a ** b ** c"},
		{"__init__ and __x__", "init and x"},
		{"x`y` and `a\nb`", "x`y` and `a\nb`"},
		{"``", "``"},
		{"**unclosed", "**unclosed"},
		{"**a** **b**", "a b"},
	} {
		if got := PlainText(tt.in); got != tt.want {
			t.Errorf("PlainText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSplit: the first line is the title unless it is longer
// than a title may be; then everything is the description.
func TestSplit(t *testing.T) {
	n := Split("warning", "  Disk low\n\nfree some space  ", "Fallback")
	if n != (Notice{"warning", "Disk low", "free some space"}) {
		t.Errorf("two lines: %+v", n)
	}
	long := strings.Repeat("é", TitleLimit+1)
	if n := Split("info", long, "Fallback"); n.Title != "Fallback" || n.Description != long {
		t.Errorf("long first line: %+v", n)
	}
	if n := Split("info", strings.Repeat("é", TitleLimit), "Fallback"); n.Title == "Fallback" {
		t.Errorf("a first line of exactly the limit is a title: %+v", n)
	}
	if n := Split("info", "  ", "Fallback"); n != (Notice{"info", "Fallback", ""}) {
		t.Errorf("blank: %+v", n)
	}
	u := Notice{"info", "T", ""}.Update()
	if _, ok := u["description"]; ok || u["sessionUpdate"] != "notice" {
		t.Errorf("update without description: %v", u)
	}
	if Normalize(" a\n\tb  c ") != "a b c" {
		t.Error("normalizeNoticeText does not collapse whitespace")
	}
}
