package mockapi

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// Kind says what a request was taken for.
type Kind int

const (
	// KindMain is an agent-loop request, answered by a turn.
	KindMain Kind = iota
	// KindTitle is a session-title request (output_config.format asking
	// for {"title": …}), answered from Side.Title.
	KindTitle
	// KindSuggestion is a prompt-suggestion request (last user text starts
	// with "[SUGGESTION MODE:"), answered from Side.Suggestion.
	KindSuggestion
	// KindSide is any other request that offers no tools (the max_tokens:1
	// check after set_model, structured-output calls), answered from
	// Side.Default.
	KindSide
	// KindCountTokens is POST /v1/messages/count_tokens.
	KindCountTokens
	// KindModels is GET /v1/models, a page of Script.Models.
	KindModels
	// KindOther is any other method or path (answered 404), or a body that
	// is not a Messages request (answered 400 or 413).
	KindOther
)

var kindNames = [...]string{"main", "title", "suggestion", "side", "count_tokens", "models", "other"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// suggestionPrefix starts the last user text of a prompt-suggestion request
// (seen from Claude Code 2.1.332).
const suggestionPrefix = "[SUGGESTION MODE:"

// messagesRequest is the part of a Messages API request body that routing
// reads.
type messagesRequest struct {
	Model     string            `json:"model"`
	Stream    bool              `json:"stream"`
	MaxTokens int               `json:"max_tokens"`
	Messages  []message         `json:"messages"`
	Tools     []json.RawMessage `json:"tools"`
	Output    *struct {
		Format *struct {
			Schema *struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schema"`
		} `json:"format"`
	} `json:"output_config"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type contentBlock struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	ToolUseID string `json:"tool_use_id"`
}

// lastUser is what routing reads from the last message whose role is user.
type lastUser struct {
	// Text is the message's text blocks joined with newlines, system
	// reminders removed.
	Text string
	// ToolResults are the tool_use_ids of its tool_result blocks.
	ToolResults []string
	// Reminders are its system reminder sections, joined with newlines.
	Reminders string
	// After is the text of the messages after it (the role "system"
	// message of the first turn), joined with newlines; only Turn.Capture
	// reads it.
	After string
}

var reminderRE = lazyre.New(`(?s)<system-reminder>.*?</system-reminder>\n?`)

// lastUserMessage finds and reads the last user message; the CLI puts a
// role "system" message (its environment block) after it on the first turn.
func lastUserMessage(msgs []message) lastUser {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			u := readUser(msgs[i].Content)
			var after []string
			for _, m := range msgs[i+1:] {
				after = append(after, allText(m.Content))
			}
			u.After = strings.Join(after, "\n")
			return u
		}
	}
	return lastUser{}
}

// allText is the text of a message's content: the string, or its text
// blocks joined with newlines, system reminders included.
func allText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []contentBlock
	_ = json.Unmarshal(raw, &blocks)
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
}

func readUser(raw json.RawMessage) lastUser {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return lastUser{Text: strings.TrimSpace(reminderRE.ReplaceAllString(s, "")), Reminders: reminders(s)}
	}
	var blocks []contentBlock
	_ = json.Unmarshal(raw, &blocks)
	var u lastUser
	var texts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if t := strings.TrimSpace(reminderRE.ReplaceAllString(b.Text, "")); t != "" {
				texts = append(texts, t)
			}
			if r := reminders(b.Text); r != "" {
				u.Reminders = strings.TrimPrefix(u.Reminders+"\n"+r, "\n")
			}
		case "tool_result":
			u.ToolResults = append(u.ToolResults, b.ToolUseID)
		}
	}
	u.Text = strings.Join(texts, "\n")
	return u
}

// reminders joins the system reminder sections of s.
func reminders(s string) string {
	return strings.Join(reminderRE.FindAllString(s, -1), "\n")
}

// classify tells side requests from the agent loop, by what the real CLI
// sends: title generation asks for a JSON schema with a title property and
// offers no tools; prompt suggestions look like a main request but their last
// user text starts with suggestionPrefix; other side calls offer no tools.
func classify(req *messagesRequest, u lastUser) Kind {
	if req.Output != nil && req.Output.Format != nil {
		if sc := req.Output.Format.Schema; sc != nil {
			if _, ok := sc.Properties["title"]; ok {
				return KindTitle
			}
		}
		return KindSide
	}
	if strings.HasPrefix(u.Text, suggestionPrefix) {
		return KindSuggestion
	}
	if len(req.Tools) == 0 {
		return KindSide
	}
	return KindMain
}

// matches reports whether w holds for u.
func (w When) matches(u lastUser) bool {
	if w.Text != "" && !strings.Contains(u.Text, w.Text) {
		return false
	}
	if w.Reminder != "" && !strings.Contains(u.Reminders, w.Reminder) {
		return false
	}
	if w.ToolResult != "" {
		found := false
		for _, id := range u.ToolResults {
			found = found || id == w.ToolResult
		}
		if !found {
			return false
		}
	}
	return true
}

// describe is u in at most 200 characters, for errors and logs.
func (u lastUser) describe() string {
	s := u.Text
	if len(u.ToolResults) > 0 {
		s = strings.TrimSpace("[tool_result " + strings.Join(u.ToolResults, ", ") + "] " + s)
	}
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200])
	}
	return s
}
