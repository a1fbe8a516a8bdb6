package fakecli

import (
	"strings"
	"time"

	"github.com/airwire/airwire/conform/scenario"
)

// turnState is what a turn accumulates for its result frame.
type turnState struct {
	// promptUUID is the host's uuid of the user message; the CLI keys the
	// turn's command_lifecycle frames by it and stamps it (user_message_uuid,
	// user_message_uuids) on system/init, every status requesting, the first
	// assistant message (and its message_start) and the result.
	promptUUID string
	// origin is the user message's origin, echoed on the replay and the
	// result (the reference sends {kind: human}).
	origin     any
	requests   int
	stampedMsg bool
	stampedEv  bool
	// toolInterrupt is set when a permission answer denied with interrupt,
	// or an interrupt withdrew an open permission request: the turn then
	// ends the way the CLI ends a turn stopped at a tool use.
	toolInterrupt bool
	lastText      string
	denials       []any
	resulted      bool
	// failed is set when the result is an error (the lifecycle then ends
	// cancelled and no prompt suggestion follows).
	failed bool
	// suggested is set when the script emitted its own prompt_suggestion.
	suggested bool
}

// uuids is the user_message_uuids list of the turn (nil without a uuid).
func (ts *turnState) uuids() []any {
	if ts.promptUUID == "" {
		return nil
	}
	return []any{ts.promptUUID}
}

// defaultTurn answers a prompt the script has no turn for.
func defaultTurn() scenario.Turn {
	t := "(fake-cli: no scripted turn for this prompt)"
	return scenario.Turn{Steps: []scenario.Step{{Text: &t}}}
}

// lifecycleFrame is the CLI's command_lifecycle frame for the user message
// commandUUID (uuid and session_id are added by emit).
func lifecycleFrame(commandUUID, state string) map[string]any {
	return map[string]any{"type": "command_lifecycle", "command_uuid": commandUUID, "state": state}
}

// isRetry reports whether a step is a system api_retry frame.
func isRetry(s scenario.Step) bool {
	return s.System != nil && s.System["subtype"] == "api_retry"
}

// runTurn plays one user message as the real CLI 2.1.318 frames it
// (cli-capture and research/real-cli-vs-fake.md):
//
//	session_state_changed running (not when a queued prompt follows a turn)
//	command_lifecycle queued (at arrival when queued during a turn), started
//	system/init, status requesting (with user_message_uuids)
//	system/api_retry frames the turn opens with
//	the echo of the prompt (isReplay, the prompt's uuid and origin)
//	the script's actions
//	result, command_lifecycle completed (cancelled when interrupted or the
//	API failed), session_state_changed idle (not when another prompt is
//	already queued)
//	with initialize.promptSuggestions: the SubagentStop hook of the
//	prompt-suggestion agent, then prompt_suggestion.
//
// It reports an exit code when a step ended the process.
func (c *cli) runTurn(msg map[string]any) (int, bool) {
	text := promptText(msg)
	turn := c.pickTurn(text)
	if turn == nil {
		d := defaultTurn()
		turn = &d
	}
	for {
		code, exit := c.playTurn(msg, turn)
		if exit {
			return code, true
		}
		if !c.then(turn) {
			return 0, false
		}
		next := c.nextAutonomous()
		if next == nil {
			return 0, false
		}
		// A turn the CLI starts on its own: no prompt, its origin on the
		// result.
		turn, msg = next, map[string]any{"origin": next.Autonomous}
	}
}

// then writes a turn's Then frames (after the turn ended). It reports
// false when a prompt is already waiting, which then goes first.
func (c *cli) then(turn *scenario.Turn) bool {
	if len(c.prompts) > 0 {
		return false
	}
	c.mu.Lock()
	actions := c.builder.Turn(scenario.Turn{Steps: turn.Then})
	c.mu.Unlock()
	for _, a := range actions {
		if a.Kind == scenario.ActEmit {
			c.emit(a.Frame, nil)
		}
	}
	return true
}

