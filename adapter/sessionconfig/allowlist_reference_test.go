//go:build !windows

// The comparison runs the reference's modules under the Node that make deps
// installs, a Linux build: the Windows test binary, run under Wine, cannot
// start it. The allowlist code has no Windows-specific path.

package sessionconfig

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/airwire/airwire/adapter/refjs"
)

// allowlistScript runs the reference's applyAvailableModelsAllowlist and
// matchResumedModel (dist/session-model.js) on each case of its input.
const allowlistScript = `
import { pathToFileURL } from "node:url";
const m = await import(pathToFileURL(process.argv[1]).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { models, cases, resumed } = JSON.parse(input);
const rows = cases.map((c) => {
	if (c.custom === undefined) delete process.env.ANTHROPIC_CUSTOM_MODEL_OPTION;
	else process.env.ANTHROPIC_CUSTOM_MODEL_OPTION = c.custom;
	return m.applyAvailableModelsAllowlist(models, c.allow, c.overrides, c.denied).map((r) => [r.value, r.displayName, r.resolvedModel ?? ""]);
});
const matched = resumed.map((live) => m.matchResumedModel(models, live).value);
console.log(JSON.stringify({ rows, matched }));
`

type allowCase struct {
	Allow     []string          `json:"allow"`
	Overrides map[string]string `json:"overrides,omitempty"`
	Denied    []string          `json:"denied"`
	Custom    *string           `json:"custom,omitempty"`
}

func TestAllowlistIsTheReferences(t *testing.T) {
	custom, blank := "claude-3-5-haiku-20241022", "  "
	cases := []allowCase{
		{Allow: []string{}},
		{Allow: []string{"sonnet", " haiku ", "sonnet", ""}},
		{Allow: []string{"claude-haiku-5-5", "opus"}, Overrides: map[string]string{"claude-haiku-5-5": "arn:aws:bedrock:haiku", "opus": "sonnet"}},
		{Allow: []string{"sonnet", "opus"}, Overrides: map[string]string{"opus": "sonnet"}},
		{Allow: []string{"opus[1m]", "Opus 5.5", "claude-opus-4-1", "gpt-5"}},
		{Allow: []string{"opus", "sonnet", "haiku"}, Denied: []string{"opus"}},
		{Allow: []string{"opus", "sonnet", "claude-sonnet-5-5"}, Denied: []string{"claude-sonnet-5"}},
		{Allow: []string{"claude-opus-5.5", "haiku"}, Overrides: map[string]string{"haiku": "claude-haiku-5-5-20261001"}, Denied: []string{"anthropic/claude-haiku-5.5"}},
		{Allow: []string{"sonnet"}, Custom: &custom},
		{Allow: []string{"sonnet", custom}, Custom: &custom},
		{Allow: []string{"sonnet"}, Custom: &blank},
	}
	for i := range cases {
		if cases[i].Denied == nil {
			cases[i].Denied = []string{}
		}
	}
	resumed := []string{"claude-opus-5-5", "claude-opus-5-5[1m]", "claude-opus-5-5-1m", "claude-opus-5-5[2m]", "CLAUDE-OPUS-5-5-2M", "claude-sonnet-5-5", "Claude-Haiku-5-5",
		"claude-fable-5-1", "claude-opus-4-1", "sonnet", "claude-3-5-haiku-20241022", "gpt-5"}
	input, err := json.Marshal(map[string]any{"models": cliModels, "cases": cases, "resumed": resumed})
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Rows    [][][3]string `json:"rows"`
		Matched []string      `json:"matched"`
	}
	if err := json.Unmarshal(refjs.Run(t, allowlistScript, "session-model.js", input), &want); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		a := Allowed{Models: c.Allow, Overrides: c.Overrides, Denied: c.Denied}
		if c.Custom != nil {
			a.Custom = *c.Custom
		}
		var got [][3]string
		for _, r := range a.Apply(cliModels) {
			got = append(got, [3]string{r.Value, r.DisplayName, r.ResolvedModel})
		}
		if !reflect.DeepEqual(got, want.Rows[i]) {
			t.Errorf("case %d %+v\n got %q\nwant %q", i, c, got, want.Rows[i])
		}
	}
	for i, live := range resumed {
		got := live
		if m, ok := matchResumed(cliModels, live); ok {
			got = m.Value
		}
		if got != want.Matched[i] {
			t.Errorf("resumed on %q: %q, the reference %q", live, got, want.Matched[i])
		}
	}
}
