package fakecli

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/airwire/airwire/conform/scenario"
)

// reply is a handler's answer to a host → CLI control request.
type reply struct {
	// body is the success response; nil sends a success without response.
	body map[string]any
	// err, when set, sends {subtype:error, error}.
	err string
	// before and after are frames written around the reply.
	before, after []map[string]any
	// none leaves the request unanswered.
	none bool
}

// controlHandler answers one control request subtype.
type controlHandler func(c *cli, req map[string]any) reply

// controlHandlers are the built-in answers, by subtype. Anything else gets
// the real CLI's error: "Unsupported control request subtype: X". Made on
// each call: a package-level map literal is init code run at every start of
// the binary.
func controlHandlers() map[string]controlHandler {
	return map[string]controlHandler{
		"initialize": func(c *cli, req map[string]any) reply {
			c.registerHooks(req["hooks"])
			c.setPromptSuggestions(req["promptSuggestions"])
			var after []map[string]any
			for _, st := range c.script.Start {
				for _, a := range c.builder.Step(st) {
					after = append(after, a.Frame)
				}
			}
			return reply{body: c.initializeResponse(), after: after}
		},
		"interrupt": func(c *cli, req map[string]any) reply {
			return reply{body: map[string]any{"still_queued": []any{}}}
		},
		"set_permission_mode": func(c *cli, req map[string]any) reply {
			mode, _ := req["mode"].(string)
			switch mode {
			case "default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto":
			default:
				return reply{err: fmt.Sprintf("Invalid permission mode: %s", mode)}
			}
			c.mu.Lock()
			c.permissionMode = mode
			c.mu.Unlock()
			return reply{body: map[string]any{"mode": mode},
				after: []map[string]any{{"type": "system", "subtype": "status", "status": nil, "permissionMode": mode}}}
		},
		"set_model": func(c *cli, req map[string]any) reply {
			m, _ := req["model"].(string)
			if m == "" {
				m = "default"
			}
			c.mu.Lock()
			c.model = resolveModel(m)
			c.builder.Model = c.model
			c.mu.Unlock()
			return reply{body: map[string]any{"model": m}}
		},
		"set_max_thinking_tokens": func(c *cli, req map[string]any) reply { return reply{} },
		"get_settings": func(c *cli, req map[string]any) reply {
			return reply{body: map[string]any{"effective": map[string]any{}, "sources": []any{},
				"applied": map[string]any{"model": c.currentModel(), "effort": "medium"}}}
		},
		"apply_flag_settings": func(c *cli, req map[string]any) reply {
			settings, _ := req["settings"].(map[string]any)
			if on, ok := settings["fastMode"].(bool); ok {
				c.mu.Lock()
				c.fastMode = on
				c.mu.Unlock()
			}
			return reply{}
		},
		"get_context_usage": func(c *cli, req map[string]any) reply { return reply{body: c.contextUsage()} },
		"mcp_status": func(c *cli, req map[string]any) reply {
			return reply{body: map[string]any{"mcpServers": []any{}}}
		},
		"list_models": func(c *cli, req map[string]any) reply {
			return reply{body: map[string]any{"models": defaultModels()}}
		},
		"rewind_files": func(c *cli, req map[string]any) reply {
			return reply{body: map[string]any{"canRewind": true, "filesChanged": []any{}, "insertions": 0, "deletions": 0}}
		},
		"rename_session": func(c *cli, req map[string]any) reply {
			title, _ := req["title"].(string)
			c.transcript.title(title)
			return reply{before: []map[string]any{{"type": "system", "subtype": "session_title_changed", "title": title}}}
		},
		"generate_session_title": func(c *cli, req map[string]any) reply {
			desc, _ := req["description"].(string)
			title := fakeTitle(desc)
			if title == "" {
				return reply{body: map[string]any{"title": nil}}
			}
			if persist, _ := req["persist"].(bool); persist {
				c.transcript.aiTitle(title)
			}
			return reply{body: map[string]any{"title": title}}
		},
		"stop_task": func(c *cli, req map[string]any) reply {
			if id, _ := req["task_id"].(string); id == "" {
				return reply{err: "stop_task requires task_id"}
			}
			return reply{}
		},
	}
}

// fakeTitle makes a deterministic session title from a description: its
// first line, whitespace collapsed, cut to 60 characters. Descriptions under
// 10 characters get none, as the CLI's generator returns null for them.
func fakeTitle(desc string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(desc), "\n")
	line = strings.Join(strings.Fields(line), " ")
	if len([]rune(strings.TrimSpace(desc))) < 10 {
		return ""
	}
	if r := []rune(line); len(r) > 60 {
		line = strings.TrimSpace(string(r[:60]))
	}
	return line
}

