package fakecli

import (
	"reflect"
	"testing"
)

func TestControlRequests(t *testing.T) {
	tests := []struct {
		name    string
		script  string
		req     map[string]any
		wantErr string
		// wantBody checks the success body; nil means no response key.
		wantBody map[string]any
		// wantKeys are keys the body must have (for large bodies).
		wantKeys []string
		// wantAfter is the label of a frame written after (or before) the reply.
		wantAfter string
	}{
		{name: "initialize", req: map[string]any{"subtype": "initialize", "hooks": map[string]any{}},
			wantKeys: []string{"commands", "agents", "models", "account", "output_style", "available_output_styles", "pid", "claude_code_version", "current_permission_mode", "session_state"}},
		{name: "initialize with script override", script: "init: {output_style: Concise}\n",
			req: map[string]any{"subtype": "initialize"}, wantKeys: []string{"models"}},
		{name: "interrupt while idle", req: map[string]any{"subtype": "interrupt"}, wantBody: map[string]any{"still_queued": []any{}}},
		{name: "set_permission_mode", req: map[string]any{"subtype": "set_permission_mode", "mode": "acceptEdits"},
			wantBody: map[string]any{"mode": "acceptEdits"}, wantAfter: "system:status"},
		{name: "set_permission_mode bad", req: map[string]any{"subtype": "set_permission_mode", "mode": "yolo"}, wantErr: "Invalid permission mode: yolo"},
		{name: "set_model", req: map[string]any{"subtype": "set_model", "model": "sonnet"}, wantBody: map[string]any{"model": "sonnet"}},
		{name: "set_max_thinking_tokens", req: map[string]any{"subtype": "set_max_thinking_tokens", "max_thinking_tokens": float64(0)}},
		{name: "get_settings", req: map[string]any{"subtype": "get_settings"}, wantKeys: []string{"effective", "sources", "applied"}},
		{name: "apply_flag_settings", req: map[string]any{"subtype": "apply_flag_settings", "settings": map[string]any{"effortLevel": "medium"}}},
		{name: "get_context_usage", req: map[string]any{"subtype": "get_context_usage", "detail": "summary"},
			wantKeys: []string{"categories", "totalTokens", "maxTokens", "rawMaxTokens", "percentage"}},
		{name: "mcp_status", req: map[string]any{"subtype": "mcp_status"}, wantBody: map[string]any{"mcpServers": []any{}}},
		{name: "list_models", req: map[string]any{"subtype": "list_models"}, wantKeys: []string{"models"}},
		{name: "rewind_files", req: map[string]any{"subtype": "rewind_files", "user_message_id": "x", "dry_run": true},
			wantBody: map[string]any{"canRewind": true, "filesChanged": []any{}, "insertions": float64(0), "deletions": float64(0)}},
		{name: "rename_session", req: map[string]any{"subtype": "rename_session", "title": "New title"}, wantAfter: "system:session_title_changed"},
		{name: "generate_session_title", req: map[string]any{"subtype": "generate_session_title", "description": "Fix the parser\nand more", "persist": true},
			wantBody: map[string]any{"title": "Fix the parser"}},
		{name: "generate_session_title too short", req: map[string]any{"subtype": "generate_session_title", "description": "hi"},
			wantBody: map[string]any{"title": nil}},
		{name: "stop_task", req: map[string]any{"subtype": "stop_task", "task_id": "task_1"}},
		{name: "stop_task without id", req: map[string]any{"subtype": "stop_task"}, wantErr: "stop_task requires task_id"},
		{name: "unknown subtype", req: map[string]any{"subtype": "bogus_subtype"}, wantErr: "Unsupported control request subtype: bogus_subtype"},
		{name: "script error override", script: "controls: {mcp_status: {error: boom}}\n", req: map[string]any{"subtype": "mcp_status"}, wantErr: "boom"},
		{name: "script response override", script: "controls: {get_session_cost: {response: {total_cost_usd: 1}}}\n",
			req: map[string]any{"subtype": "get_session_cost"}, wantBody: map[string]any{"total_cost_usd": float64(1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t, streamArgv, tt.script)
			p.control("r1", tt.req)
			fs := p.until(func(f map[string]any) bool { return f["type"] == "control_response" })
			resp := fs[len(fs)-1]["response"].(map[string]any)
			if resp["request_id"] != "r1" {
				t.Fatalf("request_id = %v", resp["request_id"])
			}
			if tt.wantErr != "" {
				if resp["subtype"] != "error" || resp["error"] != tt.wantErr {
					t.Fatalf("got %v, want error %q", resp, tt.wantErr)
				}
				return
			}
			if resp["subtype"] != "success" {
				t.Fatalf("got %v, want success", resp)
			}
			body, hasBody := resp["response"].(map[string]any)
			switch {
			case tt.wantKeys != nil:
				for _, k := range tt.wantKeys {
					if _, ok := body[k]; !ok {
						t.Errorf("response lacks %q: %v", k, body)
					}
				}
			case tt.wantBody != nil:
				if !reflect.DeepEqual(body, tt.wantBody) {
					t.Errorf("response = %v, want %v", body, tt.wantBody)
				}
			default:
				if hasBody {
					t.Errorf("response = %v, want none", body)
				}
			}
			if tt.wantAfter != "" {
				// The frame comes right before (title) or right after (status) the reply.
				found := false
				for _, f := range fs {
					found = found || label(f) == tt.wantAfter
				}
				if !found {
					f := p.next()
					found = label(f) == tt.wantAfter
				}
				if !found {
					t.Errorf("no %s frame around the reply", tt.wantAfter)
				}
			}
		})
	}
}

