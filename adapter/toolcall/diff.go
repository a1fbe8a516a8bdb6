package toolcall

import (
	"encoding/json"
	"strings"
)

const noNewlineMarker = `\ No newline at end of file`

// toolResponse is the PostToolUse `tool_response` of an Edit or a Write.
type toolResponse struct {
	FilePath        string  `json:"filePath"`
	Type            string  `json:"type"`
	Content         *string `json:"content"`
	OriginalFile    *string `json:"originalFile"`
	StructuredPatch *[]struct {
		Lines    []string `json:"lines"`
		OldStart int      `json:"oldStart"`
		OldLines int      `json:"oldLines"`
		NewStart int      `json:"newStart"`
		NewLines int      `json:"newLines"`
	} `json:"structuredPatch"`
}

// diffFromToolResponse is the final change of an Edit or a Write: one diff
// per hunk of the structuredPatch, with its location. An update of a file
// without hunks gets the whole file, or a note when it was too large to
// diff.
func diffFromToolResponse(raw json.RawMessage) ResultFacts {
	var r toolResponse
	if json.Unmarshal(raw, &r) != nil || r.FilePath == "" || r.StructuredPatch == nil {
		return ResultFacts{}
	}
	var content []Content
	var locations []Location
	for _, hunk := range *r.StructuredPatch {
		oldText, newText := hunkTexts(hunk.Lines)
		if len(oldText) == 0 && len(newText) == 0 {
			continue
		}
		line := hunk.NewStart
		locations = append(locations, Location{Path: r.FilePath, Line: &line})
		var old *string
		if o := strings.Join(oldText, "\n"); o != "" {
			old = &o
		}
		content = append(content, diffContent(r.FilePath, old, encode(strings.Join(newText, "\n"))))
	}
	if len(content) == 0 && r.Type == "update" && r.Content != nil {
		locations = append(locations, Location{Path: r.FilePath})
		if r.OriginalFile != nil {
			content = append(content, diffContent(r.FilePath, r.OriginalFile, encode(*r.Content)))
		} else {
			content = append(content, textContent("Updated `"+r.FilePath+"` (previous content too large to diff)"))
		}
	}
	var f ResultFacts
	if len(content) > 0 {
		f.Content = &content
	}
	if len(locations) > 0 {
		f.Locations = &locations
	}
	return f
}

// hunkTexts splits the lines of a hunk into the old and the new text.
func hunkTexts(lines []string) (oldText, newText []string) {
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "-"):
			oldText = append(oldText, line[1:])
		case strings.HasPrefix(line, "+"):
			newText = append(newText, line[1:])
		case line == noNewlineMarker:
		default:
			rest := ""
			if line != "" {
				rest = line[1:]
			}
			oldText = append(oldText, rest)
			newText = append(newText, rest)
		}
	}
	return oldText, newText
}