// handleControl answers one host → CLI control request. Script overrides
// replace the built-in answer; an interrupt always aborts the running turn,
// and every request is counted for pause steps (control:<subtype>).
func (c *cli) handleControl(msg map[string]any) {
	id, _ := msg["request_id"].(string)
	req, _ := msg["request"].(map[string]any)
	sub, _ := req["subtype"].(string)
	// The hold starts when the read arrives, so that no turn frame after
	// it slips out while the answer waits for its turn on stdout, and again
	// when the answer is out (see SkillReadHold).
	skillRead := sub == "get_context_usage" && req["detail"] == nil && c.holdAfterFirstSkillRead()
	var r reply
	if o, ok := c.script.Controls[sub]; ok {
		r = reply{err: o.Error, none: o.NoReply, after: o.Emit}
		if o.Response != nil {
			r.body = scenario.Expand(o.Response, c.vars()).(map[string]any)
		}
		if sub == "initialize" {
			c.registerHooks(req["hooks"])
			c.setPromptSuggestions(req["promptSuggestions"])
		}
	} else if h, ok := controlHandlers()[sub]; ok {
		r = h(c, req)
	} else {
		r = reply{err: "Unsupported control request subtype: " + sub}
	}
	for _, f := range r.before {
		c.emit(f, nil)
	}
	if !r.none {
		resp := map[string]any{"subtype": "success", "request_id": id}
		if r.err != "" {
			resp = map[string]any{"subtype": "error", "request_id": id, "error": r.err}
			if _, known := controlHandlers()[sub]; !known {
				resp["error_code"] = "unsupported_request"
			}
		} else if r.body != nil {
			resp["response"] = r.body
		}
		if sub == "initialize" && r.err == "" {
			// The real CLI lists what is still pending next to the body.
			resp["pending_permission_requests"] = []any{}
			resp["pending_user_dialog_requests"] = []any{}
		}
		if skillRead {
			c.writeNow(map[string]any{"type": "control_response", "response": resp})
		} else {
			c.write(map[string]any{"type": "control_response", "response": resp})
		}
	}
	for _, f := range r.after {
		c.emit(f, nil)
	}
	if skillRead {
		c.mu.Lock()
		c.holdUntil = time.Now().Add(SkillReadHold)
		c.mu.Unlock()
	}
	if sub == "interrupt" {
		c.interrupt()
	}
	c.signal("control:" + sub)
}

// hookMatcher is one registered matcher of a hook event: the callback ids
// to call for tools whose name the matcher accepts.
type hookMatcher struct {
	matcher string
	re      *regexp.Regexp
	ids     []string
}

// matches reports whether the matcher accepts toolName. An empty matcher or
// "*" accepts everything, as does any matcher for events without a tool;
// otherwise the matcher is an anchored regular expression ("Edit|Write").
func (m hookMatcher) matches(toolName string) bool {
	if m.matcher == "" || m.matcher == "*" || toolName == "" {
		return true
	}
	if m.re == nil {
		return m.matcher == toolName
	}
	return m.re.MatchString(toolName)
}

// registerHooks records the callback ids of initialize.hooks:
// {Event: [{matcher?, hookCallbackIds:[...]}]}.
func (c *cli) registerHooks(v any) {
	hooks, _ := v.(map[string]any)
	c.mu.Lock()
	defer c.mu.Unlock()
	for event, list := range hooks {
		matchers, _ := list.([]any)
		for _, m := range matchers {
			mm, _ := m.(map[string]any)
			hm := hookMatcher{}
			hm.matcher, _ = mm["matcher"].(string)
			if hm.matcher != "" {
				hm.re, _ = regexp.Compile("^(?:" + hm.matcher + ")$")
			}
			ids, _ := mm["hookCallbackIds"].([]any)
			for _, id := range ids {
				if s, ok := id.(string); ok {
					hm.ids = append(hm.ids, s)
				}
			}
			c.hooks[event] = append(c.hooks[event], hm)
		}
	}
}

// hookIDs returns the callback ids registered for event whose matcher
// accepts toolName ("" for events without a tool).
func (c *cli) hookIDs(event, toolName string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.skipHooks[event] {
		return nil
	}
	var out []string
	for _, m := range c.hooks[event] {
		if m.matches(toolName) {
			out = append(out, m.ids...)
		}
	}
	return out
}

// interrupt aborts the running turn, if any.
func (c *cli) interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.abort != nil && !c.aborted {
		c.aborted = true
		close(c.abort)
	}
}

// setPromptSuggestions records initialize.promptSuggestions.
func (c *cli) setPromptSuggestions(v any) {
	on, _ := v.(bool)
	c.mu.Lock()
	c.promptSuggestions = on
	c.mu.Unlock()
}

// wantsSuggestions reports whether the host asked for prompt suggestions.
func (c *cli) wantsSuggestions() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.promptSuggestions
}

// SkillReadHold is how long the fake holds its output after answering the
// first get_context_usage without detail. The reference reads the skills
// from that answer off the turn (refreshSkillFiles) and re-publishes its
// commands when they changed; the real CLI takes about a second to answer
// the first such request, so the update lands somewhere in the turn. The
// fake answers at once and then waits for the update to land before the
// turn goes on, so that a golden holds one order.
const SkillReadHold = 300 * time.Millisecond

// SkillReadWait bounds the wait, after the first system/init, for the
// host's skill read; a host that does not read them (plain clients) costs
// this once per process.
const SkillReadWait = 600 * time.Millisecond

// skillReadEvent is the event counted for every get_context_usage.
const skillReadEvent = "control:get_context_usage"

// awaitEvent waits until event has been counted more than seen times, or
// for at most d.
func (c *cli) awaitEvent(event string, seen int, d time.Duration) {
	deadline := time.After(d)
	for {
		c.mu.Lock()
		n, ch := c.eventCount[event], c.eventCh
		c.mu.Unlock()
		if n > seen {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			return
		case <-c.ctx.Done():
			return
		}
	}
}

// holdAfterFirstSkillRead starts the hold once per process (see
// SkillReadHold) and reports whether it did.
func (c *cli) holdAfterFirstSkillRead() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.skillsRead {
		return false
	}
	c.skillsRead = true
	c.holdUntil = time.Now().Add(SkillReadHold)
	return true
}

// hold waits until a hold set by holdAfterFirstSkillRead has passed.
func (c *cli) hold() {
	c.mu.Lock()
	until := c.holdUntil
	c.mu.Unlock()
	if d := time.Until(until); d > 0 {
		time.Sleep(d)
	}
}
