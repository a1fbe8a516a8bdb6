package validate_test

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/schemas/validate"
)

// The rules of failuretitle.go, sessionlist.go, filechange.go,
// declaration.go and permask.go: each with a conversation that breaks it
// and one that keeps it.

func failureUpdate(t *testing.T, title string) validate.Message {
	return agent(t, update(M{"sessionUpdate": "session_info_update", "_meta": airMeta(M{"sessionFailure": M{
		"id": sid + ":notice:1:1", "revision": 1, "category": "service", "severity": "warning", "title": title, "actions": []any{}}})}))
}

// indexList is a session/list request of a sessionIndex client; limit nil
// leaves the list options out.
func indexList(t *testing.T, id int, cursor, limit any) validate.Message {
	params := M{"cwd": "/w", "cursor": cursor}
	if limit != nil {
		params["_meta"] = airMeta(M{"list": M{"limit": limit}})
	}
	return editor(t, M{"jsonrpc": "2.0", "id": id, "method": "session/list", "params": params})
}

// rows is a session/list result with n rows named from first on.
func rows(t *testing.T, id, first, n int, next string) validate.Message {
	list := []any{}
	for i := range n {
		list = append(list, M{"sessionId": fmt.Sprintf("%08d-0000-4000-8000-000000000000", first+i), "cwd": "/w",
			"updatedAt": "2026-01-01T00:00:00Z", "_meta": airMeta(M{"archived": false})})
	}
	res := M{"sessions": list}
	if next != "" {
		res["nextCursor"] = next
	}
	return agent(t, M{"jsonrpc": "2.0", "id": id, "result": res})
}

func fcrPrompt(t *testing.T, id int, req M) validate.Message {
	return editor(t, M{"jsonrpc": "2.0", "id": id, "method": "session/prompt", "params": M{"sessionId": sid,
		"prompt": []any{M{"type": "text", "text": "edit"}}, "_meta": airMeta(M{"agentFileChangeReportRequest": req})}})
}

func fcrReport(t *testing.T, requestID string, paths ...any) validate.Message {
	if paths == nil {
		paths = []any{}
	}
	rep := M{"version": 1, "requestId": requestID, "status": "reported", "paths": paths, "declaredComplete": false, "truncated": false}
	return agent(t, update(M{"sessionUpdate": "session_info_update", "_meta": airMeta(M{"agentFileChangeReport": rep})}))
}

func endTurn(t *testing.T, id int) validate.Message {
	return agent(t, M{"jsonrpc": "2.0", "id": id, "result": M{"stopReason": "end_turn"}})
}

// cwd is the working directory of conv's session/new.
const cwd = "/scratch/peer/cwd-new"

type ruleCase struct {
	name    string
	msgs    func(t *testing.T) []validate.Message
	rule    string // "" = no error at all
	pointer string
}

func failureTitleCases() []ruleCase {
	keep := func(title string) func(t *testing.T) []validate.Message {
		return func(t *testing.T) []validate.Message { return conv(t, failureUpdate(t, title)) }
	}
	const ptr = "/params/update/_meta/jetbrains/air/sessionFailure/title"
	return []ruleCase{
		{name: "title with a slash command", msgs: keep("You've hit your limit · run /usage-credits to ask your admin")},
		{name: "title with a model id and a price", msgs: keep("claude-sonnet-4-5-20250929 declined; retried. Reached maximum budget ($0.0004)")},
		{name: "title with a loopback address", msgs: keep("API Error: 529 Overloaded. Check your inference gateway (127.0.0.1:44471)."),
			rule: validate.RuleFailureTitleLeak, pointer: ptr},
		{name: "title with a URL", msgs: keep("Request to https://api.anthropic.com/v1/messages failed"), rule: validate.RuleFailureTitleLeak, pointer: ptr},
		{name: "title with a host and port", msgs: keep("Cannot reach gateway.internal.example:8443"), rule: validate.RuleFailureTitleLeak, pointer: ptr},
		{name: "title with an API key", msgs: keep("Invalid key sk-ant-api03-abcdefghijkl"), rule: validate.RuleFailureTitleLeak, pointer: ptr},
		{name: "title with a bearer token", msgs: keep("Authorization: Bearer eyJhbGciOi.x"), rule: validate.RuleFailureTitleLeak, pointer: ptr},
		{name: "title with a hex secret", msgs: keep("token 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 rejected"),
			rule: validate.RuleFailureTitleLeak, pointer: ptr},
		{name: "title with a private path", msgs: keep("Cannot read /home/me/.claude/settings.json"), rule: validate.RuleFailureTitleLeak, pointer: ptr},
		{name: "title with a Windows path", msgs: keep(`Cannot read C:\Users\me\config.json`), rule: validate.RuleFailureTitleLeak, pointer: ptr},
	}
}

