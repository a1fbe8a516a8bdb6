package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

func kinds(actions []Action) string {
	var out []string
	for _, a := range actions {
		switch a.Kind {
		case ActEmit:
			f := a.Frame
			switch f["type"] {
			case "stream_event":
				out = append(out, "ev:"+f["event"].(map[string]any)["type"].(string))
			case "system":
				if s, ok := f["state"].(string); ok {
					out = append(out, "state:"+s)
				} else {
					out = append(out, "status")
				}
			default:
				out = append(out, f["type"].(string))
			}
		case ActRequest:
			out = append(out, "request:"+a.Frame["subtype"].(string))
		case ActHook:
			out = append(out, "hook:"+a.Hook.Event)
		case ActWriteFile:
			out = append(out, "write")
		default:
			out = append(out, "other")
		}
	}
	return strings.Join(out, " ")
}

func TestBuilderTool(t *testing.T) {
	tests := []struct {
		name      string
		step      ToolStep
		want      string
		wantAllow string
		wantDeny  string
	}{
		{
			name: "no permission, default PreToolUse mid-stream and PostToolUse",
			step: ToolStep{Name: "Read", Input: map[string]any{"file_path": "/a"}, Result: "text"},
			want: "ev:message_start ev:content_block_start ev:content_block_delta assistant hook:PreToolUse ev:content_block_stop ev:message_delta ev:message_stop hook:PostToolUse user",
		},
		{
			name: "ask with both hooks and a file",
			step: ToolStep{Name: "Write", Input: map[string]any{"file_path": "/a", "content": "x"}, Permission: "ask",
				Hooks: []string{HookPreToolUse, HookPostToolUse}, WriteFile: &FileWrite{Path: "a", Content: "x"}, Text: "Writing."},
			want: "ev:message_start ev:content_block_start ev:content_block_delta ev:content_block_delta assistant ev:content_block_stop " +
				"ev:content_block_start ev:content_block_delta ev:content_block_delta assistant hook:PreToolUse ev:content_block_stop ev:message_delta ev:message_stop " +
				"state:requires_action request:can_use_tool",
			wantAllow: "state:running write hook:PostToolUse user",
			wantDeny:  "state:running user",
		},
		{
			name: "error result sends PostToolUseFailure",
			step: ToolStep{Name: "Bash", Input: map[string]any{"command": "false"}, IsError: true, Result: "exit 1", Hooks: []string{"PostToolUseFailure"}},
			want: "ev:message_start ev:content_block_start ev:content_block_delta assistant ev:content_block_stop ev:message_delta ev:message_stop hook:PostToolUseFailure user",
		},
		{
			name: "no hooks",
			step: ToolStep{Name: "Glob", Hooks: []string{}},
			want: "ev:message_start ev:content_block_start ev:content_block_delta assistant ev:content_block_stop ev:message_delta ev:message_stop user",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acts := NewBuilder("").Tool(tt.step)
			if got := kinds(acts); got != tt.want {
				t.Errorf("actions:\n got %s\nwant %s", got, tt.want)
			}
			last := acts[len(acts)-1]
			if tt.wantAllow != "" {
				if got := kinds(last.Allow); got != tt.wantAllow {
					t.Errorf("allow branch = %s, want %s", got, tt.wantAllow)
				}
				if got := kinds(last.Deny); got != tt.wantDeny {
					t.Errorf("deny branch = %s, want %s", got, tt.wantDeny)
				}
				// A plain deny is a permission rule with the user's reject
				// decision; a deny that interrupts is user-rejected.
				b, _ := json.Marshal(last.Deny[1].Frame)
				if !strings.Contains(string(b), `"content":"{{deny_message}}"`) || !strings.Contains(string(b), `"is_error":true`) ||
					!strings.Contains(string(b), `"non_execution_kind":"permission-rule"`) ||
					!strings.Contains(string(b), `"permission_decision":{"decision":"reject","source":"user_reject"}`) {
					t.Errorf("deny result frame = %s", b)
				}
				b, _ = json.Marshal(last.DenyInterrupt[1].Frame)
				if !strings.Contains(string(b), `"non_execution_kind":"user-rejected"`) {
					t.Errorf("interrupting deny result frame = %s", b)
				}
			}
		})
	}
}

