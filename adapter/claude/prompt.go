package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// SystemPrompt is the SDK's systemPrompt option: a whole prompt (Replace)
// or the claude_code preset with Append and ExcludeDynamicSections. It
// reaches the CLI in the initialize request, never on the command line.
type SystemPrompt struct {
	Replace                *string
	Append                 string
	ExcludeDynamicSections *bool
}

// Apply sets init's prompt fields as the SDK does: a replacement becomes
// systemPrompt [text]; the preset sends only what it adds.
func (s SystemPrompt) Apply(init *Initialize) {
	if s.Replace != nil {
		init.SystemPrompt = []string{*s.Replace}
		return
	}
	init.AppendSystemPrompt, init.ExcludeDynamicSections = s.Append, s.ExcludeDynamicSections
}

// ReferenceSystemPrompt picks the session's system prompt as the reference
// does: the preset (with AIR's customInstructions appended), replaced by
// `_meta.systemPrompt` (a string replaces it; an object sets the preset's
// append and excludeDynamicSections), and above both the ACP
// `params.systemPrompt` ({mode: append|override, content: text blocks}),
// which customInstructions still follows.
func ReferenceSystemPrompt(meta, clientPrompt json.RawMessage, customInstructions string) (SystemPrompt, error) {
	p := SystemPrompt{Append: customInstructions}
	var m struct {
		SystemPrompt json.RawMessage `json:"systemPrompt"`
	}
	if len(meta) > 0 && json.Unmarshal(meta, &m) == nil && len(m.SystemPrompt) > 0 {
		var text string
		var preset struct {
			Append                 string `json:"append"`
			ExcludeDynamicSections *bool  `json:"excludeDynamicSections"`
		}
		switch {
		case json.Unmarshal(m.SystemPrompt, &text) == nil:
			p = SystemPrompt{Replace: &text}
		case m.SystemPrompt[0] == '{' && json.Unmarshal(m.SystemPrompt, &preset) == nil:
			p = SystemPrompt{Append: preset.Append, ExcludeDynamicSections: preset.ExcludeDynamicSections}
		}
	}
	if len(clientPrompt) == 0 || string(clientPrompt) == "null" {
		return p, nil
	}
	mode, text, err := clientSystemPrompt(clientPrompt)
	if err != nil {
		return SystemPrompt{}, err
	}
	text = joinNonEmpty(text, customInstructions)
	if mode == "override" {
		return SystemPrompt{Replace: &text}, nil
	}
	return SystemPrompt{Append: text}, nil
}

// clientSystemPrompt reads an ACP systemPrompt; the errors are the
// reference's invalid_params messages.
func clientSystemPrompt(raw json.RawMessage) (mode, text string, err error) {
	var sp struct {
		Mode    string `json:"mode"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &sp); err != nil {
		return "", "", fmt.Errorf("systemPrompt: %w", err)
	}
	if sp.Mode != "append" && sp.Mode != "override" {
		return "", "", errors.New("Unsupported systemPrompt mode: " + sp.Mode)
	}
	var parts []string
	for _, b := range sp.Content {
		if b.Type != "text" {
			return "", "", fmt.Errorf("systemPrompt content must be text, but received a %s block", b.Type)
		}
		parts = append(parts, b.Text)
	}
	return sp.Mode, strings.Join(parts, "\n\n"), nil
}

func joinNonEmpty(parts ...string) string {
	var kept []string
	for _, s := range parts {
		if s != "" {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, "\n\n")
}
