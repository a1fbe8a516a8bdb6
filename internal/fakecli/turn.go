package fakecli

import (
	"strings"

	"github.com/airwire/airwire/internal/scenario"
)

// turnState is what a turn accumulates for its result frame.
type turnState struct {
	// promptUUID is the host's uuid of the user message, stamped on the
	// result as user_message_uuid (as SDK 0.3.246+ CLIs do).
	promptUUID string
	requests   int
	// toolInterrupt is set when a permission answer denied with interrupt:
	// the turn then ends the way the CLI ends a turn stopped at a tool use.
	toolInterrupt bool
	lastText      string
	denials       []any
	resulted      bool
}

// defaultTurn answers a prompt the script has no turn for.
func defaultTurn() scenario.Turn {
	t := "(fake-cli: no scripted turn for this prompt)"
	return scenario.Turn{Steps: []scenario.Step{{Text: &t}}}
}

// runTurn plays one user message: running, system/init, status requesting,
// the replayed prompt, the script's actions, the result and idle. It reports
// an exit code when a step ended the process.
func (c *cli) runTurn(msg map[string]any) (int, bool) {
	text := promptText(msg)
	turn := c.pickTurn(text)
	if turn == nil {
		d := defaultTurn()
		turn = &d
	}
	abort := make(chan struct{})
	c.mu.Lock()
	c.abort, c.aborted = abort, false
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.abort = nil
		c.mu.Unlock()
	}()

	ts := &turnState{}
	c.transcript.prompt(msg, c.mode())
	c.emit(scenario.StateFrame("running"), nil)
	c.emit(c.initFrame(), nil)
	c.emit(map[string]any{"type": "system", "subtype": "status", "status": "requesting"}, nil)
	ts.requests++
	promptUUID, _ := msg["uuid"].(string)
	if c.args.ReplayUserMessages {
		// The echo keeps the host's uuid: the SDK joins it to the prompt.
		echo := map[string]any{"type": "user", "message": msg["message"], "parent_tool_use_id": nil, "isReplay": true}
		c.envelope(echo)
		if promptUUID != "" {
			echo["uuid"] = promptUUID
		}
		c.write(echo)
	}
	ts.promptUUID = promptUUID

	c.mu.Lock()
	actions := c.builder.Turn(*turn)
	c.mu.Unlock()
	interrupted, exit := c.play(actions, ts, abort, nil)
	if exit != nil {
		if exit.Stderr != "" {
			c.errOut.Write([]byte(exit.Stderr + "\n"))
		}
		return exit.Code, true
	}
	if interrupted {
		// The CLI's own interruption marker and its error-shaped diagnostic:
		// a turn stopped at a tool use (a deny with interrupt) names the
		// tool_result and stop_reason tool_use; an interrupt while streaming
		// names neither.
		marker, diag, terminal := "[Request interrupted by user]", "[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null", "aborted_streaming"
		if ts.toolInterrupt {
			marker, diag, terminal = "[Request interrupted by user for tool use]", "[ede_diagnostic] result_type=user last_content_type=tool_result stop_reason=tool_use", "aborted_tools"
		}
		c.emit(map[string]any{"type": "user", "parent_tool_use_id": nil,
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": marker}}}}, nil)
		c.emit(c.result(ts, map[string]any{
			"subtype": "error_during_execution", "is_error": true, "stop_reason": nil,
			"terminal_reason": terminal, "errors": []any{diag},
		}), nil)
	} else if !ts.resulted {
		c.emit(c.result(ts, nil), nil)
	}
	// The transcript is complete before idle, so a host that reads it on
	// idle sees the whole turn.
	c.transcript.lastPrompt(text)
	c.emit(scenario.StateFrame("idle"), nil)
	return 0, false
}

// envelope adds uuid, session_id and timestamp without recording the frame
// in the transcript.
func (c *cli) envelope(f map[string]any) map[string]any {
	f["uuid"] = c.uuid()
	f["session_id"] = c.sessionID
	f["timestamp"] = c.now()
	return f
}

// play runs actions in order. It stops early and reports interrupted when
// the turn is aborted, or returns the exit step that ends the process.
func (c *cli) play(actions []scenario.Action, ts *turnState, abort <-chan struct{}, extra map[string]string) (bool, *scenario.ExitStep) {
	for _, a := range actions {
		select {
		case <-abort:
			return true, nil
		default:
		}
		switch a.Kind {
		case scenario.ActEmit:
			f := c.emit(a.Frame, extra)
			c.track(f, ts)
		case scenario.ActRequest:
			resp, ok := c.request(a.Frame, abort)
			if !ok {
				return true, nil
			}
			if a.Tool == nil {
				continue
			}
			allow, message, stop := permissionAnswer(resp)
			if allow {
				if intr, exit := c.play(a.Allow, ts, abort, extra); intr || exit != nil {
					return intr, exit
				}
				continue
			}
			ts.denials = append(ts.denials, map[string]any{"tool_name": a.Tool.Name, "tool_use_id": a.Tool.ID, "tool_input": a.Tool.Input})
			vars := map[string]string{scenario.VarDenyMessage: message}
			for k, v := range extra {
				vars[k] = v
			}
			if intr, exit := c.play(a.Deny, ts, abort, vars); intr || exit != nil {
				return intr, exit
			}
			if stop {
				ts.toolInterrupt = true
				return true, nil
			}
		case scenario.ActHook:
			toolName, _ := a.Hook.Input["tool_name"].(string)
			for _, id := range c.hookIDs(a.Hook.Event, toolName) {
				in := map[string]any{"session_id": c.sessionID, "transcript_path": c.transcriptPath, "cwd": c.cwd,
					"permission_mode": c.mode(), "hook_event_name": a.Hook.Event}
				for k, v := range a.Hook.Input {
					in[k] = v
				}
				body := map[string]any{"subtype": "hook_callback", "callback_id": id, "input": in}
				if a.Hook.ToolUseID != "" {
					body["tool_use_id"] = a.Hook.ToolUseID
					in["tool_use_id"] = a.Hook.ToolUseID
				}
				if _, ok := c.request(body, abort); !ok {
					return true, nil
				}
			}
		case scenario.ActResult:
			c.emit(c.result(ts, a.Frame), extra)
			ts.resulted = true
		case scenario.ActPause:
			if !c.pause(a.Pause, abort) {
				return true, nil
			}
		case scenario.ActWriteFile:
			c.writeFile(a.File)
		case scenario.ActExit:
			return false, a.Exit
		}
	}
	return false, nil
}

// permissionAnswer reads a can_use_tool response: allow, or deny with its
// message and whether the host asked to interrupt. An error reply denies.
func permissionAnswer(resp map[string]any) (allow bool, message string, interrupt bool) {
	if resp["subtype"] == "error" {
		msg, _ := resp["error"].(string)
		return false, msg, false
	}
	body, _ := resp["response"].(map[string]any)
	if body["behavior"] == "allow" {
		return true, "", false
	}
	msg, _ := body["message"].(string)
	if msg == "" {
		msg = "Permission denied"
	}
	stop, _ := body["interrupt"].(bool)
	return false, msg, stop
}

// track counts API requests and remembers the last top-level text.
func (c *cli) track(f map[string]any, ts *turnState) {
	switch f["type"] {
	case "system":
		if f["subtype"] == "status" && f["status"] == "requesting" {
			ts.requests++
		}
	case "assistant":
		if f["parent_tool_use_id"] != nil {
			return
		}
		m, _ := f["message"].(map[string]any)
		blocks, _ := m["content"].([]any)
		for _, b := range blocks {
			if bm, ok := b.(map[string]any); ok && bm["type"] == "text" {
				ts.lastText, _ = bm["text"].(string)
			}
		}
	}
}

// pause blocks until the event named by until; false means the turn was
// aborted first.
func (c *cli) pause(until string, abort <-chan struct{}) bool {
	for {
		c.mu.Lock()
		ready := false
		switch {
		case until == scenario.PausePrompt:
			ready = len(c.prompts) > 0
		case until == scenario.PauseInterrupt:
		case strings.HasPrefix(until, scenario.PauseControlPrefix):
			if c.eventCount[until] > c.eventUsed[until] {
				c.eventUsed[until]++
				ready = true
			}
		}
		ch := c.eventCh
		c.mu.Unlock()
		if ready {
			return true
		}
		select {
		case <-ch:
		case <-abort:
			return false
		case <-c.eof:
			return false
		case <-c.ctx.Done():
			return false
		}
	}
}

// result builds the turn's result frame: the CLI's success shape, with
// overrides on top. An error subtype drops the result text.
func (c *cli) result(ts *turnState, overrides map[string]any) map[string]any {
	denials := ts.denials
	if denials == nil {
		denials = []any{}
	}
	usage := map[string]any{"input_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 12,
		"server_tool_use": map[string]any{"web_search_requests": 0, "web_fetch_requests": 0}, "service_tier": "standard"}
	r := map[string]any{
		"type": "result", "subtype": "success", "is_error": false, "duration_ms": 100, "duration_api_ms": 80,
		"num_turns": ts.requests, "result": ts.lastText, "stop_reason": "end_turn", "total_cost_usd": 0.00028,
		"usage": usage,
		"modelUsage": map[string]any{c.currentModel(): map[string]any{"inputTokens": 10, "outputTokens": 12, "cacheReadInputTokens": 0,
			"cacheCreationInputTokens": 0, "webSearchRequests": 0, "costUSD": 0.00028, "contextWindow": 200000, "maxOutputTokens": 32000}},
		"permission_denials": denials, "terminal_reason": "completed", "fast_mode_state": "off",
	}
	if ts.promptUUID != "" {
		r["user_message_uuid"] = ts.promptUUID
	}
	if sub, _ := overrides["subtype"].(string); strings.HasPrefix(sub, "error") {
		delete(r, "result")
		r["is_error"] = true
		r["errors"] = []any{}
	}
	for k, v := range overrides {
		r[k] = v
	}
	return r
}