func TestBuilderIDsAndDeltas(t *testing.T) {
	b := NewBuilder("")
	acts := b.Tool(ToolStep{Name: "Bash", Input: map[string]any{"command": "ls -la", "description": "List files"}})
	var partial []string
	var msgID string
	for _, a := range acts {
		if ev, ok := a.Frame["event"].(map[string]any); ok {
			if d, ok := ev["delta"].(map[string]any); ok && d["type"] == "input_json_delta" {
				partial = append(partial, d["partial_json"].(string))
			}
		}
		if a.Frame["type"] == "assistant" {
			msgID = a.Frame["message"].(map[string]any)["id"].(string)
		}
	}
	if strings.Join(partial, "|") != `{"command":"ls -la"|,"description":"List files"}` {
		t.Errorf("input deltas = %q", partial)
	}
	if msgID != "msg_toolu_bash" {
		t.Errorf("message id = %q", msgID)
	}
	// After a tool result the next message is a new API request.
	text := "after"
	next := b.Step(Step{Text: &text})
	if kinds(next[:1]) != "status" {
		t.Errorf("next message does not start with status requesting: %s", kinds(next))
	}
	if ToolID("mcp__acp__Read") != "toolu_mcp__acp__read" || ToolID("Web-Fetch") != "toolu_web_fetch" {
		t.Errorf("ToolID = %q %q", ToolID("mcp__acp__Read"), ToolID("Web-Fetch"))
	}
	ids := NewIDs(NSTranscript)
	if a, b := ids.UUID(), ids.UUID(); a != "00000000-0000-4000-8100-000000000001" || b != "00000000-0000-4000-8100-000000000002" {
		t.Errorf("ids = %s %s", a, b)
	}
}

func TestTranscriptRender(t *testing.T) {
	user, answer := "Remember PELICAN", "OK"
	tr := &Transcript{SessionID: "11111111-2222-4333-8444-555555555555", Title: "Codeword", Rows: []TranscriptRow{
		{User: &user}, {Assistant: &answer},
		{Tool: &TranscriptTool{Name: "Read", Input: map[string]any{"file_path": "{{cwd}}/a"}, Result: "x"}},
	}}
	data, err := tr.Render("/w", map[string]string{"cwd": "/w"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var rows []map[string]any
	for _, l := range lines {
		var r map[string]any
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	var types []string
	for _, r := range rows {
		types = append(types, r["type"].(string))
	}
	if strings.Join(types, ",") != "user,assistant,assistant,user,last-prompt,custom-title" {
		t.Fatalf("types = %v", types)
	}
	for i := 1; i < 4; i++ {
		if rows[i]["parentUuid"] != rows[i-1]["uuid"] {
			t.Errorf("row %d parentUuid = %v, want %v", i, rows[i]["parentUuid"], rows[i-1]["uuid"])
		}
	}
	if rows[0]["parentUuid"] != nil || rows[4]["lastPrompt"] != user || !strings.Contains(lines[2], `"file_path":"/w/a"`) {
		t.Errorf("rows = %v", rows)
	}
}

func TestExpand(t *testing.T) {
	v := map[string]any{"a": "{{cwd}}/x", "b": []any{"{{ session_id }}", 3}, "c": "{{unknown}}"}
	got := Expand(v, map[string]string{"cwd": "/w", "session_id": "s"}).(map[string]any)
	if got["a"] != "/w/x" || got["b"].([]any)[0] != "s" || got["c"] != "{{unknown}}" || v["a"] != "{{cwd}}/x" {
		t.Errorf("Expand = %v (input %v)", got, v)
	}
	if ps := Placeholders(v); strings.Join(ps, ",") != "cwd,session_id,unknown" {
		t.Errorf("Placeholders = %v", ps)
	}
}

func TestClientCapabilities(t *testing.T) {
	air, err := ClientCapabilities(ProfileAir, &CapabilityChange{WithoutAir: []string{"diffPatch"}, AddAir: []string{"sessionIndex"},
		Merge: map[string]any{"session": map[string]any{"notices": map[string]any{}}}, Remove: []string{"_meta.terminal_output_delta"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(air)
	s := string(b)
	for _, want := range []string{`"sessionIndex"`, `"session":{"notices":{}}`, `"terminal_output":true`, `"agentFileChangeReport"`} {
		if !strings.Contains(s, want) {
			t.Errorf("air caps lack %s: %s", want, s)
		}
	}
	for _, gone := range []string{`"diffPatch"`, `terminal_output_delta`} {
		if strings.Contains(s, gone) {
			t.Errorf("air caps still hold %s: %s", gone, s)
		}
	}
	zed, _ := json.Marshal(must(ClientCapabilities(ProfileZed, nil)))
	if !strings.Contains(string(zed), `"terminal-auth":true`) || !strings.Contains(string(zed), `"auth":{"terminal":true}`) || strings.Contains(string(zed), "jetbrains") {
		t.Errorf("zed caps = %s", zed)
	}
	plain, _ := json.Marshal(must(ClientCapabilities(ProfilePlain, nil)))
	if string(plain) != `{"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}` {
		t.Errorf("plain caps = %s", plain)
	}
}
