package modelid

import "testing"

func TestNormalizeModelID(t *testing.T) {
	cases := map[string]string{
		"claude-sonnet-5":                     "claude-sonnet-5",
		"  Claude-Opus-5-5@20260101 ":         "claude-opus-5-5",
		"anthropic/claude-opus-5.5:batch[1m]": "claude-opus-5-5",
		"anthropic/openai/gpt-5":              "openai/gpt-5",
		"eu.anthropic.claude-sonnet-5-v1:0":   "claude-sonnet-5",
		"arn:aws:bedrock:x:y:inference-profile/us.anthropic.claude-haiku-5-v2": "claude-haiku-5",
		"claude-sonnet-5-20260101": "claude-sonnet-5",
		"claude-sonnet-5[1m]":      "claude-sonnet-5",
		"claude-sonnet-5-1m":       "claude-sonnet-5",
		"claude-opus-5-fast":       "claude-opus-5",
		"claude-opus-5.5.1":        "claude-opus-5-5-1",
		"claude.opus-5":            "claude.opus-5",
		"model:free":               "model",
		"model:0":                  "model:0",
		"opus":                     "opus",
		"":                         "",
	}
	for in, want := range cases {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// A family alias blocks its family; an id blocks its version in every
// spelling and the later minor versions it prefixes, nothing else.
func TestDenied(t *testing.T) {
	for _, tc := range []struct {
		id     string
		denied []string
		want   bool
	}{
		{"claude-opus-5-5", []string{"opus"}, true},
		{"opus", []string{"opus"}, true},
		{"claude-sonnet-5-5", []string{"opus"}, false},
		{"claude-opus-5-5", []string{"claude-opus-5"}, true},
		{"claude-opus-5", []string{"claude-opus-5-5"}, false},
		{"claude-opus-50", []string{"claude-opus-5"}, false},
		{"anthropic.claude-haiku-5-5-v1:0", []string{"claude-haiku-5.5"}, true},
		{"claude-haiku-5-5-20261001", []string{"anthropic/claude-haiku-5-5"}, true},
		{"claude-haiku-5-5", []string{"", "  "}, false},
		{"", []string{"opus"}, false},
		{"claude-opus-5-5", nil, false},
	} {
		if got := Denied(tc.id, tc.denied); got != tc.want {
			t.Errorf("Denied(%q, %q) = %v, want %v", tc.id, tc.denied, got, tc.want)
		}
	}
}