func sessionListCases() []ruleCase {
	return []ruleCase{
		{name: "a listing over three pages", msgs: func(t *testing.T) []validate.Message {
			return conv(t, indexList(t, 90, nil, nil), rows(t, 90, 0, 50, "c-1"), indexList(t, 91, "c-1", 200),
				rows(t, 91, 50, 200, "c-2"), indexList(t, 92, "c-2", 2), rows(t, 92, 250, 1, ""))
		}},
		{name: "more rows than the default limit", msgs: func(t *testing.T) []validate.Message {
			return conv(t, indexList(t, 90, nil, nil), rows(t, 90, 0, 51, ""))
		}, rule: validate.RuleListPageSize, pointer: "/result/sessions"},
		{name: "more rows than 200 for a larger limit", msgs: func(t *testing.T) []validate.Message {
			return conv(t, indexList(t, 90, nil, 500), rows(t, 90, 0, 201, ""))
		}, rule: validate.RuleListPageSize, pointer: "/result/sessions"},
		{name: "an empty page with a nextCursor", msgs: func(t *testing.T) []validate.Message {
			return conv(t, indexList(t, 90, nil, nil), rows(t, 90, 0, 0, "c-1"))
		}, rule: validate.RuleListEmptyPage, pointer: "/result/nextCursor"},
		{name: "a row repeated on the next page", msgs: func(t *testing.T) []validate.Message {
			return conv(t, indexList(t, 90, nil, 2), rows(t, 90, 0, 2, "c-1"), indexList(t, 91, "c-1", 2), rows(t, 91, 1, 2, ""))
		}, rule: validate.RuleListRepeatedRow, pointer: "/result/sessions/0/sessionId"},
		{name: "a new listing may list the same rows again", msgs: func(t *testing.T) []validate.Message {
			return conv(t, indexList(t, 90, nil, 2), rows(t, 90, 0, 2, "c-1"), indexList(t, 91, nil, 2), rows(t, 91, 0, 2, ""))
		}},
	}
}

