package providers

import (
	"reflect"
	"testing"
)

// The expectations are what the reference's narrowToGatewayModels keeps.
func TestNarrow(t *testing.T) {
	m := func(value, resolved string) Model { return Model{Value: value, ResolvedModel: resolved} }
	cases := []struct {
		name   string
		models []Model
		listed []string
		region string
		want   []int
	}{
		{"aliases alone match nothing",
			[]Model{m("default", ""), m("opus", ""), m("sonnet", ""), m("haiku", "")},
			[]string{"claude-opus-5-5-20260101", "claude-sonnet-5"}, "", nil},
		{"default and listed families kept beside a listed model",
			[]Model{m("default", ""), m("opus", ""), m("haiku", ""), m("claude-sonnet-5", "")},
			[]string{"claude-opus-5-5-20260101", "claude-sonnet-5"}, "", []int{0, 1, 3}},
		{"resolved models in any spelling",
			[]Model{m("default", "claude-opus-5-5"), m("sonnet", "claude-sonnet-5[1m]"), m("haiku", "claude-haiku-5")},
			[]string{"anthropic/claude-sonnet-5:batch", "Claude-Opus-5.5@20260101"}, "", []int{0, 1}},
		{"resolved default not listed is dropped",
			[]Model{m("default", "claude-opus-5-5"), m("sonnet", "")},
			[]string{"claude-haiku-5"}, "", nil},
		{"other region prefixes dropped",
			[]Model{m("a", "eu.anthropic.claude-sonnet-5"), m("b", "us.anthropic.claude-sonnet-5"), m("c", "anthropic.claude-haiku-5-v1:0")},
			[]string{"eu.anthropic.claude-sonnet-5-v1:0", "eu.anthropic.claude-haiku-5"}, "eu", []int{0, 2}},
		{"without a region every prefix counts",
			[]Model{m("a", "eu.anthropic.claude-sonnet-5"), m("b", "us.anthropic.claude-sonnet-5")},
			[]string{"global.anthropic.claude-sonnet-5"}, "", []int{0, 1}},
		{"values when unresolved",
			[]Model{m("claude-opus-5.5[1m]", ""), m("claude-sonnet-5-fast", "")},
			[]string{"Claude-Opus-5-5@20260101", "claude-sonnet-5-20260101"}, "", []int{0, 1}},
		{"empty listing", []Model{m("default", ""), m("claude-sonnet-5", "")}, []string{}, "", nil},
		{"blank listed ids ignored", []Model{m("default", "")}, []string{" ", ""}, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Narrow(tc.models, tc.listed, tc.region)
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRegionPrefix(t *testing.T) {
	cases := map[string]string{
		"us-gov.anthropic.x": "us-gov",
		"APAC.anthropic.x":   "apac",
		"us.anthropic.x":     "us",
		"us.meta.x":          "",
		"anthropic.claude-x": "",
		"arn:aws:bedrock:us-east-1::inference-profile/global.anthropic.d": "global",
		"global.anthropic.d/other":                                        "",
	}
	for in, want := range cases {
		if got := RegionPrefix(in); got != want {
			t.Errorf("RegionPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSelectRegion(t *testing.T) {
	cases := []struct {
		name   string
		ids    []string
		prefix string
		kept   []string
	}{
		{"global wins", []string{"anthropic.claude-x", "eu.anthropic.a", "us.anthropic.b", "global.anthropic.c",
			"arn:aws:bedrock:us-east-1::inference-profile/GLOBAL.anthropic.d"},
			"global", []string{"global.anthropic.c", "arn:aws:bedrock:us-east-1::inference-profile/GLOBAL.anthropic.d"}},
		{"first prefix", []string{"anthropic.claude-x", "eu.anthropic.a", "us.anthropic.b"}, "eu", []string{"eu.anthropic.a"}},
		{"no prefix", []string{"anthropic.claude-x", "anthropic.y"}, "", []string{"anthropic.claude-x", "anthropic.y"}},
		{"nothing", nil, "", []string{}},
	}
	for _, tc := range cases {
		prefix, kept := SelectRegion(tc.ids)
		if prefix != tc.prefix || !reflect.DeepEqual(kept, tc.kept) {
			t.Errorf("%s: got %q %q", tc.name, prefix, kept)
		}
	}
}
