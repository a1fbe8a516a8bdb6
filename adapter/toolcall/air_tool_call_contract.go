package toolcall

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/adapter/caps"
)

// The AIR choices of the renderer (contract: "Tool call contract", "Claude
// tools and ACP fields", "AIR metadata keys", "JetBrains shared keys").
// Each reads caps.Client.AIR.Client ("Adapter structure": "Each AIR-only
// choice of the renderer reads it").

// JetBrains is `_meta.jetbrains`.
type JetBrains struct {
	AIR *AIRMeta `json:"air,omitempty"`
}

// AIRMeta is `_meta.jetbrains.air` of a tool call report: each payload
// next to `version: 1` (contract: "AIR metadata keys").
type AIRMeta struct {
	Version      int       `json:"version,omitempty"`
	CommandTitle string    `json:"commandTitle,omitempty"`
	Subagent     bool      `json:"subagent,omitempty"`
	Skill        *SkillRef `json:"skill,omitempty"`
	// AsyncTasks is the backgrounded marker of a Bash call (Async tasks).
	AsyncTasks json.RawMessage `json:"asyncTasks,omitempty"`
}

// SkillRef is `_meta.jetbrains.air.skill`: the skill's name and the path
// of its SKILL.md when it is found.
type SkillRef struct {
	Name string `json:"name"`
	Path string `json:"path,omitempty"`
}

// air reports whether the client is AIR.
func (r Renderer) air() bool { return r.Caps.AIR.Client }

// diffPatch reports whether edits go out as exact Git patches (contract:
// "Diff patch", "Activation").
func (r Renderer) diffPatch() bool { return r.Caps.AIR.Client && r.Caps.AIR.Has(caps.DiffPatch) }

// rawInputRendering reports whether the client renders rawInput itself
// and gets no display copy of it.
func (r Renderer) rawInputRendering() bool {
	return r.Caps.AIR.Client && r.Caps.AIR.Has(caps.RawInputRendering)
}

