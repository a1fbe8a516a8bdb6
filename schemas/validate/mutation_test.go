package validate_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/schemas/air"
	"github.com/airwire/airwire/schemas/validate"
)

// messages reads a testdata journal as validator input.
func messages(t *testing.T, name string) []validate.Message {
	t.Helper()
	_, entries, err := journal.ReadAll("testdata/" + name + ".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []validate.Message
	for _, e := range entries {
		if e.Kind == journal.KindMsg && e.Lane == journal.LaneClient {
			out = append(out, validate.Message{Seq: e.Seq, Lane: string(e.Lane), Dir: string(e.Dir), Msg: e.Msg})
		}
	}
	return out
}

// mutate returns msgs with the message whose JSON contains marker changed by f.
func mutate(t *testing.T, msgs []validate.Message, marker string, f func(m map[string]any)) []validate.Message {
	t.Helper()
	out := append([]validate.Message(nil), msgs...)
	for i, m := range out {
		if !strings.Contains(string(m.Msg), marker) {
			continue
		}
		var doc map[string]any
		if err := json.Unmarshal(m.Msg, &doc); err != nil {
			t.Fatal(err)
		}
		f(doc)
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		out[i].Msg = b
		return out
	}
	t.Fatalf("no message contains %q", marker)
	return nil
}

func obj(v any, keys ...string) map[string]any {
	for _, k := range keys {
		switch t := v.(type) {
		case map[string]any:
			v = t[k]
		case []any:
			i := 0
			for ; i < len(t) && k != string(rune('0'+i)); i++ {
			}
			v = t[i]
		}
	}
	return v.(map[string]any)
}

func run(t *testing.T, msgs []validate.Message, opts ...validate.Option) []validate.Finding {
	t.Helper()
	a, s := schemas(t)
	v := validate.New(a, s, opts...)
	var out []validate.Finding
	for _, m := range msgs {
		out = append(out, v.Check(m)...)
	}
	return out
}

func TestMutations(t *testing.T) {
	tests := []struct {
		name    string
		journal string
		marker  string // picks the message to change
		change  func(m map[string]any)
		rule    string // wanted rule (prefix match for schema ids)
		pointer string // wanted pointer ("" = any)
		dir     string
	}{
		{name: "jetbrains key injected into a plain-profile message", journal: "plain-session", marker: `"toolCallId":"toolu_2","title"`,
			change: func(m map[string]any) {
				obj(m, "params", "update")["_meta"] = map[string]any{"jetbrains": map[string]any{"air": map[string]any{"version": 1, "commandTitle": "x"}}}
			},
			rule: "air-not-declared", pointer: "/params/update/_meta/jetbrains", dir: "agent"},
		{name: "CR inside a diffPatch", journal: "air-session", marker: `"status":"completed","content"`,
			change: func(m map[string]any) {
				dp := obj(m, "params", "update", "content", "0", "_meta", "jetbrains", "air", "diffPatch")
				dp["text"] = strings.ReplaceAll(dp["text"].(string), "\n", "\r\n")
			},
			rule: "diff-patch-text", pointer: "/params/update/content/0/_meta/jetbrains/air/diffPatch/text"},
		{name: "CR inside a diffPatch fails the schema too", journal: "air-session", marker: `"status":"completed","content"`,
			change: func(m map[string]any) {
				dp := obj(m, "params", "update", "content", "0", "_meta", "jetbrains", "air", "diffPatch")
				dp["text"] = strings.ReplaceAll(dp["text"].(string), "\n", "\r\n")
			},
			rule: air.ID("diff-patch")},
		{name: "option id outside the set", journal: "air-session", marker: `"session/request_permission"`,
			change: func(m map[string]any) { obj(m, "params", "options", "1")["optionId"] = "allow-forever" },
			rule:   "permission-option-id", pointer: "/params/options/1/optionId"},
		{name: "missing version next to the payload", journal: "air-session", marker: `"session/request_permission"`,
			change: func(m map[string]any) { delete(obj(m, "params", "_meta", "jetbrains", "air"), "version") },
			rule:   "air-version", pointer: "/params/_meta/jetbrains/air/version"},
		{name: "missing version inside the payload", journal: "air-session", marker: `"session/request_permission"`,
			change: func(m map[string]any) { delete(obj(m, "params", "_meta", "jetbrains", "air", "permission"), "version") },
			rule:   air.ID("permission"), pointer: "/params/_meta/jetbrains/air/permission/version"},
		{name: "unknown key under jetbrains.air", journal: "air-session", marker: `"session/request_permission"`,
			change: func(m map[string]any) { obj(m, "params", "_meta", "jetbrains", "air")["urgency"] = "high" },
			rule:   "air-unknown-key", pointer: "/params/_meta/jetbrains/air/urgency"},
		{name: "AIR key at an unknown place", journal: "air-session", marker: `"agent_message_chunk"`,
			change: func(m map[string]any) {
				obj(m, "params", "update")["_meta"] = map[string]any{"jetbrains": map[string]any{"air": map[string]any{"version": 1, "permission": map[string]any{"version": 1, "title": "x"}}}}
			},
			rule: "air-unknown-place", pointer: "/params/update/_meta/jetbrains/air"},
		{name: "diffPatch without the client capability", journal: "air-session", marker: `"method":"initialize"`,
			change: func(m map[string]any) {
				obj(m, "params", "clientCapabilities", "_meta", "jetbrains", "air")["capabilities"] = []any{"sessionFailure", "asyncTasks", "agentFileChangeReport", "sessionIndex"}
			},
			rule: "air-gate", pointer: "/params/update/content/0/_meta/jetbrains/air/diffPatch"},
		{name: "async task update without asyncTasks", journal: "air-session", marker: `"method":"initialize"`,
			change: func(m map[string]any) {
				obj(m, "params", "clientCapabilities", "_meta", "jetbrains", "air")["capabilities"] = []any{"diffPatch", "sessionFailure", "agentFileChangeReport", "sessionIndex"}
			},
			rule: "air-gate", pointer: "/params/update/sessionUpdate"},
		{name: "sessionIndex advertised to a client that did not declare it", journal: "air-session", marker: `"method":"initialize"`,
			change: func(m map[string]any) {
				obj(m, "params", "clientCapabilities", "_meta", "jetbrains", "air")["capabilities"] = []any{"diffPatch", "sessionFailure", "asyncTasks", "agentFileChangeReport"}
			},
			rule: "session-index-advertised", pointer: "/result/_meta/jetbrains/air/capabilities"},
		{name: "removed claudeCode.title", journal: "plain-session", marker: `"toolCallId":"toolu_2","title"`,
			change: func(m map[string]any) { obj(m, "params", "update", "_meta", "claudeCode")["title"] = "npm run dev" },
			rule:   "removed-key", pointer: "/params/update/_meta/claudeCode/title"},
		{name: "removed diffStats", journal: "air-session", marker: `"status":"completed","content"`,
			change: func(m map[string]any) {
				obj(m, "params", "update", "content", "0", "_meta", "jetbrains", "air")["diffStats"] = map[string]any{"added": 1}
			},
			rule: "removed-key", pointer: "/params/update/content/0/_meta/jetbrains/air/diffStats"},
		{name: "removed mode _meta.kind", journal: "air-session", marker: `"availableModes"`,
			change: func(m map[string]any) { obj(m, "result", "modes", "availableModes", "0", "_meta")["kind"] = "standard" },
			rule:   "removed-key", pointer: "/result/modes/availableModes/0/_meta/kind"},
		{name: "sessionFailure revision does not rise", journal: "air-session", marker: `attempt 2 of 10`,
			change: func(m map[string]any) {
				obj(m, "params", "update", "_meta", "jetbrains", "air", "sessionFailure")["revision"] = 1
			},
			rule: "session-failure-revision"},
		{name: "api_retry warning does not reuse the active turn failure id", journal: "air-session", marker: `attempt 2 of 10`,
			change: func(m map[string]any) {
				obj(m, "params", "update", "_meta", "jetbrains", "air", "sessionFailure")["id"] = "28096f5f-7c62-4e15-916e-ecc80066bd13:session-error:1:2"
			},
			rule: "session-failure-turn-identity", pointer: "/params/update/_meta/jetbrains/air/sessionFailure/id", dir: "agent"},
		{name: "permission request before its tool_call", journal: "air-session", marker: `"session/request_permission"`,
			change: func(m map[string]any) { obj(m, "params", "toolCall")["toolCallId"] = "toolu_9" },
			rule:   "permission-after-tool-call", pointer: "/params/toolCall/toolCallId"},
		{name: "options not grouped", journal: "air-session", marker: `"session/request_permission"`,
			change: func(m map[string]any) {
				o := obj(m, "params")["options"].([]any)
				o[0], o[2] = o[2], o[0]
			},
			rule: "permission-option-order"},
		{name: "defaultToNo with the allow options first", journal: "air-session", marker: `"session/request_permission"`,
			change: func(m map[string]any) {
				obj(m, "params", "_meta", "jetbrains", "air", "permission")["defaultToNo"] = true
			},
			rule: "permission-option-order"},
		{name: "session/update before session/new", journal: "air-session", marker: `"available_commands_update"`,
			change: func(m map[string]any) { obj(m, "params")["sessionId"] = "other-session" },
			rule:   "session-update-before-session", pointer: "/params/sessionId"},
		{name: "diffPatch block with old text", journal: "air-session", marker: `"status":"completed","content"`,
			change: func(m map[string]any) { obj(m, "params", "update", "content", "0")["oldText"] = "old\n" },
			rule:   "diff-patch-placeholders", pointer: "/params/update/content/0/oldText"},
		{name: "patch path keeps its leading slash", journal: "air-session", marker: `"status":"completed","content"`,
			change: func(m map[string]any) {
				dp := obj(m, "params", "update", "content", "0", "_meta", "jetbrains", "air", "diffPatch")
				dp["text"] = strings.ReplaceAll(dp["text"].(string), "a/workspace", "a//workspace")
			},
			rule: "diff-patch-text"},
		{name: "client answers an option that was not offered", journal: "air-session", marker: `"optionId":"allow-once"}}`,
			change: func(m map[string]any) { obj(m, "result", "outcome")["optionId"] = "yes" },
			rule:   "permission-answer-offered", pointer: "/result/outcome/optionId", dir: "editor"},
		{name: "client file-change request with an extra key", journal: "air-session", marker: `"agentFileChangeReportRequest"`,
			change: func(m map[string]any) {
				obj(m, "params", "_meta", "jetbrains", "air", "agentFileChangeReportRequest")["paths"] = true
			},
			rule: air.ID("file-change-report-request"), pointer: "/params/_meta/jetbrains/air/agentFileChangeReportRequest/paths", dir: "editor"},
		{name: "client declaration with a string version", journal: "air-session", marker: `"method":"initialize"`,
			change: func(m map[string]any) {
				obj(m, "params", "clientCapabilities", "_meta", "jetbrains", "air")["version"] = "1"
			},
			rule: air.ID("client-declaration"), pointer: "/params/clientCapabilities/_meta/jetbrains/air/version", dir: "editor"},
		{name: "tool call without its id names its branch", journal: "air-session", marker: `"toolCallId":"toolu_2","title"`,
			change: func(m map[string]any) { delete(obj(m, "params", "update"), "toolCallId") },
			rule:   "acp:#/$defs/SessionUpdate[sessionUpdate=tool_call]", pointer: "/params/update/toolCallId"},
		{name: "async task spawned with canStop false", journal: "air-session", marker: `"async_task_spawned"`,
			change: func(m map[string]any) { obj(m, "params", "update")["canStop"] = false },
			rule:   air.ID("async-task-spawned"), pointer: "/params/update/canStop"},
	}
	// The acceptance mutations again, on journals recorded from the reference
	// adapter (testdata/README.md).
	tests = append(tests, []struct {
		name    string
		journal string
		marker  string
		change  func(m map[string]any)
		rule    string
		pointer string
		dir     string
	}{
		{name: "recorded: jetbrains key injected into a plain-profile tool call", journal: "recorded-plain", marker: `"sessionUpdate":"tool_call",`,
			change: func(m map[string]any) {
				u := obj(m, "params", "update")
				meta, _ := u["_meta"].(map[string]any)
				if meta == nil {
					meta = map[string]any{}
					u["_meta"] = meta
				}
				meta["jetbrains"] = map[string]any{"air": map[string]any{"version": 1, "commandTitle": "List files"}}
			},
			rule: "air-not-declared", pointer: "/params/update/_meta/jetbrains"},
		{name: "recorded: option id outside the set", journal: "recorded-air", marker: `"method":"session/request_permission"`,
			change: func(m map[string]any) { obj(m, "params", "options", "0")["optionId"] = "allow-always-everywhere" },
			rule:   "permission-option-id", pointer: "/params/options/0/optionId"},
		{name: "recorded: missing version", journal: "recorded-air", marker: `"method":"session/request_permission"`,
			change: func(m map[string]any) { delete(obj(m, "params", "_meta", "jetbrains", "air"), "version") },
			rule:   "air-version", pointer: "/params/_meta/jetbrains/air/version"},
		{name: "recorded: AIR row meta for a client without sessionIndex", journal: "recorded-air", marker: `"clientInfo"`,
			change: func(m map[string]any) {
				obj(m, "params", "clientCapabilities", "_meta", "jetbrains", "air")["capabilities"] = []any{"diffPatch"}
			},
			rule: "air-gate", pointer: "/result/sessions/0/_meta/jetbrains/air"},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := messages(t, tt.journal)
			got := run(t, mutate(t, base, tt.marker, tt.change))
			for _, f := range got {
				if f.Rule == tt.rule && (tt.pointer == "" || f.Pointer == tt.pointer) && (tt.dir == "" || f.Dir == tt.dir) {
					if f.Severity != validate.SeverityError {
						t.Errorf("%s is a %s", f.Rule, f.Severity)
					}
					if f.Section == "" || f.Message == "" {
						t.Errorf("finding lacks section or message: %+v", f)
					}
					return
				}
			}
			t.Errorf("want %s at %q; got:", tt.rule, tt.pointer)
			for _, f := range got {
				t.Logf("  %s", f)
			}
		})
	}
}

