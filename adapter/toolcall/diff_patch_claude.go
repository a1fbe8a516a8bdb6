package toolcall

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/airwire/airwire/adapter/airmeta"
	"github.com/airwire/airwire/adapter/caps"
)

// The preview and final patches of Claude's Edit and Write (contract:
// "Diff patch", "Claude behavior").

// patchContent is the diff block of an exact patch: placeholders in
// oldText and newText, the patch at `_meta.jetbrains.air.diffPatch`.
func patchContent(path string, p filePatch) Content {
	return encode(map[string]any{
		"type": "diff", "path": path, "oldText": nil, "newText": "",
		"_meta": airmeta.Merge(nil, "diffPatch", map[string]any{
			"version": 1, "format": "git_patch", "text": gitPatchText(path, p),
		}),
	})
}

// readPatchSource reads the current text of a file for a patch: exists
// false when it is missing, ok false when it cannot be a patch side.
func (d *Disk) readPatchSource(path string) (text string, exists, ok bool) {
	if d == nil || d.ReadFile == nil {
		return "", false, false
	}
	b, err := d.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, true
	}
	if err != nil {
		return "", true, false
	}
	text, ok = decodePatchSource(b)
	return text, true, ok
}

// previewPatch is the content of the approval of an Edit or a Write for a
// diffPatch client: the exact patch of the input applied to the file in
// memory, the standard diff of a Write that cannot have one, or a notice
// for a Write over a file that cannot be read. nil keeps the tool call's
// content.
func (d *Disk) previewPatch(toolName string, in Input, cwd string) []Content {
	switch toolName {
	case "Edit":
		return d.editPreview(in, cwd)
	case "Write":
		return d.writePreview(in, cwd)
	}
	return nil
}

func (d *Disk) editPreview(in Input, cwd string) []Content {
	path, ok1 := in.strOK("file_path")
	oldString, ok2 := in.strOK("old_string")
	newString, ok3 := in.strOK("new_string")
	if !ok1 || !ok2 || !ok3 || oldString == newString || !patchableText(newString) {
		return nil
	}
	path = resolveToolPath(path, cwd)
	oldText, exists, ok := d.readPatchSource(path)
	if !ok {
		return nil
	}
	if oldString == "" {
		if exists && (strings.TrimSpace(oldText) != "" || strings.Contains(oldText, "\uFEFF")) {
			return nil
		}
		return exactPatch(path, optional(oldText, exists), newString)
	}
	if !exists {
		return nil
	}
	n := strings.Count(oldText, oldString)
	if n == 0 || (!in.isTrue("replace_all") && n != 1) {
		return nil
	}
	if len(oldText)+n*max(0, len(newString)-len(oldString)) > maxPatchFileBytes {
		return nil
	}
	return exactPatch(path, &oldText, replaceSnippet(oldText, oldString, newString, in.isTrue("replace_all")))
}

// replaceSnippet applies an Edit: an empty new_string also removes the
// line break after old_string when old_string has none and the file holds
// it followed by one.
func replaceSnippet(text, oldString, newString string, all bool) string {
	target := oldString
	if newString == "" && !strings.HasSuffix(oldString, "\n") && strings.Contains(text, oldString+"\n") {
		target = oldString + "\n"
	}
	if all {
		return strings.ReplaceAll(text, target, newString)
	}
	return strings.Replace(text, target, newString, 1)
}

func (d *Disk) writePreview(in Input, cwd string) []Content {
	path, raw, _ := writeInput(in)
	var content string
	if path == "" || raw == nil || json.Unmarshal(raw, &content) != nil {
		return nil
	}
	abs := resolveToolPath(path, cwd)
	oldText, exists, ok := d.readPatchSource(abs)
	if !ok {
		return []Content{textContent("Overwrites the existing file `" + path + "`. The adapter cannot show its current content.")}
	}
	if exists && oldText == content {
		return nil
	}
	standard := []Content{diffContent(path, optional(oldText, exists), encode(content))}
	if !patchableText(content) {
		return standard
	}
	if p := exactPatch(abs, optional(oldText, exists), content); p != nil {
		return p
	}
	return standard
}

// exactPatch is the one-block content of the patch, nil when the texts
// are equal.
func exactPatch(path string, oldText *string, newText string) []Content {
	p, ok := diffFile(oldText, newText)
	if !ok {
		return nil
	}
	return []Content{patchContent(path, p)}
}

