package toolcall

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// bashReporter reports Bash and PowerShell: a command whose output goes to
// the terminal channel, or to a `console` block without one (contract:
// "Claude tools and ACP fields", "Zed conventions").
type bashReporter struct{}

// shellDescription is the description of a shell input. The CLI also
// accepts `command_description`; the canonical key wins.
func shellDescription(in Input) (string, bool) {
	if d, ok := in.strOK("description"); ok {
		return d, true
	}
	return in.strOK("command_description")
}

func (bashReporter) ToolUse(in Input, _ UseContext) UseFacts {
	f := UseFacts{Title: "Terminal", Kind: "execute", Command: true}
	if in.truthy("command") {
		f.Title = in.text("command")
	}
	if d, _ := shellDescription(in); d != "" {
		f.Display = []Content{textContent(d)}
	}
	return f
}

// ErrorResult: a client with a terminal reads a failed command from it.
func (b bashReporter) ErrorResult(ctx ResultContext) (ResultFacts, bool) {
	if !ctx.Caps.TerminalChannel() {
		return ResultFacts{}, false
	}
	return b.ToolResult(ctx), true
}

// bashOutput is the structured BashOutput of a tool_use_result.
type bashOutput struct {
	Stdout                   *string         `json:"stdout"`
	Stderr                   *string         `json:"stderr"`
	IsImage                  bool            `json:"isImage"`
	BackgroundTaskID         json.RawMessage `json:"backgroundTaskId"`
	Interrupted              bool            `json:"interrupted"`
	ReturnCodeInterpretation json.RawMessage `json:"returnCodeInterpretation"`
	PersistedOutputPath      *string         `json:"persistedOutputPath"`
	PersistedOutputSize      *float64        `json:"persistedOutputSize"`
}

func (bashReporter) ToolResult(ctx ResultContext) ResultFacts {
	isError := ctx.Result.IsError
	out := CommandOutput{}
	if !isError {
		out.ExitCode = ptr(0)
	}
	var sb bashOutput
	structured := json.Unmarshal(ctx.Structured, &sb) == nil && sb.Stdout != nil && sb.Stderr != nil &&
		!sb.IsImage && sb.BackgroundTaskID == nil
	var s string
	var blocks []resultBlock
	switch {
	case structured:
		structuredOutput(&out, sb)
	case json.Unmarshal(ctx.Result.Content, &s) == nil:
		out.Output = s
	case json.Unmarshal(ctx.Result.Content, &blocks) == nil && len(blocks) > 0:
		texts, ok := textBlocks(ctx.Result.Content)
		if !ok {
			return ResultFacts{Content: contentItems(ctx.Result.Content, isError)}
		}
		out.Output = strings.Join(texts, "\n")
	}
	if isError && out.ExitCode == nil {
		out.ExitCode = failureExitCode(out.Output)
	}
	// A backgrounded command still runs: the result only announces it.
	if sb.BackgroundTaskID != nil {
		out.ExitCode = nil
	}
	return ResultFacts{Command: &out}
}

// structuredOutput reads the output from the structured BashOutput, which
// lacks the model-directed suffixes of the raw text.
func structuredOutput(out *CommandOutput, sb bashOutput) {
	out.Output = joinNonEmpty(*sb.Stdout, *sb.Stderr)
	if sb.Interrupted {
		out.Output = joinNonEmpty(out.Output, "[Command was aborted before completion]")
		out.ExitCode = nil
		out.Interrupted = true
	}
	if sb.ReturnCodeInterpretation != nil {
		out.ExitCode = nil
	}
	if sb.PersistedOutputPath != nil {
		size := ""
		if sb.PersistedOutputSize != nil {
			size = " (" + jsNumber(*sb.PersistedOutputSize) + " bytes total)"
		}
		out.Output = joinNonEmpty(out.Output, "[Output truncated"+size+": full output saved to "+*sb.PersistedOutputPath+"]")
	}
}

// textBlocks are the texts of a block list, and whether every block has one.
func textBlocks(content json.RawMessage) ([]string, bool) {
	var blocks []map[string]json.RawMessage
	if json.Unmarshal(content, &blocks) != nil {
		return nil, false
	}
	texts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		var t string
		if json.Unmarshal(b["text"], &t) != nil {
			return nil, false
		}
		texts = append(texts, t)
	}
	return texts, true
}

func joinNonEmpty(parts ...string) string {
	kept := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n")
}

var exitCodeLine = lazyre.New(`^Exit code (\d+)(?:\n|$)`)

// failureExitCode is the code that the text of a failed command names:
// Claude Code starts it with `Exit code N`.
func failureExitCode(text string) *int {
	m := exitCodeLine.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	return &n
}