func fileChangeCases() []ruleCase {
	ok := M{"version": 1, "requestId": "req-1"}
	return []ruleCase{
		{name: "one report per request", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, ok), fcrReport(t, "req-1", cwd+"/src/a.ts", "/private"+cwd+"/b.ts"), endTurn(t, 60))
		}},
		{name: "a second report for one request", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, ok), fcrReport(t, "req-1"), fcrReport(t, "req-1"), endTurn(t, 60))
		}, rule: validate.RuleFileChangeRepeated, pointer: "/params/update/_meta/jetbrains/air/agentFileChangeReport/requestId"},
		{name: "a report for a repeated request id", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, ok), fcrReport(t, "req-1"), endTurn(t, 60), fcrPrompt(t, 61, ok), fcrReport(t, "req-1"), endTurn(t, 61))
		}, rule: validate.RuleFileChangeRepeated, pointer: "/params/update/_meta/jetbrains/air/agentFileChangeReport/requestId"},
		{name: "a repeated request id gets no report", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, ok), fcrReport(t, "req-1"), endTurn(t, 60), fcrPrompt(t, 61, ok), endTurn(t, 61))
		}},
		{name: "a report for a malformed request", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, M{"version": 1, "requestId": "req-1", "extra": true}), fcrReport(t, "req-1"), endTurn(t, 60))
		}, rule: validate.RuleFileChangeUnrequested, pointer: "/params/update/_meta/jetbrains/air/agentFileChangeReport/requestId"},
		{name: "a malformed request gets no report", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, M{"version": 2, "requestId": "req-1"}), endTurn(t, 60))
		}},
		{name: "no report before the PromptResponse", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, ok), endTurn(t, 60))
		}, rule: validate.RuleFileChangeMissing, pointer: "/result"},
		{name: "a path outside the roots", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, ok), fcrReport(t, "req-1", cwd+"/a.ts", "/etc/passwd"), endTurn(t, 60))
		}, rule: validate.RuleFileChangePath, pointer: "/params/update/_meta/jetbrains/air/agentFileChangeReport/paths/1"},
		{name: "the root itself", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, ok), fcrReport(t, "req-1", cwd+"/"), endTurn(t, 60))
		}, rule: validate.RuleFileChangePath, pointer: "/params/update/_meta/jetbrains/air/agentFileChangeReport/paths/0"},
		{name: "a path with a sibling's name prefix", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, ok), fcrReport(t, "req-1", cwd+"-other/a.ts"), endTurn(t, 60))
		}, rule: validate.RuleFileChangePath, pointer: "/params/update/_meta/jetbrains/air/agentFileChangeReport/paths/0"},
		{name: "a path with a control character", msgs: func(t *testing.T) []validate.Message {
			return conv(t, fcrPrompt(t, 60, ok), fcrReport(t, "req-1", cwd+"/a\tb.ts"), endTurn(t, 60))
		}, rule: validate.RuleFileChangePath, pointer: "/params/update/_meta/jetbrains/air/agentFileChangeReport/paths/0"},
		{name: "a report over 256 KiB", msgs: func(t *testing.T) []validate.Message {
			var paths []any
			for i := range 70 {
				paths = append(paths, fmt.Sprintf("%s/%04d/%s", cwd, i, strings.Repeat("x", 4000)))
			}
			return conv(t, fcrPrompt(t, 60, ok), fcrReport(t, "req-1", paths...), endTurn(t, 60))
		}, rule: validate.RuleFileChangeSize, pointer: "/params/update/_meta/jetbrains/air/agentFileChangeReport"},
	}
}

func TestContractRules(t *testing.T) {
	var tests []ruleCase
	tests = append(tests, failureTitleCases()...)
	tests = append(tests, sessionListCases()...)
	tests = append(tests, fileChangeCases()...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkAgentWanted(t, runToEnd(t, tt.msgs(t)), tt.rule, tt.pointer)
		})
	}
}

// checkAgentWanted wants an error of rule at pointer on an agent message,
// or no error on an agent message for rule "" (the editor's malformed
// requests are the editor's findings).
func checkAgentWanted(t *testing.T, got []validate.Finding, rule, pointer string) {
	t.Helper()
	for _, f := range got {
		if f.Severity != validate.SeverityError || f.Dir != validate.DirAgent {
			continue
		}
		if rule == "" {
			t.Errorf("unexpected: %s", f)
		} else if f.Rule == rule && f.Pointer == pointer {
			return
		}
	}
	if rule != "" {
		t.Errorf("want %s at %s (the agent's); got:", rule, pointer)
		for _, f := range got {
			t.Logf("  %s", f)
		}
	}
}

// declared is conv's setup with the client's _meta.jetbrains.air
// declaration replaced by decl, followed by extra messages.
func declared(t *testing.T, decl M, extra ...validate.Message) []validate.Message {
	base := mutate(t, messages(t, "air-session")[:5], `"clientCapabilities"`, func(m map[string]any) {
		obj(m, "params", "clientCapabilities", "_meta", "jetbrains")["air"] = decl
	})
	return conv2(base, extra...)
}

