package permission

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/airwire/airwire/adapter/jsstr"
)

// question is one valid AskUserQuestion question.
type question struct {
	Text        string
	Header      string
	MultiSelect bool
	Options     []questionOption
}

// questionOption is one option of a question; Label stays raw because it
// becomes the enum const as given.
type questionOption struct {
	Label       json.RawMessage
	Description json.RawMessage
	Preview     json.RawMessage
}

// optionMetaKey carries an option's preview, which ACP's EnumOption has no
// field for.
const optionMetaKey = "_claude/askUserQuestionOption"

// parseQuestions returns the questions with a text and at least one option.
func parseQuestions(input *object) []question {
	items, _ := arrayOf(input.get("questions"))
	var out []question
	for _, raw := range items {
		var q struct {
			Question    *string           `json:"question"`
			Header      json.RawMessage   `json:"header"`
			MultiSelect json.RawMessage   `json:"multiSelect"`
			Options     []json.RawMessage `json:"options"`
		}
		if json.Unmarshal(raw, &q) != nil || q.Question == nil || len(q.Options) == 0 {
			continue
		}
		header, _ := stringOf(q.Header)
		qq := question{Text: *q.Question, Header: header, MultiSelect: truthy(q.MultiSelect)}
		for _, o := range q.Options {
			var opt struct {
				Label, Description, Preview json.RawMessage
			}
			_ = json.Unmarshal(o, &opt)
			qq.Options = append(qq.Options, questionOption{opt.Label, opt.Description, opt.Preview})
		}
		out = append(out, qq)
	}
	return out
}

// askQuestion turns AskUserQuestion into a form elicitation (Question custom
// answers): one select field per question and its `Other` companion text
// field.
func askQuestion(req Request, s Session) (*Prompt, *Decision) {
	questions := parseQuestions(req.input())
	if len(questions) == 0 {
		d := Deny(req, "AskUserQuestion called with no valid questions.")
		return nil, &d
	}
	props := newObject()
	for i, q := range questions {
		props.set(fieldKey(i), questionField(q, len(questions) == 1))
		props.set(customKey(i), customField(q, i, s.Client.AIR.Client))
	}
	schema := newObject()
	schema.set("type", marshal("object"))
	schema.set("properties", marshal(props))
	message := "Please answer the following questions."
	if len(questions) == 1 {
		message = questions[0].Text
	}
	params := newObject()
	params.set("mode", marshal("form"))
	params.set("sessionId", marshal(s.ID))
	if req.ToolUseID != "" {
		params.set("toolCallId", marshal(req.ToolUseID))
	}
	params.set("message", marshal(message))
	params.set("requestedSchema", marshal(schema))
	return &Prompt{Method: MethodCreateElicitation, Params: marshal(params),
		kind: kindQuestion, req: req, session: s, questions: questions}, nil
}

func fieldKey(i int) string  { return fmt.Sprintf("question_%d", i) }
func customKey(i int) string { return fmt.Sprintf("question_%d_custom", i) }

// questionField is the select field of a question: a titled oneOf string, or
// for a multi-select an array of titled anyOf items. A single question keeps
// its text in the message only.
func questionField(q question, single bool) json.RawMessage {
	var enum []json.RawMessage
	for _, o := range q.Options {
		e := newObject()
		if len(o.Label) > 0 {
			e.set("const", o.Label)
			e.set("title", o.Label)
		}
		if truthy(o.Description) {
			e.set("description", o.Description)
		}
		if truthy(o.Preview) {
			meta := newObject()
			meta.set(optionMetaKey, marshal(map[string]json.RawMessage{"preview": o.Preview}))
			e.set("_meta", marshal(meta))
		}
		enum = append(enum, marshal(e))
	}
	f := newObject()
	f.set("type", marshal(map[bool]string{true: "array", false: "string"}[q.MultiSelect]))
	if q.Header != "" {
		f.set("title", marshal(q.Header))
	}
	if !single {
		f.set("description", marshal(q.Text))
	}
	if q.MultiSelect {
		f.set("items", marshal(map[string]any{"anyOf": enum}))
	} else {
		f.set("oneOf", marshal(enum))
	}
	return marshal(f)
}

