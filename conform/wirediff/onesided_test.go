package wirediff

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestOneSidedRunsInEveryFormat: a run only the old recording has and one
// only the new has are named in text, JSON, GitHub annotations and
// Markdown, with and without findings.
func TestOneSidedRunsInEveryFormat(t *testing.T) {
	base := run(t, initPlain, prompt, endTurn)
	changed := run(t, initPlain, prompt, strings.Replace(endTurn, "end_turn", "refusal", 1))
	for name, new := range map[string]Set{"same": run(t, initPlain, prompt, endTurn), "changed": changed} {
		old := Set{"s/p": base["s/p"], "gone/air": {Key: "gone/air"}}
		new["fresh/zed"] = &Run{Key: "fresh/zed"}
		r := Diff(old, new, nil)
		r.Old, r.New = "old/", "new/"
		for _, format := range Formats {
			var out bytes.Buffer
			if err := WriteReport(&out, r, format); err != nil {
				t.Fatal(err)
			}
			text := out.String()
			if format == FormatJSON {
				var back Report
				if err := json.Unmarshal(out.Bytes(), &back); err != nil {
					t.Fatal(err)
				}
				text = strings.Join(back.OnlyOld, " ") + "|" + strings.Join(back.OnlyNew, " ")
			}
			if !strings.Contains(text, "gone/air") || !strings.Contains(text, "fresh/zed") {
				t.Errorf("%s, %s: one-sided runs not listed:\n%s", name, format, out.String())
			}
		}
	}
}