func diffPatchCall(t *testing.T) validate.Message {
	return agent(t, update(M{"sessionUpdate": "tool_call", "toolCallId": "e1", "title": "Edit a.txt", "kind": "edit", "status": "pending",
		"content": []any{M{"type": "diff", "path": cwd + "/a.txt", "oldText": nil, "newText": "", "_meta": airMeta(M{"diffPatch": M{
			"version": 1, "format": "git_patch", "text": "diff --git a" + cwd + "/a.txt b" + cwd + "/a.txt\n--- a" + cwd + "/a.txt\n+++ b" + cwd + "/a.txt\n@@ -1 +1 @@\n-old\n+new\n"}})}}}))
}

func asyncSpawn(t *testing.T) validate.Message {
	return agent(t, update(M{"sessionUpdate": "async_task_spawned", "asyncTaskId": "t1", "name": "npm run dev", "taskType": "shell",
		"description": "Dev server", "showInTranscript": true, "canStop": true}))
}

var allCaps = []any{"diffPatch", "rawInputRendering", "sessionFailure", "recommendedValue", "asyncTasks", "agentFileChangeReport",
	"nativeSubagentSessions", "planFile", "sessionIndex"}

func TestMalformedDeclaration(t *testing.T) {
	const patchPtr = "/params/update/content/0/_meta/jetbrains/air/diffPatch"
	tests := []struct {
		name    string
		msgs    func(t *testing.T) []validate.Message
		rule    string
		pointer string
	}{
		{name: "version 1", msgs: func(t *testing.T) []validate.Message {
			return declared(t, M{"version": 1, "capabilities": allCaps}, diffPatchCall(t), asyncSpawn(t))
		}},
		{name: "version 2", msgs: func(t *testing.T) []validate.Message {
			return declared(t, M{"version": 2, "capabilities": allCaps}, diffPatchCall(t))
		}},
		{name: "version 1.0 is the integer 1", msgs: func(t *testing.T) []validate.Message {
			return declared(t, M{"version": json.Number("1.0"), "capabilities": allCaps}, diffPatchCall(t))
		}},
		{name: "version 0", msgs: func(t *testing.T) []validate.Message {
			return declared(t, M{"version": 0, "capabilities": allCaps}, diffPatchCall(t))
		}, rule: validate.RuleMalformedDeclaration, pointer: patchPtr},
		{name: "version 1.5", msgs: func(t *testing.T) []validate.Message {
			return declared(t, M{"version": 1.5, "capabilities": allCaps}, diffPatchCall(t))
		}, rule: validate.RuleMalformedDeclaration, pointer: patchPtr},
		{name: "version a string", msgs: func(t *testing.T) []validate.Message {
			return declared(t, M{"version": "1", "capabilities": allCaps}, diffPatchCall(t))
		}, rule: validate.RuleMalformedDeclaration, pointer: patchPtr},
		{name: "no version", msgs: func(t *testing.T) []validate.Message {
			return declared(t, M{"capabilities": allCaps}, diffPatchCall(t))
		}, rule: validate.RuleMalformedDeclaration, pointer: patchPtr},
		{name: "capabilities not an array", msgs: func(t *testing.T) []validate.Message {
			return declared(t, M{"version": 1, "capabilities": "asyncTasks"}, asyncSpawn(t))
		}, rule: validate.RuleMalformedDeclaration, pointer: "/params/update/sessionUpdate"},
		{name: "capabilities an object", msgs: func(t *testing.T) []validate.Message {
			return declared(t, M{"version": 1, "capabilities": M{"sessionFailure": true}}, failureUpdate(t, "Retrying Claude, attempt 1 of 3."))
		}, rule: validate.RuleMalformedDeclaration, pointer: "/params/update/_meta/jetbrains/air/sessionFailure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkAgentWanted(t, runToEnd(t, tt.msgs(t)), tt.rule, tt.pointer)
		})
	}
}

