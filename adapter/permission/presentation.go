package permission

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/adapter/caps"
)

// permissionToolCall adds to the rendered tool call what the permission
// presentation owns (Tool call of the request):
//   - the title of a Sandbox Network request (the host) and of a Computer Use
//     request (the display name);
//   - a valid blockedPath as a location, when the tool call has no such
//     location yet;
//   - for a client that is not AIR, a Sandbox Network or Computer Use request
//     without content shows its input as a JSON code block;
//   - `_meta.claudeCode` with mcpServer, and for a client that is not AIR the
//     toolName and the parentToolUseId of a subagent's tool call.
func permissionToolCall(req Request, toolCall json.RawMessage, s Session) json.RawMessage {
	tc, ok := parseObject(toolCall)
	if !ok {
		tc = newObject()
		tc.set("toolCallId", marshal(req.ToolUseID))
	}
	subject := subjectTitle(req)
	if subject != "" {
		tc.set("title", marshal(subject))
	}
	air := s.Client.AIR.Client
	// For AIR the rendered tool call already holds only the locations the
	// tool call lacks (Tool call of the request).
	if blocked := humanText(req.BlockedPath, req.BlockedPath != "", 4_096, true); blocked != "" && !air {
		addLocation(tc, blocked)
	}
	if !air && (subject != "" || strings.HasPrefix(req.ToolName, computerUsePrefix)) && emptyArray(tc.get("content")) {
		tc.set("content", inputCodeBlock(req.Input))
	}
	if meta := claudeCodeMeta(req, s.ParentToolUseID, air); meta != nil {
		tc.set("_meta", meta)
	}
	return marshal(tc)
}

// subjectTitle is the host of a Sandbox Network request or the display name
// of a Computer Use request, in compact text; "" for every other tool.
func subjectTitle(req Request) string {
	switch {
	case req.ToolName == "SandboxNetworkAccess":
		host, ok := stringOf(req.input().get("host"))
		return humanText(host, ok, 160, true)
	case strings.HasPrefix(req.ToolName, computerUsePrefix):
		return humanText(req.DisplayName, req.DisplayName != "", 160, true)
	}
	return ""
}

// addLocation appends {path} to the tool call's locations unless a location
// has that path.
func addLocation(tc *object, p string) {
	locs, _ := arrayOf(tc.get("locations"))
	for _, raw := range locs {
		var loc struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(raw, &loc) == nil && loc.Path == p {
			return
		}
	}
	tc.set("locations", marshal(append(locs, marshal(map[string]string{"path": p}))))
}

// emptyArray reports an absent or empty JSON array.
func emptyArray(raw json.RawMessage) bool {
	a, ok := arrayOf(raw)
	return len(raw) == 0 || (ok && len(a) == 0)
}

// inputCodeBlock is the tool input as one JSON code block content item.
func inputCodeBlock(input json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Indent(&b, input, "", "  ") != nil {
		b.Reset()
		b.WriteString("{}")
	}
	text := "```json\n" + b.String() + "\n```"
	return marshal([]any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": text}}})
}

// claudeCodeMeta is the request tool call's `_meta`, nil when it has none.
func claudeCodeMeta(req Request, parent string, air bool) json.RawMessage {
	if req.MCPServer == nil && (parent == "" || air) {
		return nil
	}
	cc := newObject()
	if !air {
		cc.set("toolName", marshal(req.ToolName))
		if parent != "" {
			cc.set("parentToolUseId", marshal(parent))
		}
	}
	if req.MCPServer != nil {
		cc.set("mcpServer", marshal(req.MCPServer))
	}
	meta := newObject()
	meta.set("claudeCode", marshal(cc))
	return marshal(meta)
}

// airPermissionMeta is the request's `_meta.jetbrains.air.permission`
// record, for an AIR client only (Permission presentation, Request).
func airPermissionMeta(req Request, toolCall json.RawMessage, c caps.Client) json.RawMessage {
	if !c.AIR.Client {
		return nil
	}
	title, description := promptHeading(req, toolCall)
	if title == "" {
		return nil
	}
	rec := newObject()
	rec.set("version", marshal(1))
	rec.set("title", marshal(title))
	if description != "" {
		rec.set("description", marshal(description))
	}
	if req.DefaultToNo {
		rec.set("defaultToNo", marshal(true))
	}
	return withAirMeta(nil, "permission", marshal(rec))
}

// promptHeading is the prompt's title (the tool call's, "Ready to code?"
// for ExitPlanMode) and its description (the CLI's decision reason): AIR
// reads them in `_meta`, an ACP v2 client as the request's own fields.
func promptHeading(req Request, toolCall json.RawMessage) (title, description string) {
	var tc struct {
		Title string `json:"title"`
	}
	_ = json.Unmarshal(toolCall, &tc)
	title = tc.Title
	if req.ToolName == "ExitPlanMode" {
		title = "Ready to code?"
	}
	if req.ToolName != "Bash" && req.ToolName != "PowerShell" {
		title = orDefault(humanText(title, true, 4_000, true), "Use tool?")
	}
	if reason := humanText(req.DecisionReason, req.DecisionReason != "", 4_000, false); reason != "" {
		description = "Reason: " + reason
	}
	return title, description
}

// withAirMeta returns meta with `jetbrains.air.version = 1` and
// `jetbrains.air.<key> = payload` added.
func withAirMeta(meta *object, key string, payload json.RawMessage) json.RawMessage {
	if meta == nil {
		meta = newObject()
	}
	air := newObject()
	air.set("version", marshal(1))
	air.set(key, payload)
	jb := newObject()
	jb.set("air", marshal(air))
	meta.set("jetbrains", marshal(jb))
	return marshal(meta)
}