// hookPatch is the final change of an Edit or a Write for a diffPatch
// client: the SDK originalFile against the file on disk after the tool
// ran ("It does not use the SDK structuredPatch hunks"). ok is false when
// no exact patch can be made; the caller then sends the standard diff.
func (d *Disk) hookPatch(raw json.RawMessage) (ResultFacts, bool) {
	var r struct {
		FilePath     *string `json:"filePath"`
		Type         *string `json:"type"`
		OldString    *string `json:"oldString"`
		Content      *string `json:"content"`
		OriginalFile *string `json:"originalFile"`
	}
	if json.Unmarshal(raw, &r) != nil || r.FilePath == nil {
		return ResultFacts{}, false
	}
	typ := ""
	if r.Type != nil {
		typ = *r.Type
	}
	var oldText *string
	switch {
	case typ == "create":
	case r.OriginalFile != nil:
		oldText = r.OriginalFile
	default:
		return ResultFacts{}, false
	}
	if oldText != nil {
		// The original side obeys the rules of a file read from disk: a
		// patch never holds a CR, and a binary original has no text patch.
		if _, ok := decodePatchSource([]byte(*oldText)); !ok {
			return ResultFacts{}, false
		}
	}
	newText, exists, ok := d.readPatchSource(*r.FilePath)
	if !ok || !exists || strings.HasPrefix(newText, "\uFEFF") || (typ == "create" && (r.Content == nil || newText != *r.Content)) {
		return ResultFacts{}, false
	}
	p, changed := diffFile(oldText, newText)
	if !changed {
		return ResultFacts{}, false
	}
	locations := []Location{{Path: *r.FilePath}}
	if !p.create {
		locations = locations[:0]
		for _, h := range p.hunks {
			line := h.newStart
			locations = append(locations, Location{Path: *r.FilePath, Line: &line})
		}
	}
	return ResultFacts{Content: list(patchContent(*r.FilePath, p)), Locations: &locations}, true
}

// unchangedEdit reports a tool_response that changes nothing: an update
// whose content is its original, or an empty Edit of an empty file.
func unchangedEdit(raw json.RawMessage) bool {
	var r struct {
		Type         *string `json:"type"`
		OldString    *string `json:"oldString"`
		Content      *string `json:"content"`
		OriginalFile *string `json:"originalFile"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return false
	}
	if r.Type == nil && r.OldString != nil && *r.OldString == "" && r.OriginalFile != nil && *r.OriginalFile == "" {
		return true
	}
	return r.Type != nil && *r.Type == "update" && r.Content != nil && r.OriginalFile != nil && *r.Content == *r.OriginalFile
}

func optional(text string, exists bool) *string {
	if !exists {
		return nil
	}
	return &text
}

// resolveToolPath makes a tool's path absolute against cwd.
func resolveToolPath(path, cwd string) string {
	if filepath.IsAbs(path) || cwd == "" {
		return path
	}
	return filepath.Join(cwd, path)
}

// usesDiffPatch reports whether the client declared diffPatch.
func usesDiffPatch(c caps.Client) bool { return c.AIR.Client && c.AIR.Has(caps.DiffPatch) }

// finalChange is the change an Edit or a Write reports at its PostToolUse
// hook: for a diffPatch client the exact patch against disk, else (and
// as the fallback) the standard diff; a created file whose patch cannot
// be made shows its whole text ("Fallback").
func finalChange(toolResponse json.RawMessage, ctx UseContext) ResultFacts {
	if !usesDiffPatch(ctx.Caps) {
		return diffFromToolResponse(toolResponse)
	}
	if unchangedEdit(toolResponse) {
		return ResultFacts{}
	}
	if f, ok := ctx.Disk.hookPatch(toolResponse); ok {
		return f
	}
	var r struct {
		Type     string  `json:"type"`
		FilePath *string `json:"filePath"`
		Content  *string `json:"content"`
	}
	if json.Unmarshal(toolResponse, &r) == nil && r.Type == "create" && r.FilePath != nil && r.Content != nil {
		return ResultFacts{
			Content:   list(diffContent(*r.FilePath, nil, encode(*r.Content))),
			Locations: list(Location{Path: *r.FilePath}),
		}
	}
	return diffFromToolResponse(toolResponse)
}