// canUseTool is the CLI's permission request (cli lane) for tool use tc1,
// with matched_ask_rule when ask.
func canUseTool(t *testing.T, ask bool) validate.Message {
	req := M{"subtype": "can_use_tool", "tool_name": "Write", "input": M{"file_path": cwd + "/a.txt"}, "tool_use_id": "tc1"}
	if ask {
		req["matched_ask_rule"] = M{"source": "userSettings", "tool_name": "Write"}
	}
	return validate.Message{Lane: validate.LaneCLI, Dir: "cli", Msg: mustJSON(t, M{"type": "control_request", "request_id": "r1", "request": req})}
}

// askWith is permissionAsk's request offering a persistent allow too when
// always.
func askWith(t *testing.T, always bool) []validate.Message {
	opts := []any{M{"optionId": "allow-once", "name": "Allow", "kind": "allow_once"}}
	if always {
		opts = append(opts, M{"optionId": "allow-with-updates", "name": "Allow, and don't ask again for edits", "kind": "allow_always"})
	}
	opts = append(opts, M{"optionId": "reject", "name": "Reject", "kind": "reject_once"})
	return []validate.Message{
		agent(t, update(M{"sessionUpdate": "tool_call", "toolCallId": "tc1", "title": "Write a.txt", "kind": "edit", "status": "pending"})),
		agent(t, M{"jsonrpc": "2.0", "id": 70, "method": "session/request_permission", "params": M{"sessionId": sid,
			"toolCall": M{"toolCallId": "tc1"}, "options": opts}}),
		outcome(t, 70, M{"outcome": "selected", "optionId": "allow-once"}),
	}
}

// withCLI is conv(t, msgs...) that keeps the cli lane of its cli messages.
func withCLI(t *testing.T, msgs ...validate.Message) []validate.Message {
	out := conv(t, msgs...)
	for i := 5; i < len(out); i++ {
		out[i].Lane = cmpLane(msgs[i-5].Lane)
	}
	return out
}

func cmpLane(l string) string {
	if l == "" {
		return validate.LaneACP
	}
	return l
}

func TestPermissionAskRule(t *testing.T) {
	tests := []struct {
		name string
		msgs func(t *testing.T) []validate.Message
		rule string
	}{
		{name: "ask rule, one-time choices only", msgs: func(t *testing.T) []validate.Message {
			return withCLI(t, cat(canUseTool(t, true), askWith(t, false))...)
		}},
		{name: "no ask rule, a persistent choice", msgs: func(t *testing.T) []validate.Message {
			return withCLI(t, cat(canUseTool(t, false), askWith(t, true))...)
		}},
		{name: "ask rule, a persistent choice", msgs: func(t *testing.T) []validate.Message {
			return withCLI(t, cat(canUseTool(t, true), askWith(t, true))...)
		}, rule: validate.RulePermissionAskRule},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := tt.msgs(t)
			ptr := ""
			if tt.rule != "" {
				ptr = "/params/options/1/kind"
			}
			checkAgentWanted(t, runToEnd(t, msgs), tt.rule, ptr)
			// The same journal read by Entries: the cli lane reaches the rule.
			a, s := schemas(t)
			rep, err := validate.Entries(entriesOf2(msgs), validate.New(a, s))
			if err != nil {
				t.Fatal(err)
			}
			checkAgentWanted(t, rep.Findings, tt.rule, ptr)
		})
	}
}

// entriesOf2 is msgs as journal entries, each on its own lane.
func entriesOf2(msgs []validate.Message) func() (journal.Entry, error) {
	i := 0
	return func() (journal.Entry, error) {
		if i >= len(msgs) {
			return journal.Entry{}, io.EOF
		}
		m := msgs[i]
		i++
		return journal.Entry{Seq: m.Seq, Kind: journal.KindMsg, Lane: journal.Lane(m.Lane), Dir: journal.Dir(m.Dir), Msg: m.Msg}, nil
	}
}