func TestSideFilter(t *testing.T) {
	msgs := mutate(t, messages(t, "air-session"), `"optionId":"allow-once"}}`, func(m map[string]any) {
		obj(m, "result", "outcome")["optionId"] = "yes"
	})
	if got := run(t, msgs, validate.WithSide(validate.SideAgent)); countRule(got, "permission-answer-offered") != 0 {
		t.Errorf("agent side reports the editor's answer: %v", got)
	}
	if got := run(t, msgs, validate.WithSide(validate.SideClient)); countRule(got, "permission-answer-offered") != 1 {
		t.Errorf("client side misses the editor's answer: %v", got)
	}
}

func countRule(fs []validate.Finding, rule string) int {
	n := 0
	for _, f := range fs {
		if f.Rule == rule {
			n++
		}
	}
	return n
}

// TestDefaultToNoPutsRejectFirst: with defaultToNo the reject options come
// first ("Permission presentation > Request"), and that order is no finding.
func TestDefaultToNoPutsRejectFirst(t *testing.T) {
	base := messages(t, "air-session")
	got := run(t, mutate(t, base, `"session/request_permission"`, func(m map[string]any) {
		obj(m, "params", "_meta", "jetbrains", "air", "permission")["defaultToNo"] = true
		o := obj(m, "params")["options"].([]any)
		var reject, allow []any
		for _, x := range o {
			if k, _ := x.(map[string]any)["kind"].(string); strings.HasPrefix(k, "reject") {
				reject = append(reject, x)
			} else {
				allow = append(allow, x)
			}
		}
		obj(m, "params")["options"] = append(reject, allow...)
	}))
	for _, f := range got {
		if f.Rule == "permission-option-order" {
			t.Errorf("reject-first options with defaultToNo: %s", f)
		}
	}
}
