//go:build !windows

// The comparison runs the reference's modules under the Node that make deps
// installs, a Linux build: the Windows test binary, run under Wine, cannot
// start it. The effort code has no Windows-specific path.

package claudesettings

import (
	"encoding/json"
	"testing"

	"github.com/airwire/airwire/adapter/refjs"
)

// effortScript runs the reference's settingsEffortForModel over
// mergeEffortSettings (dist/session-effort.js) on each case.
const effortScript = `
import { pathToFileURL } from "node:url";
const m = await import(pathToFileURL(process.argv[1]).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
console.log(JSON.stringify(JSON.parse(input).map((c) =>
	m.settingsEffortForModel(m.mergeEffortSettings(c.files, c.flag), c.model, c.id) ?? "")));
`

func TestEffortIsTheReferences(t *testing.T) {
	type model struct {
		ResolvedModel string `json:"resolvedModel,omitempty"`
		Value         string `json:"value"`
	}
	type testCase struct {
		Files any    `json:"files"` // a json.RawMessage keeps its keys' order
		Flag  any    `json:"flag,omitempty"`
		Model *model `json:"model,omitempty"`
		ID    string `json:"id,omitempty"`
	}
	per := func(pairs ...string) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(pairs); i += 2 {
			m[pairs[i]] = map[string]any{"effortLevel": pairs[i+1]}
		}
		return m
	}
	haiku := &model{ResolvedModel: "claude-haiku-5-5", Value: "haiku"}
	opus1m := &model{ResolvedModel: "claude-opus-5-5[1m]", Value: "opus[1m]"}
	cases := []testCase{
		{Files: map[string]any{}, Model: haiku},
		{Files: map[string]any{"effortLevel": "low"}, Model: haiku},
		{Files: map[string]any{"effortLevel": "low", "modelSettings": per("claude-haiku-5-5", "high")}, Model: haiku},
		{Files: map[string]any{"effortLevel": "low", "modelSettings": per("HAIKU", "max")}, Model: haiku},
		{Files: map[string]any{"modelSettings": per("claude-opus-5-5-1m", "xhigh")}, Model: opus1m},
		{Files: map[string]any{"modelSettings": per("picked", "medium")}, Model: haiku, ID: "picked"},
		{Files: map[string]any{"effortLevel": "low", "modelSettings": per("haiku", "high")}, Flag: map[string]any{"effortLevel": "medium"}, Model: haiku},
		{Files: map[string]any{"effortLevel": "low", "modelSettings": per("haiku", "high")}, Flag: map[string]any{"modelSettings": per("Haiku", "max")}, Model: haiku},
		{Files: map[string]any{"modelSettings": per("haiku", "high", "opus[1m]", "max")}, Flag: map[string]any{"modelSettings": per("haiku", "low")}, Model: opus1m},
		{Files: map[string]any{"effortLevel": "low", "modelSettings": map[string]any{"haiku": map[string]any{}}}, Model: haiku},
		{Files: map[string]any{"effortLevel": "high"}},
		{Files: json.RawMessage(`{"modelSettings": {"Haiku": {"effortLevel": "max"}, "HAIKU": {"effortLevel": "low"}}}`), Model: haiku},
		{Files: json.RawMessage(`{"modelSettings": {"HAIKU": {"effortLevel": "low"}, "Haiku": {"effortLevel": "max"}}}`), Model: haiku},
		{Files: json.RawMessage(`{"effortLevel": "low", "modelSettings": {"Haiku": {"effortLevel": "max"}}}`),
			Flag: json.RawMessage(`{"modelSettings": {"HAIKU": {}, "OPUS": {"effortLevel": "high"}, "Opus": {"effortLevel": "xhigh"}}}`), Model: haiku},
		{Files: json.RawMessage(`{"modelSettings": {"Haiku": {"effortLevel": "max"}}}`),
			Flag: json.RawMessage(`{"modelSettings": {"OPUS": {"effortLevel": "high"}, "Opus": {"effortLevel": "xhigh"}}}`), Model: &model{Value: "opus"}},
	}
	input, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	if err := json.Unmarshal(refjs.Run(t, effortScript, "session-effort.js", input), &want); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		raw, _ := json.Marshal(c.Files)
		files, _ := FlagEffort(string(raw))
		e := files
		if c.Flag != nil {
			raw, _ := json.Marshal(c.Flag)
			flag, _ := FlagEffort(string(raw))
			e = files.Over(flag)
		}
		var names []string
		if c.Model != nil {
			names = append(names, c.Model.ResolvedModel, c.Model.Value)
		}
		if got := e.For(append(names, c.ID)...); got != want[i] {
			t.Errorf("case %d %+v: %q, the reference %q", i, c, got, want[i])
		}
	}
}