// playTurn plays one turn (see runTurn).
func (c *cli) playTurn(msg map[string]any, turn *scenario.Turn) (int, bool) {
	text := promptText(msg)
	abort := make(chan struct{})
	c.mu.Lock()
	c.abort, c.aborted = abort, false
	c.turnRunning = true
	continuing := c.continuing
	c.continuing = false
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.abort = nil
		c.turnRunning = false
		c.mu.Unlock()
	}()

	ts := &turnState{}
	ts.promptUUID, _ = msg["uuid"].(string)
	ts.origin = msg["origin"]
	if msg["message"] != nil {
		c.transcript.prompt(msg, c.mode())
	}
	if !continuing {
		c.emit(scenario.StateFrame("running"), nil)
	}
	if ts.promptUUID != "" {
		c.mu.Lock()
		announced := c.queuedAnnounced[ts.promptUUID]
		delete(c.queuedAnnounced, ts.promptUUID)
		c.mu.Unlock()
		if !announced {
			c.emit(lifecycleFrame(ts.promptUUID, "queued"), nil)
		}
		c.emit(lifecycleFrame(ts.promptUUID, "started"), nil)
	}
	if turn.Local {
		return c.runLocal(msg, turn, ts, abort)
	}
	c.mu.Lock()
	firstInit := !c.initSent
	c.initSent = true
	reads := c.eventCount[skillReadEvent]
	c.mu.Unlock()
	c.emit(c.initFrame(ts.uuids()), nil)
	if firstInit {
		// The reference reads the skills when it sees the first system/init
		// (see SkillReadHold): wait for that read before the turn goes on.
		c.awaitEvent(skillReadEvent, reads, SkillReadWait)
	}
	c.emit(c.stamp(map[string]any{"type": "system", "subtype": "status", "status": "requesting"}, ts), nil)
	ts.requests++

	lead := 0
	for lead < len(turn.Steps) && isRetry(turn.Steps[lead]) {
		lead++
	}
	c.mu.Lock()
	retries := c.builder.Turn(scenario.Turn{Steps: turn.Steps[:lead]})
	actions := c.builder.Turn(scenario.Turn{Steps: turn.Steps[lead:]})
	c.mu.Unlock()
	interrupted, exit := c.play(retries, ts, abort, nil)
	if !interrupted && exit == nil {
		if c.args.ReplayUserMessages && msg["message"] != nil {
			// The echo keeps the host's uuid: the SDK joins it to the prompt.
			echo := map[string]any{"type": "user", "message": msg["message"], "parent_tool_use_id": nil, "isReplay": true}
			if ts.origin != nil {
				echo["origin"] = ts.origin
			}
			c.envelope(echo)
			if ts.promptUUID != "" {
				echo["uuid"] = ts.promptUUID
			}
			c.write(echo)
		}
		interrupted, exit = c.play(actions, ts, abort, nil)
	}
	if exit != nil {
		if exit.Stderr != "" {
			c.errOut.Write([]byte(exit.Stderr + "\n"))
		}
		return exit.Code, true
	}
	code, exited := c.endTurn(text, ts, interrupted)
	return code, exited
}

// runLocal plays a local slash command turn (Turn.Local): the steps, then
// the echo in <command-name> form, then the result (num_turns 0,
// stop_reason null) unless the steps wrote one.
func (c *cli) runLocal(msg map[string]any, turn *scenario.Turn, ts *turnState, abort chan struct{}) (int, bool) {
	text := promptText(msg)
	c.mu.Lock()
	var steps []scenario.Step
	var resultStep *scenario.Step
	for i := range turn.Steps {
		if turn.Steps[i].Result != nil && resultStep == nil {
			resultStep = &turn.Steps[i]
			continue
		}
		steps = append(steps, turn.Steps[i])
	}
	actions := c.builder.Turn(scenario.Turn{Steps: steps})
	c.mu.Unlock()
	interrupted, exit := c.play(actions, ts, abort, nil)
	if exit != nil {
		return exit.Code, true
	}
	if !interrupted {
		name, args, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(text), "/"), " ")
		body := "<command-name>/" + name + "</command-name>\n            <command-message>" + name + "</command-message>\n            <command-args>" + args + "</command-args>"
		echo := map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": body}, "parent_tool_use_id": nil, "isReplay": true}
		if ts.origin != nil {
			echo["origin"] = ts.origin
		}
		c.emit(echo, nil)
		over := map[string]any{"num_turns": 0, "stop_reason": nil}
		if resultStep != nil {
			for k, v := range resultStep.Result {
				over[k] = v
			}
		}
		f := c.emit(c.result(ts, over), nil)
		ts.resulted = true
		if f["is_error"] == true {
			ts.failed = true
		}
	}
	return c.endTurn(text, ts, interrupted)
}

