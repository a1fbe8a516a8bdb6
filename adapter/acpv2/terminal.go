package acpv2

import (
	"encoding/base64"
	"slices"
)

// A v2 client has no client terminals: a command's output goes to a
// display terminal the agent owns, named after its tool call. The agent
// reports it in the Zed terminal keys of a tool call's `_meta`
// (terminal_info, terminal_output, terminal_exit), which v2 carries as
// terminal_update (and terminal_output_chunk) updates before the report.

var terminalKeys = []string{"terminal_info", "terminal_output", "terminal_output_delta", "terminal_exit"}

// terminal is a running command's display terminal. cancellable: a
// terminal_update advertised `terminal/cancel` for it (AdvertiseCancel),
// so its exit withdraws the capability.
type terminal struct {
	id, command string
	cancellable bool
}

// AdvertiseCancel is the terminal_update that lets the client cancel the
// running terminal terminalID of session sessionID with terminal/cancel,
// with its command; ok is false when the terminal is not running, or
// advertises the capability already and again is false.
func (u *Updates) AdvertiseCancel(sessionID, terminalID string, again bool) (up object, ok bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	t := u.terminals[sessionID+" "+terminalID]
	if t == nil || t.cancellable && !again {
		return nil, false
	}
	t.cancellable = true
	up = object{"sessionUpdate": "terminal_update", "terminalId": terminalID, "capabilities": object{"cancel": object{}}}
	if t.command != "" {
		up["command"] = t.command
	}
	return up, true
}

// terminalUpdates takes the terminal keys out of report and returns the
// terminal updates they make; keep is false when nothing is left of the
// report (an output report carries the output alone).
func (u *Updates) terminalUpdates(key string, report object, starts bool) (out []object, keep bool) {
	meta, _ := report["_meta"].(object)
	if info, ok := meta["terminal_info"].(object); ok {
		if u.terminals == nil {
			u.terminals = map[string]*terminal{}
		}
		id, _ := info["terminal_id"].(string)
		u.terminals[key] = &terminal{id: id}
	}
	if t := u.terminals[key]; t != nil {
		out = t.updates(report, meta)
		if meta["terminal_exit"] != nil {
			delete(u.terminals, key)
		}
	}
	return out, stripTerminalKeys(report, meta) || starts
}

func (t *terminal) updates(report, meta object) []object {
	var out []object
	in, _ := report["rawInput"].(object)
	command, _ := in["command"].(string)
	newCommand := command != "" && command != t.command
	if newCommand {
		t.command = command
	}
	output, _ := meta["terminal_output"].(object)
	exit, _ := meta["terminal_exit"].(object)
	if meta["terminal_info"] != nil || newCommand || output != nil || exit != nil {
		up := object{"sessionUpdate": "terminal_update", "terminalId": t.id}
		if newCommand {
			up["command"] = command
		}
		if output != nil {
			up["output"] = object{"data": base64Text(output["data"])}
		}
		if exit != nil {
			status := object{}
			if exit["exit_code"] != nil {
				status["exitCode"] = exit["exit_code"]
			}
			if exit["signal"] != nil {
				status["signal"] = exit["signal"]
			}
			up["exitStatus"] = status
			if t.cancellable {
				up["capabilities"] = nil // the exit ends the cancel it advertised
			}
		}
		out = append(out, up)
	}
	if delta, ok := meta["terminal_output_delta"].(object); ok {
		out = append(out, object{"sessionUpdate": "terminal_output_chunk", "terminalId": t.id, "data": base64Text(delta["data"])})
	}
	return out
}

func base64Text(v any) string {
	s, _ := v.(string)
	return base64.StdEncoding.EncodeToString([]byte(s))
}

// stripTerminalKeys removes the terminal keys from report's `_meta`; it
// reports whether the report still says anything besides its id.
func stripTerminalKeys(report, meta object) bool {
	if !slices.ContainsFunc(terminalKeys, func(k string) bool { _, ok := meta[k]; return ok }) {
		return true
	}
	rest := object{}
	for k, v := range meta {
		if !slices.Contains(terminalKeys, k) {
			rest[k] = v
		}
	}
	if len(rest) > 0 {
		report["_meta"] = rest
	} else {
		delete(report, "_meta")
	}
	for k := range report {
		if k != "sessionUpdate" && k != "toolCallId" && k != "_meta" {
			return true
		}
	}
	return false
}