// rawInput is the `rawInput` of a tool use: for AIR without the file text
// a diff holds ("File text of an Edit or a Write": "never also in
// rawInput"), and with the plan file path in place of the plan text.
func (r Renderer) rawInput(f UseFacts, input json.RawMessage) json.RawMessage {
	if f.PlanFilePath != "" {
		return planFileInput(input, f.PlanFilePath)
	}
	if !r.air() || len(f.FileTextKeys) == 0 {
		return input
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(input, &obj) != nil || obj == nil {
		return input
	}
	for _, k := range f.FileTextKeys {
		delete(obj, k)
	}
	return encode(obj)
}

// airToolMeta adds the AIR tool flags of a tool use to m: the shell
// description as commandTitle, subagent for Agent and Task, and the skill
// of a Skill call. Input is never copied into `_meta` otherwise.
func (r Renderer) airToolMeta(use ToolUse, m *Meta) {
	if !r.air() {
		return
	}
	in := parseInput(use.Input)
	a := AIRMeta{}
	switch use.Name {
	case "Bash", "PowerShell":
		a.CommandTitle, _ = shellDescription(in)
	case "Agent", "Task":
		a.Subagent = true
	case "Skill":
		if name, ok := in.strOK("skill"); ok && name != "" {
			a.Skill = &SkillRef{Name: name, Path: r.Disk.SkillPath(name, r.Cwd)}
		}
	}
	if a.CommandTitle == "" && !a.Subagent && a.Skill == nil {
		return
	}
	a.Version = airVersion
	m.JetBrains = &JetBrains{AIR: &a}
}

// isTrue reports whether key holds JSON true.
func (in Input) isTrue(key string) bool { return string(in[key]) == "true" }

// isMCPTool reports an `mcp__<server>__<tool>` name.
func isMCPTool(name string) bool { return strings.HasPrefix(name, "mcp__") }

// airPermissionToolCall is the request `toolCall` of an AIR client
// (contract: "Tool call of the request"): toolCallId, title, rawInput, the
// preview patch as content, and only the locations the tool call lacks.
// A preview that is the notice that a Write overwrites a file the adapter
// cannot show holds no file text, so rawInput keeps it (contract: "Diff
// patch > Claude behavior"; DEVIATIONS.md 25).
func (r Renderer) airPermissionToolCall(use ToolUse, f UseFacts, title string, preview []Content, extra []Location) PermissionToolCall {
	if len(preview) > 0 && isTextContent(preview[0]) {
		f.FileTextKeys = nil
	}
	call := PermissionToolCall{ToolCallID: use.ID, Title: title, RawInput: r.rawInput(f, use.Input)}
	if len(call.RawInput) == 0 {
		call.RawInput = json.RawMessage("{}")
	}
	if preview != nil {
		call.Content = &preview
	}
	if len(extra) > 0 {
		locations := []Location{}
		if f.Locations != nil {
			locations = append(locations, *f.Locations...)
		}
		locations = append(locations, extra...)
		call.Locations = &locations
	}
	return call
}

// airResult applies the AIR rules to the final report of a tool result:
// a read or a search that names a file shows no result text (AIR shows
// the viewed files); rawOutput only when no other field carries the
// result; the terminal content is not repeated.
func (r Renderer) airResult(use ToolUse, result Result, f ResultFacts, final *Update, terminal bool) {
	viewed := !result.IsError && r.namesViewedFile(use)
	if viewed && final.Content != nil {
		kept := []Content{}
		for _, c := range *final.Content {
			if !isTextContent(c) {
				kept = append(kept, c)
			}
		}
		final.Content = nil
		if len(kept) > 0 {
			final.Content = &kept
		}
	}
	switch {
	case f.AIRRawOutput != nil:
		final.RawOutput = *f.AIRRawOutput
	case viewed || terminal || final.Content != nil:
		final.RawOutput = nil
	default:
		final.RawOutput = result.Content
	}
	if f.PlanFilePath != "" {
		final.RawInput = planFileInput(use.Input, f.PlanFilePath)
	}
}

// isTextContent reports a `content` item whose block is text.
func isTextContent(c Content) bool {
	var item struct {
		Type    string `json:"type"`
		Content struct {
			Type string `json:"type"`
		} `json:"content"`
	}
	return json.Unmarshal(c, &item) == nil && item.Type == "content" && item.Content.Type == "text"
}

// namesViewedFile reports whether AIR shows a read or a search as the
// list of files it viewed: a path in its locations or in its input.
func (r Renderer) namesViewedFile(use ToolUse) bool {
	f := r.Facts(use)
	if f.Kind != "read" && f.Kind != "search" {
		return false
	}
	if f.Locations != nil {
		for _, l := range *f.Locations {
			if l.Path != "" {
				return true
			}
		}
	}
	in := parseInput(use.Input)
	if use.Name == "Grep" {
		if p, ok := in.strOK("path"); ok && p != "" {
			return true
		}
		p, _ := in.strOK("file_path")
		return p != ""
	}
	p, _ := in.strOK("path")
	return p != ""
}

// airExitCode is the exit code AIR gets: 1 for a failed or interrupted
// command, else the exit code, 0 when unknown.
func airExitCode(isError bool, c *CommandOutput) *int {
	code := 0
	switch {
	case isError || c.Interrupted:
		code = 1
	case c.ExitCode != nil:
		code = *c.ExitCode
	}
	return &code
}

// toolResponseMarkers keeps the `status` and `isAsync` markers of a
// PostToolUse `tool_response`, the only part AIR gets (contract: "Zed
// conventions"); nil when it has neither.
func toolResponseMarkers(raw json.RawMessage) json.RawMessage {
	var r map[string]json.RawMessage
	if json.Unmarshal(raw, &r) != nil {
		return nil
	}
	out := map[string]json.RawMessage{}
	var s string
	var b bool
	if v, ok := r["status"]; ok && json.Unmarshal(v, &s) == nil {
		out["status"] = v
	}
	if v, ok := r["isAsync"]; ok && json.Unmarshal(v, &b) == nil {
		out["isAsync"] = v
	}
	if len(out) == 0 {
		return nil
	}
	return encode(out)
}