// customField is the `Other` companion field; for AIR it carries the custom
// answer marker under jetbrains.air.customAnswer and the legacy root key.
func customField(q question, i int, air bool) json.RawMessage {
	f := newObject()
	f.set("type", marshal("string"))
	f.set("title", marshal("Other"))
	desc := "Type your own answer, or add a note to the option you chose above (optional)."
	if q.MultiSelect {
		desc = "Type your own answer to add to your selection above (optional)."
	}
	f.set("description", marshal(desc))
	if air {
		marker := marshal(map[string]any{"questionId": fieldKey(i), "isCustomAnswer": true})
		legacy := newObject()
		legacy.set("_askUserQuestionCustomAnswer", marker)
		f.set("_meta", withAirMeta(legacy, "customAnswer", marker))
	}
	return marshal(f)
}

// answerQuestion folds the form answer into the tool input: `answers`
// keyed by question text, a single-select's note or a skipped question in
// `annotations`. Decline answers nothing; cancel (or an unknown action)
// aborts the tool use.
func (p *Prompt) answerQuestion(editorResult json.RawMessage) Decision {
	var resp struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(editorResult, &resp)
	answers, annotations := newObject(), newObject()
	switch resp.Action {
	case "decline":
		if p.session.ReportUnanswered {
			for _, q := range p.questions {
				annotations.set(q.Text, marshal(map[string]string{"unanswered": "dismissed"}))
			}
		}
	case "accept":
		content, ok := parseObject(resp.Content)
		if !ok {
			content = newObject()
		}
		p.collectAnswers(content, answers, annotations)
	default:
		return aborted()
	}
	input := p.req.input()
	input.set("answers", marshal(answers))
	if len(annotations.keys) > 0 {
		input.set("annotations", marshal(annotations))
	}
	r := result{Behavior: "allow", UpdatedInput: marshal(input), ToolUseID: p.req.ToolUseID}
	return Decision{Response: marshal(r), Allow: true}
}

// collectAnswers reads each question's pick and custom text.
func (p *Prompt) collectAnswers(content, answers, annotations *object) {
	for i, q := range p.questions {
		customRaw, _ := stringOf(content.get(customKey(i)))
		custom := jsstr.Trim(customRaw)
		picks := scalarPicks(content.get(fieldKey(i)))
		switch {
		case q.MultiSelect:
			if custom != "" {
				picks = append(picks, custom)
			}
			if text := joinMultiSelect(picks); text != "" {
				answers.set(q.Text, marshal(text))
			}
		case len(picks) == 0:
			if custom != "" {
				answers.set(q.Text, marshal(custom))
			}
		default:
			answers.set(q.Text, marshal(strings.Join(picks, ", ")))
			if custom != "" {
				annotations.set(q.Text, marshal(map[string]string{"notes": custom}))
			}
		}
	}
	if p.session.ReportUnanswered {
		for _, q := range p.questions {
			if answers.get(q.Text) == nil {
				annotations.set(q.Text, marshal(map[string]string{"unanswered": "skipped"}))
			}
		}
	}
}

// scalarPicks are the non-empty strings, numbers and booleans of a field
// value (one value or an array), as text.
func scalarPicks(raw json.RawMessage) []string {
	items, ok := arrayOf(raw)
	if !ok {
		items = []json.RawMessage{raw}
	}
	var out []string
	for _, it := range items {
		if s := scalarText(it); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// scalarText is String(value) of a JSON string, number or boolean; "" for
// anything else.
func scalarText(raw json.RawMessage) string {
	if s, ok := stringOf(raw); ok {
		return s
	}
	switch string(raw) {
	case "true", "false":
		return string(raw)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || len(raw) == 0 {
		return ""
	}
	if f == 0 {
		return "0"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// joinMultiSelect joins picks as the CLI's own multi-select answer: comma
// separated, an item with ", " or a quote JSON-quoted.
func joinMultiSelect(items []string) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = it
		if strings.Contains(it, ", ") || strings.Contains(it, `"`) {
			parts[i] = string(marshal(it))
		}
	}
	return strings.Join(parts, ", ")
}
