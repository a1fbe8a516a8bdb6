package toolcall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// textContent is one text content item.
func textContent(text string) Content {
	return encode(struct {
		Type    string `json:"type"`
		Content block  `json:"content"`
	}{"content", textBlock(text)})
}

// blockContent wraps an ACP content block as a content item.
func blockContent(b block) Content {
	return encode(struct {
		Type    string `json:"type"`
		Content block  `json:"content"`
	}{"content", b})
}

// terminalContent is the `terminal` content item of the terminal channel.
func terminalContent(id string) Content {
	return encode(map[string]string{"type": "terminal", "terminalId": id})
}

// diffContent is a `diff` item. oldText nil is JSON null; newText nil
// leaves the key out (a Write whose content has not streamed yet).
func diffContent(path string, oldText *string, newText json.RawMessage) Content {
	item := map[string]json.RawMessage{
		"type":    encode("diff"),
		"path":    encode(path),
		"oldText": encode(oldText),
	}
	if newText != nil {
		item["newText"] = newText
	}
	return encode(item)
}

// block is an ACP content block: text or image.
type block struct {
	Type     string  `json:"type"`
	Text     *string `json:"text,omitempty"`
	Data     *string `json:"data,omitempty"`
	MimeType *string `json:"mimeType,omitempty"`
}

func textBlock(text string) block { return block{Type: "text", Text: &text} }

// resultBlock is one block of a tool_result content as Claude sends it.
type resultBlock struct {
	Type   string `json:"type"`
	Text   string `json:"text"`
	Title  any    `json:"title"`
	Source struct {
		Type      string `json:"type"`
		Data      string `json:"data"`
		MediaType string `json:"media_type"`
		URL       string `json:"url"`
	} `json:"source"`
	ToolName string `json:"tool_name"`
	URL      string `json:"url"`
}

// contentItems turns a tool_result content (a string, a block, or a list
// of blocks) into content items; isError fences the text. It returns nil
// when there is nothing to show.
func contentItems(content json.RawMessage, isError bool) *[]Content {
	var s string
	if json.Unmarshal(content, &s) == nil {
		if s == "" {
			return nil
		}
		return list(blockContent(textBlock(fence(s, isError))))
	}
	var blocks []json.RawMessage
	if json.Unmarshal(content, &blocks) == nil {
		if len(blocks) == 0 {
			return nil
		}
		items := make([]Content, 0, len(blocks))
		for _, b := range blocks {
			items = append(items, blockContent(acpBlock(b, isError)))
		}
		return &items
	}
	var one map[string]json.RawMessage
	if json.Unmarshal(content, &one) == nil && one["type"] != nil {
		return list(blockContent(acpBlock(content, isError)))
	}
	return nil
}

func fence(text string, isError bool) string {
	if isError {
		return "```\n" + text + "\n```"
	}
	return text
}

// acpBlock converts one Claude content block into an ACP block.
func acpBlock(raw json.RawMessage, isError bool) block {
	var b resultBlock
	_ = json.Unmarshal(raw, &b)
	wrap := func(text string) block { return textBlock(fence(text, isError)) }
	switch b.Type {
	case "text":
		return wrap(b.Text)
	case "image":
		if b.Source.Type == "base64" {
			return block{Type: "image", Data: &b.Source.Data, MimeType: &b.Source.MediaType}
		}
		if b.Source.Type == "url" {
			return wrap("[image: " + b.Source.URL + "]")
		}
		return wrap("[image: file reference]")
	case "document":
		return wrap(documentPlaceholder(b))
	case "tool_reference":
		return wrap("Tool: " + b.ToolName)
	case "web_fetch_result":
		return wrap("Fetched: " + b.URL)
	}
	return wrap(string(compact(raw)))
}

// documentPlaceholder names a document block without its data.
func documentPlaceholder(b resultBlock) string {
	title := ""
	if t, ok := b.Title.(string); ok && t != "" {
		title = ` "` + t + `"`
	}
	switch b.Source.Type {
	case "url":
		return "[document" + title + ": " + b.Source.URL + "]"
	case "base64":
		return fmt.Sprintf("[document%s: %s, %s]", title, b.Source.MediaType, byteSize(len(b.Source.Data)*3/4))
	case "text":
		return fmt.Sprintf("[document%s: %s, %s]", title, b.Source.MediaType, byteSize(len(b.Source.Data)))
	}
	return "[document" + title + "]"
}

func byteSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
}

// compact is raw without insignificant whitespace, keys in their order.
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

var fenceRun = lazyre.New("(?m)^```+")

// markdownEscape fences text with a fence longer than any fence inside it.
func markdownEscape(text string) string {
	escape := "```"
	for _, m := range fenceRun.FindAllString(text, -1) {
		for len(m) >= len(escape) {
			escape += "`"
		}
	}
	nl := "\n"
	if strings.HasSuffix(text, "\n") {
		nl = ""
	}
	return escape + "\n" + text + nl + escape
}

// displayPath is path relative to cwd when it lies inside cwd.
func displayPath(path, cwd string) string {
	if cwd == "" {
		return path
	}
	c, err1 := filepath.Abs(cwd)
	f, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	if f == c || strings.HasPrefix(f, c+string(filepath.Separator)) {
		if rel, err := filepath.Rel(c, f); err == nil {
			return rel
		}
	}
	return path
}
