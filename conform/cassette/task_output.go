package cassette

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/airwire/airwire/internal/journal"
)

// DirFile is an event that is no frame: a file the CLI wrote that an
// adapter reads, the output file of a command it ran in the background.
// Claude Code streams no output of such a command; an adapter that shows
// it reads the file (ACP v2 "Background work"). The player writes the file
// when it reaches the event, so the adapter finds the recorded output.
const DirFile = "file"

// maxTaskOutput bounds the recorded output of one background command: an
// adapter shows a terminal's latest output, and a cassette is committed.
const maxTaskOutput = 1 << 20

// taskFrame is what the recording reads of a task lifecycle frame.
type taskFrame struct {
	Type       string `json:"type"`
	Subtype    string `json:"subtype"`
	TaskID     string `json:"task_id"`
	TaskType   string `json:"task_type"`
	OutputFile string `json:"output_file"`
	ToolUseID  string `json:"tool_use_id"`
	Patch      struct {
		Status string `json:"status"`
	} `json:"patch"`
}

func taskFrameOf(msg json.RawMessage) (f taskFrame, ok bool) {
	return f, json.Unmarshal(msg, &f) == nil && f.Type == "system" && f.TaskID != ""
}

// addTaskOutput records, at the task_notification msg (live values) of
// process p, the output file of the background command it ends: a
// DirFile event before the frame that first reported the task's end. Its
// content is what the adapter showed of the file in the command's display
// terminal (read, the terminal's output updates to the editor), else the
// file as it is now (the run is over; the command wrote all it will). The
// adapter reads the file as the task ends, while Claude Code may still
// append its exit line: what it read is what a replay must give it. Only
// a command's (task_type local_bash) output is kept; an unreadable file
// is left out.
func addTaskOutput(p *Process, msg json.RawMessage, r *replacer, read map[string]string) {
	f, ok := taskFrameOf(msg)
	if !ok || f.Subtype != "task_notification" || f.OutputFile == "" || !isCommand(p, f.TaskID) {
		return
	}
	content, shown := read[f.ToolUseID]
	if !shown {
		var err error
		if content, err = readBounded(f.OutputFile); err != nil {
			return
		}
	}
	at := slices.IndexFunc(p.Events, func(e Event) bool { return e.Dir == DirCLI && endsTask(e.Msg, f.TaskID) })
	if at < 0 {
		at = len(p.Events)
	}
	e := Event{Dir: DirFile, Path: r.str(f.OutputFile), Text: r.str(content)}
	p.Events = slices.Insert(p.Events, at, e)
}

// isCommand reports whether process p started task id as a command run in
// the background.
func isCommand(p *Process, id string) bool {
	return slices.ContainsFunc(p.Events, func(e Event) bool {
		f, ok := taskFrameOf(e.Msg)
		return e.Dir == DirCLI && ok && f.Subtype == "task_started" && f.TaskID == id && f.TaskType == "local_bash"
	})
}

// endsTask reports whether msg is a task_updated frame that ends task id.
func endsTask(msg json.RawMessage, id string) bool {
	f, ok := taskFrameOf(msg)
	s := f.Patch.Status
	return ok && f.Subtype == "task_updated" && f.TaskID == id && (s == "completed" || s == "failed" || s == "killed")
}

// readBounded reads at most the last maxTaskOutput bytes of path.
func readBounded(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxTaskOutput {
		if _, err := f.Seek(st.Size()-maxTaskOutput, io.SeekStart); err != nil {
			return "", err
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxTaskOutput))
	return string(b), err
}

// writeTaskOutput writes a recorded output file (live path), only inside
// the run's TMPDIR, where Claude Code keeps them.
func (fx *effects) writeTaskOutput(path, content string) {
	if !within(path, fx.tmpDir) {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		_ = os.WriteFile(path, []byte(content), 0o644)
	}
}

// terminalOutputs is what an ACP v2 editor was shown of each display
// terminal (by terminal id, which the agent names after its tool call),
// from the client lane of entries: an `output` replaces what the terminal
// shows, a terminal_output_chunk appends to it.
func terminalOutputs(entries []journal.Entry) map[string]string {
	out := map[string]string{}
	for i := range entries {
		e := &entries[i]
		if e.Lane != journal.LaneClient || e.Kind != journal.KindMsg || e.Dir != journal.DirAgent {
			continue
		}
		var m struct {
			Method string `json:"method"`
			Params struct {
				Update struct {
					SessionUpdate string `json:"sessionUpdate"`
					TerminalID    string `json:"terminalId"`
					Data          string `json:"data"`
					Output        *struct {
						Data string `json:"data"`
					} `json:"output"`
				} `json:"update"`
			} `json:"params"`
		}
		if json.Unmarshal(e.Msg, &m) != nil || m.Method != "session/update" {
			continue
		}
		u := m.Params.Update
		switch {
		case u.SessionUpdate == "terminal_update" && u.Output != nil:
			out[u.TerminalID] = decoded(u.Output.Data)
		case u.SessionUpdate == "terminal_output_chunk":
			out[u.TerminalID] += decoded(u.Data)
		}
	}
	return out
}

func decoded(b64 string) string {
	b, _ := base64.StdEncoding.DecodeString(b64)
	return string(b)
}
