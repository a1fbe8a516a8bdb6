package adapter

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/airwire/airwire/adapter/claude"
)

// TestOneDecodePerCLILine replays every recorded CLI stream through a
// session with a counting claude.DecodeFrame: each line is decoded once,
// by the frame decoder, on its way to the editor.
func TestOneDecodePerCLILine(t *testing.T) {
	decodes := 0
	orig := claude.DecodeFrame
	claude.DecodeFrame = func(line []byte) (*claude.Frame, error) {
		decodes++
		return orig(line)
	}
	defer func() { claude.DecodeFrame = orig }()
	lines := 0
	for _, stream := range cliStreams(t) {
		replay(t, stream, func(s *Session, f *claude.Frame) { s.HandleMessage(f) })
		lines += len(stream)
	}
	if lines < 1000 || decodes != lines {
		t.Errorf("%d decodes of %d CLI lines, want one each", decodes, lines)
	}
	// TestNoDetailStaysEmpty: the streamed content block events share one
	// empty Detail, which no reader may have written.
	f, err := orig([]byte(`{"type":"stream_event","event":{"type":"content_block_stop","index":0}}`))
	if err != nil || !reflect.DeepEqual(*f.Detail, claude.Detail{}) {
		t.Errorf("the shared Detail of the streamed events was written: %+v (%v)", f.Detail, err)
	}
}

// lineDecodesLeft are the functions of the streaming path that still
// decode (a part of) a CLI line themselves, by file, with why.
var lineDecodesLeft = map[string][]string{
	// Frame reads the agent's own hook_callback frames, not CLI lines.
	"toolcall/frame.go": {"Session.Frame"},
	"claude/frame.go": {"decodeFrameJSON", "LineMessage.UnmarshalJSON", "Event.UnmarshalJSON",
		"ModelUsage.UnmarshalJSON", "ToolUseResult.UnmarshalJSON", "Goal.UnmarshalJSON", "Frame.SubagentTypeName"},
	// the agent's own prompt response, and stored history replayed on load.
	"session_failure.go": {"withFailure", "replayedFailures"},
	// a Bash tool use's input, and the text and structure of a tool result,
	// which the frame keeps as written.
	"asynctasks/tool_results.go": {"toolResultText", "toolUses.observe", "backgroundBashTask"},
	// the agent's own hook_callback frames, and the editor's /goal request.
	"compaction/frames.go": {"Lifecycle.Hook", "hookInput"},
	"goal.go":              {"goalCommand"},
	// control requests of the CLI, not stream lines.
	"claude/process.go": {"Process.control"},
	"subagents.go":      {"translator.awaitUser"},
	// a tool call's input as the tool call reporter passed it on, and the
	// editor's declarations of a new session.
	"subagents/restore.go": {"sendMessageInput.text", "restorer.noteSendMessage"},
	"subagents/rfd.go": {"rfdForm.rfdLaunch", "launchReplyMessage", "rfdForm.rfdHandback",
		"rfdForm.rfdSendMessage"},
	"subagents/router.go": {"declaresSubagentTranscript", "forwardsSubagentText", "PerTaskStop"},
	// a streamed tool input put together from its deltas, and a user
	// line's tool_result_meta, which the frame keeps as written for its
	// one reader.
	"toolcall/stream.go": {"streamedInput.newFields"},
	"toolcall/result.go": {"nonExecutionByID"},
}

// TestNoLineDecodeOnTheStreamingPath fails when a function of the files a
// CLI line passes through on its way to the editor calls json.Unmarshal,
// json.NewDecoder or a claude decoder, except the frame decoder and the
// functions of lineDecodesLeft: a line is read once, into its frame.
func TestNoLineDecodeOnTheStreamingPath(t *testing.T) {
	files := []string{"session.go", "translator.go", "turn.go", "chunks.go", "localcommand.go", "memory.go",
		"modelfallback.go", "background_tasks.go", "toolcall/frame.go", "usage/frames.go", "usage/result.go",
		"usage/prompt.go", "clear_context.go", "subagents.go", "session_failure.go", "sessionfailure/title.go",
		"compaction/frames.go", "compaction/lifecycle.go", "asynctasks/frames.go",
		"asynctasks/events.go", "asynctasks/tool_results.go", "goal.go", "session_info.go", "session_index.go",
		"claude/frame.go", "claude/stream_decode.go", "claude/process.go", "subagents/lifecycle.go",
		"subagents/restore.go", "subagents/rfd.go", "subagents/router.go", "background_tasks.go",
		"toolcall/session.go", "toolcall/stream.go", "toolcall/result.go"}
	for _, file := range files {
		for _, fn := range decodingFuncs(t, file) {
			if !slices.Contains(lineDecodesLeft[file], fn) {
				t.Errorf("%s: %s decodes JSON on the streaming path; read the claude.Frame instead", file, fn)
			}
		}
	}
}

// decodingFuncs are the functions of file (Recv.Name for methods) that
// call json.Unmarshal, json.NewDecoder or
// claude.DecodeFrame.
func decodingFuncs(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.FromSlash(file), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil {
			name = recvName(fd.Recv.List[0].Type) + "." + name
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && isDecodeCall(c) && !slices.Contains(out, name) {
				out = append(out, name)
			}
			return true
		})
	}
	return out
}

func recvName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

func isDecodeCall(c *ast.CallExpr) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	switch pkg.Name + "." + sel.Sel.Name {
	case "json.Unmarshal", "json.NewDecoder", "claude.DecodeFrame":
		return true
	}
	return false
}
