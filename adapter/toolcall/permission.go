package toolcall

import (
	"encoding/json"
	"strings"
	"unicode/utf16"

	"github.com/airwire/airwire/internal/lazyre"
)

// PermissionRequest is what a `can_use_tool` request says about the tool
// call it asks for.
type PermissionRequest struct {
	ToolUseID string
	ToolName  string
	Input     json.RawMessage
	// ParentToolUseID is the Agent tool call of the subagent that asks.
	ParentToolUseID string
	// BlockedPath is the path the request names, if any.
	BlockedPath string
	// DisplayName names a Computer Use request.
	DisplayName string
}

// PermissionToolCall is the `toolCall` of a `session/request_permission`
// request. A client that is not AIR gets the whole tool call again
// (contract: "Tool call of the request").
type PermissionToolCall struct {
	ToolCallID string          `json:"toolCallId"`
	Name       string          `json:"name,omitempty"`
	Status     string          `json:"status,omitempty"`
	RawInput   json.RawMessage `json:"rawInput,omitempty"`
	Title      string          `json:"title"`
	Kind       string          `json:"kind,omitempty"`
	Content    *[]Content      `json:"content,omitempty"`
	Locations  *[]Location     `json:"locations,omitempty"`
}

// Permission returns the updates to send before the request (the
// `tool_call`, when the client has not seen this tool call yet) and the
// tool call the request repeats.
func (s *Session) Permission(p PermissionRequest) ([]Update, PermissionToolCall) {
	use := ToolUse{ID: p.ToolUseID, Name: p.ToolName, Input: p.Input}
	preview := s.render.previewContent(use)
	before := s.ensureEmitted(use, p.ParentToolUseID, preview)
	return before, s.render.permissionToolCall(use, p, preview)
}

// ensureEmitted is the `tool_call` of a tool use the client has not seen
// yet, shown with preview when there is one (none when it was seen).
// preview, the exact patch the client shows now, is pinned: a later
// standard diff of the snippet must not replace it (Diff patch).
func (s *Session) ensureEmitted(use ToolUse, parent string, preview []Content) []Update {
	var before []Update
	if !s.emitted[use.ID] {
		s.emitted[use.ID] = true
		u := s.render.ToolCall(use)
		if preview != nil {
			u.Content = list(preview...)
		}
		stampParent(&u, parent)
		s.tracker.Apply(&u)
		before = append(before, u)
	}
	if preview != nil {
		s.tracker.Pin(use.ID, preview)
	}
	return before
}

// PermissionToolCall is the upstream request tool call: toolCallId, name,
// status pending (not for a v2 client: its subject updates a call that
// may run already), the whole rawInput, title, kind, content (the exact
// preview patch when there is one) and locations.
func (r Renderer) PermissionToolCall(use ToolUse, p PermissionRequest) PermissionToolCall {
	return r.permissionToolCall(use, p, r.previewContent(use))
}

func (r Renderer) permissionToolCall(use ToolUse, p PermissionRequest, preview []Content) PermissionToolCall {
	f := r.Facts(use)
	in := parseInput(use.Input)
	title := f.Title
	var fallback bool
	if p.ToolName == "SandboxNetworkAccess" {
		if host, ok := humanText(in.str("host"), 160, true); ok {
			title, fallback = host, true
		}
	} else if strings.HasPrefix(p.ToolName, "mcp__computer-use__") {
		fallback = true
		if name, ok := humanText(p.DisplayName, 160, true); ok {
			title = name
		}
	}
	if r.air() {
		return r.airPermissionToolCall(use, f, title, preview, r.extraLocations(f, p))
	}
	call := PermissionToolCall{
		ToolCallID: use.ID, Name: use.Name, Status: "pending", RawInput: use.Input,
		Title: title, Kind: f.Kind, Content: r.toolUseContent(use.ID, f),
	}
	if r.Caps.V2 {
		// A v2 request's subject is an update of the tool call, which went
		// out before it: a status there would move a running call back.
		call.Status = ""
	}
	if preview != nil {
		call.Content = list(preview...)
	}
	if len(*call.Content) == 0 && fallback {
		call.Content = list(textContent("```json\n" + indentJSON(use.Input) + "\n```"))
	}
	locations := []Location{}
	if f.Locations != nil {
		locations = append(locations, *f.Locations...)
	}
	if blocked, ok := humanText(p.BlockedPath, 4096, true); ok && !hasPath(locations, blocked) {
		locations = append(locations, Location{Path: blocked})
		call.Locations = &locations
	} else if f.Locations != nil {
		call.Locations = &locations
	}
	return call
}

// extraLocations is the blocked path of a request when the tool call has
// no such location yet.
func (r Renderer) extraLocations(f UseFacts, p PermissionRequest) []Location {
	blocked, ok := humanText(p.BlockedPath, 4096, true)
	if !ok || (f.Locations != nil && hasPath(*f.Locations, blocked)) {
		return nil
	}
	return []Location{{Path: blocked}}
}

// previewContent is the exact preview patch of an Edit or a Write for a
// diffPatch client (contract: "Diff patch": "the preview in the
// permission request") and, as a v2 diff, for an ACP v2 client; nil when
// there is none.
func (r Renderer) previewContent(use ToolUse) []Content {
	switch {
	case r.Replay:
		return nil
	case r.Caps.V2:
		return r.Disk.previewPatch(use.Name, parseInput(use.Input), r.Cwd, v2Patch)
	case r.diffPatch():
		return r.Disk.previewPatch(use.Name, parseInput(use.Input), r.Cwd, airPatch)
	}
	return nil
}

func hasPath(locations []Location, path string) bool {
	for _, l := range locations {
		if l.Path == path {
			return true
		}
	}
	return false
}

func indentJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(raw)
	}
	return string(b)
}

var whitespaceRun = lazyre.New(`\s+`)

// humanText is value without control characters, on one line when
// singleLine, when it is not empty and at most maxLen UTF-16 units long.
func humanText(value string, maxLen int, singleLine bool) (string, bool) {
	kept := strings.Map(func(c rune) rune {
		if c <= 0x08 || c == 0x0b || c == 0x0c || (c >= 0x0e && c <= 0x1f) || c == 0x7f {
			return -1
		}
		return c
	}, value)
	if singleLine {
		kept = whitespaceRun.ReplaceAllString(kept, " ")
	}
	kept = strings.TrimSpace(kept)
	if kept == "" || len(utf16.Encode([]rune(kept))) > maxLen {
		return "", false
	}
	return kept, true
}

// Preview is what the PreToolUse preview hook of an ACP v2 client shows of
// an Edit or a Write before it runs (parent: the subagent tool call that
// made it): the tool call with the exact patch when the client has not
// seen it yet, else an update with the patch, which the streamed input
// then does not replace. Nothing when no patch can be made, or on replay.
func (s *Session) Preview(toolUseID, toolName string, input json.RawMessage, parent string) []Update {
	if !s.render.Caps.V2 || s.render.Replay {
		return nil
	}
	use := ToolUse{ID: toolUseID, Name: toolName, Input: input}
	preview := s.render.previewContent(use)
	if preview == nil {
		return nil
	}
	if !s.emitted[toolUseID] {
		return s.ensureEmitted(use, parent, preview)
	}
	u := Update{ToolCallID: toolUseID, SessionUpdate: kindToolCallUpdate, Content: list(preview...)}
	stampParent(&u, parent)
	if !s.tracker.Apply(&u) {
		return nil
	}
	s.tracker.Pin(toolUseID, preview)
	return []Update{u}
}