// endTurn writes the end of a turn: the interruption frames or the default
// result, the lifecycle's end, idle (unless a prompt is queued) and the
// prompt suggestion.
func (c *cli) endTurn(text string, ts *turnState, interrupted bool) (int, bool) {
	c.mu.Lock()
	abort := c.abort
	c.mu.Unlock()
	if interrupted {
		// The CLI's own interruption marker and its error-shaped diagnostic:
		// a turn stopped at a tool use (a deny with interrupt, or an
		// interrupt while the permission request was open) names the
		// tool_result and stop_reason tool_use; an interrupt while streaming
		// names neither.
		marker, diag, terminal, stop := "[Request interrupted by user]", "[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null", "aborted_streaming", any(nil)
		if ts.toolInterrupt {
			marker, diag, terminal, stop = "[Request interrupted by user for tool use]", "[ede_diagnostic] result_type=user last_content_type=tool_result stop_reason=tool_use", "aborted_tools", "tool_use"
		}
		c.emit(map[string]any{"type": "user", "parent_tool_use_id": nil,
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": marker}}}}, nil)
		c.emit(c.result(ts, map[string]any{
			"subtype": "error_during_execution", "is_error": true, "stop_reason": stop,
			"terminal_reason": terminal, "errors": []any{diag},
		}), nil)
		ts.failed = true
	} else if !ts.resulted {
		c.emit(c.result(ts, nil), nil)
	}
	if ts.promptUUID != "" {
		state := "completed"
		if ts.failed {
			state = "cancelled"
		}
		c.emit(lifecycleFrame(ts.promptUUID, state), nil)
	}
	// The transcript is complete before idle, so a host that reads it on
	// idle sees the whole turn.
	if text != "" {
		c.transcript.lastPrompt(text)
	}
	if len(c.prompts) > 0 {
		// The next prompt is already queued: the CLI goes straight on.
		c.mu.Lock()
		c.continuing = true
		c.mu.Unlock()
		return 0, false
	}
	c.mu.Lock()
	c.turnRunning = false
	c.turns++
	first := c.turns == 1
	c.mu.Unlock()
	c.emit(scenario.StateFrame("idle"), nil)
	// The real CLI suggests nothing after the first turn of a process (no
	// capture shows one); after later turns it does.
	if c.script.PromptSuggestion != "" && c.wantsSuggestions() && !first && !ts.failed && !ts.suggested {
		c.suggest(ts, abort)
	}
	return 0, false
}

// suggest runs the prompt-suggestion agent after a turn as the real CLI
// does: the SubagentStop hook for that agent (an agent the host never saw
// start), the echo of the hook answers, then prompt_suggestion.
func (c *cli) suggest(ts *turnState, abort <-chan struct{}) {
	agentID := "a" + strings.ReplaceAll(c.uuid(), "-", "")[:16]
	in := map[string]any{
		"agent_id": agentID, "agent_type": "", "stop_hook_active": false,
		"agent_transcript_path":  strings.TrimSuffix(c.transcriptPath, ".jsonl") + "/subagents/agent-" + agentID + ".jsonl",
		"last_assistant_message": c.script.PromptSuggestion, "background_tasks": []any{}, "session_crons": []any{},
	}
	if !c.callHook(&scenario.HookStep{Event: "SubagentStop", Input: in}, c.uuid(), false, false, abort) {
		return
	}
	c.emit(map[string]any{"type": "prompt_suggestion", "suggestion": c.script.PromptSuggestion}, nil)
}

// stamp adds the turn's user_message_uuids to a top-level frame that
// carries them on the real CLI.
func (c *cli) stamp(f map[string]any, ts *turnState) map[string]any {
	if ts.promptUUID == "" {
		return f
	}
	switch f["type"] {
	case "system":
		if f["subtype"] == "status" && f["status"] == "requesting" {
			f["user_message_uuids"] = ts.uuids()
		}
	case "stream_event":
		ev, _ := f["event"].(map[string]any)
		if f["parent_tool_use_id"] == nil && ev["type"] == "message_start" && !ts.stampedEv {
			ts.stampedEv = true
			f["user_message_uuid"] = ts.promptUUID
			f["user_message_uuids"] = ts.uuids()
		}
	case "assistant":
		if f["parent_tool_use_id"] == nil && !ts.stampedMsg {
			ts.stampedMsg = true
			f["user_message_uuid"] = ts.promptUUID
			f["user_message_uuids"] = ts.uuids()
		}
	}
	return f
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
	seen := -1 // requests counted before the step ahead of a next-pause
	for i, a := range actions {
		select {
		case <-abort:
			return true, nil
		default:
		}
		if i+1 < len(actions) && actions[i+1].Kind == scenario.ActPause && actions[i+1].Pause.Next {
			seen = c.counted(actions[i+1].Pause.Until)
		}
		switch a.Kind {
		case scenario.ActEmit:
			f := c.emit(c.stamp(copyFrame(a.Frame), ts), extra)
			c.track(f, ts)
		case scenario.ActRequest:
			resp, ok := c.request(a.Frame, abort)
			if !ok {
				if a.Tool != nil && isClosed(abort) {
					// An interrupt withdrew the open permission request: the
					// CLI refuses the tool with its standard text.
					parent, _ := a.Frame["agent_id"].(string)
					c.emit(scenario.CancelledToolResult(a.Tool.ID, parent), extra)
					ts.toolInterrupt = true
				}
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
			branch := a.Deny
			if stop && a.DenyInterrupt != nil {
				branch = a.DenyInterrupt
			}
			if intr, exit := c.play(branch, ts, abort, vars); intr || exit != nil {
				return intr, exit
			}
			if stop {
				ts.toolInterrupt = true
				return true, nil
			}
		case scenario.ActHook:
			if !c.callHook(a.Hook, a.Hook.ToolUseID, true, a.Parallel, abort) {
				return true, nil
			}
		case scenario.ActResult:
			f := c.emit(c.result(ts, a.Frame), extra)
			ts.resulted = true
			if f["is_error"] == true {
				ts.failed = true
			}
		case scenario.ActPause:
			if !c.pause(a.Pause, seen, abort) {
				return true, nil
			}
			seen = -1
		case scenario.ActWriteFile:
			c.writeFile(a.File)
		case scenario.ActExit:
			return false, a.Exit
		}
	}
	return false, nil
}

// callHook sends hook_callback for h.Event to every callback the host
// registered for it whose matcher accepts the tool: one after another, or
// with parallel all at once and then waits for every answer (the real
// CLI's PostToolUse). toolUseID goes on the request (and, with inInput, in
// the input). It returns false when the turn was aborted.
func (c *cli) callHook(h *scenario.HookStep, toolUseID string, inInput, parallel bool, abort <-chan struct{}) bool {
	toolName, _ := h.Input["tool_name"].(string)
	type sent struct {
		id string
		ch chan map[string]any
	}
	var waiting []sent
	for _, id := range c.hookIDs(h.Event, toolName) {
		in := map[string]any{"session_id": c.sessionID, "transcript_path": c.transcriptPath, "cwd": c.cwd,
			"permission_mode": c.mode(), "hook_event_name": h.Event}
		for k, v := range h.Input {
			in[k] = v
		}
		body := map[string]any{"subtype": "hook_callback", "callback_id": id, "input": in}
		if toolUseID != "" {
			body["tool_use_id"] = toolUseID
			if inInput {
				in["tool_use_id"] = toolUseID
			}
		}
		rid, ch := c.send(body)
		if parallel {
			waiting = append(waiting, sent{rid, ch})
			continue
		}
		if _, ok := c.wait(rid, ch, abort); !ok {
			return false
		}
	}
	for _, w := range waiting {
		if _, ok := c.wait(w.id, w.ch, abort); !ok {
			return false
		}
	}
	return true
}

// isClosed reports whether ch is closed.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// copyFrame is a shallow copy of a frame, so stamping never changes the
// builder's action.
func copyFrame(f map[string]any) map[string]any {
	out := make(map[string]any, len(f)+2)
	for k, v := range f {
		out[k] = v
	}
	return out
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
	case "prompt_suggestion":
		ts.suggested = true
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

// pause blocks until the event p waits for, or until its bound has
// passed; false means the turn was aborted first. For a next-pause, seen is
// how many such requests had come before the step ahead of it was played
// (-1: as many as have come now).
func (c *cli) pause(p *scenario.PauseStep, seen int, abort <-chan struct{}) bool {
	until := p.Until
	var bound <-chan time.Time
	if d := p.Bound(); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		bound = t.C
	}
	c.mu.Lock()
	if p.Next {
		if seen < 0 {
			seen = c.eventCount[until]
		}
		c.eventUsed[until] = max(c.eventUsed[until], seen)
	}
	c.mu.Unlock()
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
		case <-bound:
			return true
		case <-abort:
			return false
		case <-c.eof:
			return false
		case <-c.ctx.Done():
			return false
		}
	}
}

// counted is how many times event has happened.
func (c *cli) counted(event string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.eventCount[event]
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
	modelUsage := map[string]any{c.currentModel(): map[string]any{"inputTokens": 10, "outputTokens": 12, "cacheReadInputTokens": 0,
		"cacheCreationInputTokens": 0, "webSearchRequests": 0, "costUSD": 0.00028, "contextWindow": ContextWindow, "maxOutputTokens": MaxOutputTokens}}
	c.mu.Lock()
	index := c.results
	c.results++
	c.mu.Unlock()
	r := map[string]any{
		"type": "result", "subtype": "success", "is_error": false, "duration_ms": 100, "duration_api_ms": 80,
		"num_turns": ts.requests, "result": ts.lastText, "stop_reason": "end_turn", "total_cost_usd": 0.00028,
		"usage": usage, "modelUsage": modelUsage, "model_usage_since_last_result": modelUsage,
		// The real CLI's per-turn metrics (timings are fixed here).
		"ttft_ms": 20, "ttft_stream_ms": 20, "time_to_request_ms": 5, "first_content_frame_ms": 20,
		"request_sent_wall_ms": int64(1767225600000), "first_request_input_tokens": 10, "queued_turn_count": 0,
		"result_index": index, "safety_stops": 0,
		"subagent_stats": map[string]any{"spawned": 0, "requested": map[string]any{"background": 0, "foreground": 0, "unset": 0},
			"started_in_background": 0, "max_depth": 0, "spawned_by_subagents": 0, "completed": 0, "failed": 0,
			"killed":  map[string]any{"parent": 0, "user": 0, "system": 0},
			"refused": map[string]any{"depth_limit": 0, "concurrency_limit": 0, "budget": 0}, "by_type": map[string]any{}},
		"permission_denials": denials, "terminal_reason": "completed", "api_error_status": nil,
	}
	c.fastModeState(r)
	if ts.promptUUID != "" {
		r["user_message_uuid"] = ts.promptUUID
		r["user_message_uuids"] = ts.uuids()
	}
	if ts.origin != nil {
		r["origin"] = ts.origin
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
