package validate_test

import (
	"encoding/json"
	"testing"

	"github.com/airwire/airwire/schemas/validate"
)

// conv is the AIR conversation's setup (initialize and session/new, all
// capabilities declared) followed by extra messages.
func conv(t *testing.T, extra ...validate.Message) []validate.Message {
	t.Helper()
	base := messages(t, "air-session")[:5]
	seq := base[len(base)-1].Seq
	for _, m := range extra {
		seq++
		m.Seq, m.Lane = seq, "client"
		base = append(base, m)
	}
	return base
}

const sid = "28096f5f-7c62-4e15-916e-ecc80066bd13"

func agent(t *testing.T, v any) validate.Message {
	return validate.Message{Dir: "agent", Msg: mustJSON(t, v)}
}
func editor(t *testing.T, v any) validate.Message {
	return validate.Message{Dir: "editor", Msg: mustJSON(t, v)}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type M = map[string]any

func airMeta(kv M) M {
	a := M{"version": 1}
	for k, v := range kv {
		a[k] = v
	}
	return M{"jetbrains": M{"air": a}}
}

func update(u M) M {
	return M{"jsonrpc": "2.0", "method": "session/update", "params": M{"sessionId": sid, "update": u}}
}

func elicitation(t *testing.T, customQ string) validate.Message {
	return agent(t, M{"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": M{
		"sessionId": sid, "mode": "form", "message": "Which colour?",
		"requestedSchema": M{"type": "object", "required": []any{"question_0"}, "properties": M{
			"question_0": M{"type": "string", "title": "Colour", "enum": []any{"red", "blue"}},
			"question_0_other": M{"type": "string", "title": "Other",
				"_meta": M{"jetbrains": M{"air": M{"version": 1, "customAnswer": M{"questionId": customQ, "isCustomAnswer": true}}},
					"_askUserQuestionCustomAnswer": M{"questionId": customQ, "isCustomAnswer": true}}},
		}}}})
}

func TestRules(t *testing.T) {
	tests := []struct {
		name    string
		msgs    func(t *testing.T) []validate.Message
		rule    string // "" = no error at all
		pointer string
	}{
		{name: "elicitation with a custom answer, answered", msgs: func(t *testing.T) []validate.Message {
			return conv(t, elicitation(t, "question_0"),
				editor(t, M{"jsonrpc": "2.0", "id": 7, "result": M{"action": "accept", "content": M{"question_0": "red"}}}))
		}},
		{name: "customAnswer names no field", msgs: func(t *testing.T) []validate.Message {
			return conv(t, elicitation(t, "question_9"))
		}, rule: "custom-answer-question", pointer: "/params/requestedSchema/properties/question_0_other/_meta/jetbrains/air/customAnswer/questionId"},
		{name: "answer with a field that was not asked", msgs: func(t *testing.T) []validate.Message {
			return conv(t, elicitation(t, "question_0"),
				editor(t, M{"jsonrpc": "2.0", "id": 7, "result": M{"action": "accept", "content": M{"question_0": "red", "colour": "red"}}}))
		}, rule: "elicitation-answer-fields", pointer: "/result/content/colour"},
		{name: "answer without a required field", msgs: func(t *testing.T) []validate.Message {
			return conv(t, elicitation(t, "question_0"),
				editor(t, M{"jsonrpc": "2.0", "id": 7, "result": M{"action": "accept", "content": M{"question_0_other": "green"}}}))
		}, rule: "elicitation-answer-fields", pointer: "/result/content"},
		{name: "skill command", msgs: func(t *testing.T) []validate.Message {
			return conv(t, agent(t, update(M{"sessionUpdate": "available_commands_update", "availableCommands": []any{
				M{"name": "pdf", "description": "PDF skill", "_meta": airMeta(M{"kind": "skill", "skillPath": "/home/me/.claude/skills/pdf/SKILL.md"})}}})))
		}},
		{name: "skillPath without kind skill", msgs: func(t *testing.T) []validate.Message {
			return conv(t, agent(t, update(M{"sessionUpdate": "available_commands_update", "availableCommands": []any{
				M{"name": "pdf", "description": "PDF skill", "_meta": airMeta(M{"skillPath": "/home/me/.claude/skills/pdf/SKILL.md"})}}})))
		}, rule: "skill-path-with-kind", pointer: "/params/update/availableCommands/0/_meta/jetbrains/air/skillPath"},
		{name: "recommendedValue names no option", msgs: func(t *testing.T) []validate.Message {
			return conv(t, agent(t, update(M{"sessionUpdate": "config_option_update", "configOptions": []any{
				M{"id": "model", "name": "Model", "type": "select", "currentValue": "sonnet",
					"options": []any{M{"value": "opus", "name": "Opus"}, M{"value": "sonnet", "name": "Sonnet"}},
					"_meta":   airMeta(M{"recommendedValue": "haiku"})}}})))
		}, rule: "recommended-value-option", pointer: "/params/update/configOptions/0/_meta/jetbrains/air/recommendedValue"},
		{name: "compaction_update carries no error in AIR meta", msgs: func(t *testing.T) []validate.Message {
			return conv(t, agent(t, update(M{"sessionUpdate": "compaction_update", "compactionId": "c1", "status": "failed",
				"_meta": airMeta(M{"contextCompaction": M{"version": 1, "error": "boom"}})})))
		}, rule: "https://airwire.dev/schemas/air/context-compaction-update.schema.json", pointer: "/params/update/_meta/jetbrains/air/contextCompaction"},
		{name: "goal cleared", msgs: func(t *testing.T) []validate.Message {
			return conv(t, agent(t, update(M{"sessionUpdate": "session_info_update", "_meta": airMeta(M{"goal": nil})})))
		}},
		{name: "removed _meta.goal", msgs: func(t *testing.T) []validate.Message {
			return conv(t, agent(t, update(M{"sessionUpdate": "session_info_update", "_meta": M{"goal": nil}})))
		}, rule: "removed-key", pointer: "/params/update/_meta/goal"},
		{name: "subagent child session may get updates once announced", msgs: func(t *testing.T) []validate.Message {
			return conv(t,
				agent(t, update(M{"sessionUpdate": "subagent_spawned", "subagentSessionId": "child-1", "name": "general-purpose", "task": "Find", "capabilities": M{}})),
				agent(t, M{"jsonrpc": "2.0", "method": "session/update", "params": M{"sessionId": "child-1", "update": M{"sessionUpdate": "agent_message_chunk", "content": M{"type": "text", "text": "hi"}}}}))
		}},
		{name: "list changes notification", msgs: func(t *testing.T) []validate.Message {
			return conv(t, agent(t, M{"jsonrpc": "2.0", "method": "_session/list/changes", "params": M{"subscriptionId": "s1", "removed": []any{},
				"sessions": []any{M{"sessionId": sid, "cwd": "/w", "_meta": airMeta(M{"archived": false, "state": "running"})}}}}))
		}},
		{name: "list changes row with an unknown key", msgs: func(t *testing.T) []validate.Message {
			return conv(t, agent(t, M{"jsonrpc": "2.0", "method": "_session/list/changes", "params": M{"subscriptionId": "s1", "removed": []any{},
				"sessions": []any{M{"sessionId": sid, "cwd": "/w", "_meta": airMeta(M{"archived": false, "pinned": true})}}}}))
		}, rule: "air-unknown-key", pointer: "/params/sessions/0/_meta/jetbrains/air/pinned"},
		{name: "rename request and result", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 40, "method": "_session/rename", "params": M{"sessionId": sid, "title": "New"}}),
				agent(t, M{"jsonrpc": "2.0", "id": 40, "result": M{}}))
		}},
		{name: "rename result with fields", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 40, "method": "_session/rename", "params": M{"sessionId": sid, "title": "New"}}),
				agent(t, M{"jsonrpc": "2.0", "id": 40, "result": M{"title": "New"}}))
		}, rule: "https://airwire.dev/schemas/air/session-rename-result.schema.json", pointer: "/result/title"},
		{name: "fork point from the editor", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 41, "method": "session/fork", "params": M{"sessionId": sid, "cwd": "/w",
				"_meta": airMeta(M{"fork": M{"version": 1, "messageId": " "}})}}))
		}, rule: "https://airwire.dev/schemas/air/fork.schema.json", pointer: "/params/_meta/jetbrains/air/fork/messageId"},
		{name: "list options from the editor", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 42, "method": "session/list", "params": M{"cwd": "/w",
				"_meta": airMeta(M{"list": M{"archived": true}})}}))
		}, rule: "https://airwire.dev/schemas/air/session-list-options.schema.json", pointer: "/params/_meta/jetbrains/air/list/archived"},
		{name: "agent sends a client-only key", msgs: func(t *testing.T) []validate.Message {
			return conv(t, agent(t, M{"jsonrpc": "2.0", "id": 43, "method": "session/prompt", "params": M{"sessionId": sid, "prompt": []any{},
				"_meta": airMeta(M{"agentFileChangeReportRequest": M{"version": 1, "requestId": "r"}})}}))
		}, rule: "air-direction", pointer: "/params/_meta/jetbrains/air"},
		{name: "unknown ACP method", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 44, "method": "session/rewind", "params": M{}}))
		}, rule: "acp-unknown-method", pointer: "/method"},
		{name: "agent sends an editor's method", msgs: func(t *testing.T) []validate.Message {
			return conv(t, agent(t, M{"jsonrpc": "2.0", "id": 45, "method": "session/prompt", "params": M{"sessionId": sid, "prompt": []any{}}}))
		}, rule: "acp-method-side", pointer: "/method"},
		{name: "tool_call_update leaves out the unchanged air version", msgs: func(t *testing.T) []validate.Message {
			return conv(t,
				agent(t, update(M{"sessionUpdate": "tool_call", "toolCallId": "b", "title": "npm run dev", "kind": "execute", "_meta": airMeta(M{"commandTitle": "Dev server"})})),
				agent(t, update(M{"sessionUpdate": "tool_call_update", "toolCallId": "b", "_meta": M{"jetbrains": M{"air": M{"asyncTasks": M{"backgrounded": true}}}}})))
		}},
		{name: "tool_call_update without a version sent before", msgs: func(t *testing.T) []validate.Message {
			return conv(t,
				agent(t, update(M{"sessionUpdate": "tool_call", "toolCallId": "b", "title": "npm run dev", "kind": "execute"})),
				agent(t, update(M{"sessionUpdate": "tool_call_update", "toolCallId": "b", "_meta": M{"jetbrains": M{"air": M{"asyncTasks": M{"backgrounded": true}}}}})))
		}, rule: "air-version", pointer: "/params/update/_meta/jetbrains/air/version"},
		{name: "fractional id", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 1.5, "method": "session/cancel", "params": M{"sessionId": sid}}))
		}, rule: "jsonrpc-envelope", pointer: "/id"},
		{name: "result and error together", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 47, "method": "session/close", "params": M{"sessionId": sid}}),
				agent(t, M{"jsonrpc": "2.0", "id": 47, "result": M{}, "error": M{"code": -32603, "message": "x"}}))
		}, rule: "jsonrpc-envelope", pointer: ""},
		{name: "error with a string code", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 48, "method": "session/close", "params": M{"sessionId": sid}}),
				agent(t, M{"jsonrpc": "2.0", "id": 48, "error": M{"code": "bad", "message": "x"}}))
		}, rule: "acp:#/$defs/Error", pointer: "/error/code"},
		{name: "a notification sent as a request", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 46, "method": "session/cancel", "params": M{"sessionId": sid}}))
		}, rule: "acp-method-kind", pointer: "/params"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, tt.msgs(t))
			var errs []validate.Finding
			for _, f := range got {
				if f.Severity == validate.SeverityError {
					errs = append(errs, f)
				}
			}
			if tt.rule == "" {
				for _, f := range errs {
					t.Errorf("unexpected: %s", f)
				}
				return
			}
			for _, f := range errs {
				if f.Rule == tt.rule && f.Pointer == tt.pointer {
					return
				}
			}
			t.Errorf("want %s at %s; got:", tt.rule, tt.pointer)
			for _, f := range got {
				t.Logf("  %s", f)
			}
		})
	}
}