func TestInitializeOverrideMerges(t *testing.T) {
	p := start(t, streamArgv, "init: {output_style: Concise}\nstart: [{system: {subtype: commands_changed, commands: []}}]\n")
	p.control("i", map[string]any{"subtype": "initialize"})
	body := p.response("i")["response"].(map[string]any)
	if body["output_style"] != "Concise" {
		t.Errorf("output_style = %v, want the script's Concise", body["output_style"])
	}
	if _, ok := body["models"]; !ok {
		t.Error("override dropped the default models")
	}
	if f := p.next(); label(f) != "system:commands_changed" || f["session_id"] != testSession {
		t.Errorf("start frame = %v", f)
	}
}

func TestRenameWritesTitleRow(t *testing.T) {
	p := start(t, streamArgv, "")
	p.control("r", map[string]any{"subtype": "rename_session", "title": "Renamed"})
	p.response("r")
	rows := readTranscript(t, p, testSession)
	if len(rows) != 1 || rows[0]["type"] != "custom-title" || rows[0]["customTitle"] != "Renamed" || rows[0]["sessionId"] != testSession {
		t.Fatalf("transcript rows = %v", rows)
	}
}

func TestHookMatchers(t *testing.T) {
	tests := []struct {
		name, matcher, tool string
		want                bool
	}{
		{"no matcher", "", "Bash", true},
		{"star", "*", "Bash", true},
		{"exact", "Bash", "Bash", true},
		{"exact miss", "Bash", "BashOutput", false},
		{"alternation", "Edit|Write", "Write", true},
		{"alternation miss", "Edit|Write", "Read", false},
		{"event without tool", "Edit", "", true},
		{"mcp pattern", "mcp__.*", "mcp__github__search", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &cli{hooks: map[string][]hookMatcher{}, skipHooks: map[string]bool{}}
			c.registerHooks(map[string]any{"PostToolUse": []any{map[string]any{"matcher": tt.matcher, "hookCallbackIds": []any{"hook_1"}}}})
			got := len(c.hookIDs("PostToolUse", tt.tool)) == 1
			if got != tt.want {
				t.Errorf("matcher %q on %q = %v, want %v", tt.matcher, tt.tool, got, tt.want)
			}
		})
	}
}
