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

// patchForm is how a patch travels to the client: in AIR's diffPatch
// `_meta`, or as an ACP v2 diff.
type patchForm uint8

const (
	airPatch patchForm = iota
	v2Patch
)

// content is the diff block that carries the patch p of path.
func (f patchForm) content(path string, p filePatch) Content {
	if f == v2Patch {
		return v2DiffContent(path, p.create, p.hunks)
	}
	return patchContent(path, p)
}

// v2DiffContent is the ACP v2 diff of a change to the text file path: the
// change (an add for a created file) and, given hunks, its Git patch. A
// v1 diff cannot say this (its texts can be snippets), so the agent builds
// v2 diffs itself for a v2 client, and they pass the v2 mapping as they are.
func v2DiffContent(path string, create bool, hunks []patchHunk) Content {
	op := "modify"
	if create {
		op = "add"
	}
	item := map[string]any{"type": "diff", "changes": []any{map[string]any{"operation": op, "path": path, "fileType": "text"}}}
	if len(hunks) > 0 {
		item["patch"] = map[string]any{"format": "git_patch", "text": v2PatchText(path, filePatch{create: create, hunks: hunks})}
	}
	return encode(item)
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
// diffPatch client, and of the preview of an ACP v2 client (form): the
// exact patch of the input applied to the file in memory, the standard
// diff of a Write that cannot have one (in v2, the change alone), or a
// notice for a Write over a file that cannot be read. nil keeps the tool
// call's content.
func (d *Disk) previewPatch(toolName string, in Input, cwd string, form patchForm) []Content {
	switch toolName {
	case "Edit":
		return d.editPreview(in, cwd, form)
	case "Write":
		return d.writePreview(in, cwd, form)
	}
	return nil
}

func (d *Disk) editPreview(in Input, cwd string, form patchForm) []Content {
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
		return exactPatch(path, optional(oldText, exists), newString, form)
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
	return exactPatch(path, &oldText, replaceSnippet(oldText, oldString, newString, in.isTrue("replace_all")), form)
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

func (d *Disk) writePreview(in Input, cwd string, form patchForm) []Content {
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
	if form == v2Patch {
		standard = []Content{v2DiffContent(abs, !exists, nil)}
	}
	if !patchableText(content) {
		return standard
	}
	if p := exactPatch(abs, optional(oldText, exists), content, form); p != nil {
		return p
	}
	return standard
}

// exactPatch is the one-block content of the patch in form, nil when the
// texts are equal.
func exactPatch(path string, oldText *string, newText string, form patchForm) []Content {
	p, ok := diffFile(oldText, newText)
	if !ok {
		return nil
	}
	return []Content{form.content(path, p)}
}

// hookPatch is the final change of an Edit or a Write for a diffPatch
// client, or an ACP v2 client (form): the SDK originalFile against the
// file on disk after the tool ran ("It does not use the SDK
// structuredPatch hunks"). ok is false when no exact patch can be made;
// the caller then sends the standard diff.
func (d *Disk) hookPatch(raw json.RawMessage, form patchForm) (ResultFacts, bool) {
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
	return ResultFacts{Content: list(form.content(*r.FilePath, p)), Locations: &locations}, true
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
	if ctx.Caps.V2 {
		return ctx.Disk.v2FinalChange(toolResponse)
	}
	if !usesDiffPatch(ctx.Caps) {
		return diffFromToolResponse(toolResponse)
	}
	if unchangedEdit(toolResponse) {
		return ResultFacts{}
	}
	if f, ok := ctx.Disk.hookPatch(toolResponse, airPatch); ok {
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

// v2FinalChange is the final change of an Edit or a Write for an ACP v2
// client: the exact patch against disk, else the change with a patch from
// what the tool_response holds (a created file's text, an update's
// structuredPatch: display data, enough for a v2 patch, which is text to
// render and not to apply); an update without hunks gets the change alone.
func (d *Disk) v2FinalChange(raw json.RawMessage) ResultFacts {
	if f, ok := d.hookPatch(raw, v2Patch); ok {
		return f
	}
	var r toolResponse
	if json.Unmarshal(raw, &r) != nil || r.FilePath == "" {
		return ResultFacts{}
	}
	if r.Type == "create" {
		var hunks []patchHunk
		if r.Content != nil && patchableText(*r.Content) {
			if h, ok := wholeFileHunk(*r.Content); ok {
				hunks = []patchHunk{h}
			}
		}
		return ResultFacts{Content: list(v2DiffContent(r.FilePath, true, hunks)), Locations: list(Location{Path: r.FilePath})}
	}
	if unchangedEdit(raw) {
		return ResultFacts{}
	}
	var hunks []patchHunk
	locations := []Location{}
	if r.StructuredPatch != nil {
		for _, h := range *r.StructuredPatch {
			hunks = append(hunks, patchHunk{oldStart: h.OldStart, oldLines: h.OldLines, newStart: h.NewStart, newLines: h.NewLines, lines: h.Lines})
			line := h.NewStart
			locations = append(locations, Location{Path: r.FilePath, Line: &line})
		}
	}
	if len(hunks) == 0 {
		locations = []Location{{Path: r.FilePath}}
	}
	return ResultFacts{Content: list(v2DiffContent(r.FilePath, false, hunks)), Locations: &locations}
}
