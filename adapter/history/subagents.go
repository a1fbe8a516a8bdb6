package history

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// The CLI keeps the history of each subagent in its own transcript,
// <session>/subagents/agent-<agent id>.jsonl beside the session's
// <session>.jsonl, with agent-<agent id>.meta.json naming the tool use
// that launched it. The session's own transcript holds only the launch and
// its result. (Contract "Native subagent sessions": the AIR replay of a
// loaded session rebuilds each child from these files, as the reference
// does through its SDK's getSubagentMessages.)

// Subagent is what the metadata file of a subagent transcript says.
type Subagent struct {
	// AgentID is the id in the file name, agent-<AgentID>.meta.json.
	AgentID                      string
	Name, AgentType, Description string
	Background, StoppedByUser    bool
	// Cwd is the directory the subagent ran in, when its metadata places
	// it (see subagentCwd); "" otherwise.
	Cwd string
}

// subagentsDir is the folder of the subagent transcripts of the session
// whose transcript is at transcript.
func subagentsDir(transcript string) string {
	return filepath.Join(strings.TrimSuffix(transcript, ".jsonl"), "subagents")
}

var metaFileName = lazyre.New(`^agent-(.+)\.meta\.json$`)

// Subagents reads the metadata files of the subagents of the session whose
// transcript is at transcript, by the id of the tool use that launched
// each. A file without a string toolUseId, or that is not JSON, is left
// out; so is a folder that cannot be read.
func Subagents(transcript string) map[string]Subagent {
	dir := subagentsDir(transcript)
	names, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := map[string]Subagent{}
	for _, n := range names {
		m := metaFileName.FindStringSubmatch(n.Name())
		if m == nil {
			continue
		}
		meta, ok := readSubagentMeta(filepath.Join(dir, n.Name()))
		if !ok {
			continue
		}
		out[meta.ToolUseID] = Subagent{AgentID: m[1], Name: meta.Name, AgentType: meta.AgentType,
			Description: meta.Description, Background: meta.RequestShape == "background", StoppedByUser: meta.StoppedByUser,
			Cwd: subagentCwd(meta.placement, filepath.Join(dir, "agent-"+m[1]+".jsonl"))}
	}
	return out
}

// subagentMeta is the part of agent-<id>.meta.json the replay reads.
type subagentMeta struct {
	ToolUseID     string `json:"toolUseId"`
	Name          string `json:"name"`
	AgentType     string `json:"agentType"`
	Description   string `json:"description"`
	RequestShape  string `json:"requestShape"`
	StoppedByUser bool   `json:"stoppedByUser"`
	// placement is the first absolute path of the file's cwd,
	// worktreePath and inheritedWorktreePath ("" for none).
	placement string
}

func readSubagentMeta(path string) (subagentMeta, bool) {
	var raw struct {
		ToolUseID     any `json:"toolUseId"`
		Name          any `json:"name"`
		AgentType     any `json:"agentType"`
		Description   any `json:"description"`
		RequestShape  any `json:"requestShape"`
		StoppedByUser any `json:"stoppedByUser"`
		Cwd           any `json:"cwd"`
		Worktree      any `json:"worktreePath"`
		Inherited     any `json:"inheritedWorktreePath"`
	}
	data, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(data, &raw) != nil {
		return subagentMeta{}, false
	}
	id, ok := raw.ToolUseID.(string)
	if !ok {
		return subagentMeta{}, false
	}
	text := func(v any) string { s, _ := v.(string); return s }
	return subagentMeta{ToolUseID: id, Name: text(raw.Name), AgentType: text(raw.AgentType), Description: text(raw.Description),
		RequestShape: text(raw.RequestShape), StoppedByUser: raw.StoppedByUser == true,
		placement: firstAbsolute(text(raw.Cwd), text(raw.Worktree), text(raw.Inherited))}, true
}

// toolUseIDPattern is what the SDK accepts as a parent tool use id.
var toolUseIDPattern = lazyre.New(`^[A-Za-z0-9_.:-]{1,128}$`)

// ReadSubagent reads the transcript of the subagent agentID of the session
// whose transcript is at transcript, as the SDK's getSubagentMessages
// gives it to the replay: the user and assistant messages on the chain
// that ends at the file's last one (meta rows kept, those of other agents
// and channels left out as the replay hides them), each with the launch
// of its metadata file as ParentToolUseID. The file is found anywhere
// under the subagents folder. A fork child's inherited context is cut (see
// stripForkPrefix). Nil when the file cannot be read.
func ReadSubagent(transcript, agentID string) []Message {
	path := findSubagentFile(subagentsDir(transcript), agentID)
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	entries, err := readEntries(f, false)
	if err != nil {
		return nil
	}
	parent := ""
	if meta, ok := readSubagentMeta(strings.TrimSuffix(path, ".jsonl") + ".meta.json"); ok && toolUseIDPattern.MatchString(meta.ToolUseID) {
		parent = meta.ToolUseID
	}
	var out []Message
	for _, e := range lastChain(entries) {
		if m, ok := subagentMessage(e, parent); ok {
			out = append(out, m)
		}
	}
	return stripForkPrefix(out)
}

// findSubagentFile is the path of agent-<agentID>.jsonl under dir, at any
// depth; "" when there is none.
func findSubagentFile(dir, agentID string) string {
	want := "agent-" + agentID + ".jsonl"
	if _, err := os.Stat(filepath.Join(dir, want)); err == nil {
		return filepath.Join(dir, want)
	}
	found := ""
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == want {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// lastChain is the chain of user, assistant and attachment rows that ends
// at the last user or assistant row, oldest first, as the SDK reads a
// subagent transcript.
func lastChain(entries []*entry) []*entry {
	byID := map[string]*entry{}
	var last *entry
	for _, e := range entries {
		if e.Type != "user" && e.Type != "assistant" && e.Type != "attachment" {
			continue
		}
		byID[e.UUID] = e
		if e.Type != "attachment" {
			last = e
		}
	}
	var chain []*entry
	seen := map[string]bool{}
	for e := last; e != nil && !seen[e.UUID]; e = byID[e.parent()] {
		seen[e.UUID] = true
		chain = append(chain, e)
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}

// subagentMessage is the message of a subagent's row; false for a row
// that is not a message or that the replay hides.
func subagentMessage(e *entry, parent string) (Message, bool) {
	if e.Type != "user" && e.Type != "assistant" {
		return Message{}, false
	}
	m := Message{Type: e.Type, UUID: e.UUID, SessionID: e.SessionID, Message: e.Message, ParentToolUseID: parent,
		Meta: e.IsMeta || e.IsCompact || e.VisibleOnly, CompactSummary: e.IsCompact, Timestamp: e.Timestamp}
	if e.Origin != nil {
		m.OriginKind, m.OriginSubkind = e.Origin.Kind, e.Origin.Subkind
	}
	if e.Type == "user" && m.Meta && replayHiddenOrigins.Has(m.OriginKind) {
		return Message{}, false
	}
	return m, true
}

// How the CLI opens the directive message of a `subagent_type: "fork"`
// child, and what comes right before the prompt of its Agent call.
const (
	forkBoilerplateOpen = "<fork-boilerplate>"
	forkDirectiveMarker = "</fork-boilerplate>\nYour directive: "
)

// stripForkPrefix cuts a fork child's inherited context: every message
// before its directive message (a copy of the parent's launching message
// and its placeholder results), and the directive message down to the
// prompt that follows the boilerplate. Other transcripts stay as they are.
func stripForkPrefix(msgs []Message) []Message {
	for i, m := range msgs {
		texts, ok := forkDirective(m)
		if !ok {
			continue
		}
		var prompt []map[string]string
		for _, t := range texts {
			if _, after, found := strings.Cut(t, forkDirectiveMarker); found {
				prompt = append(prompt, map[string]string{"type": "text", "text": after})
			}
		}
		rest := msgs[i+1:]
		if len(prompt) == 0 {
			return rest
		}
		var api map[string]json.RawMessage
		_ = json.Unmarshal(m.Message, &api)
		api["content"] = marshal(prompt)
		m.Message = marshal(api)
		return append([]Message{m}, rest...)
	}
	return msgs
}

// forkDirective is the text of the boilerplate blocks of a fork child's
// directive message; false for another message.
func forkDirective(m Message) ([]string, bool) {
	if m.Type != "user" {
		return nil, false
	}
	var api struct {
		Content json.RawMessage `json:"content"`
	}
	var blocks []block
	if json.Unmarshal(m.Message, &api) != nil || json.Unmarshal(api.Content, &blocks) != nil {
		return nil, false
	}
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" && strings.HasPrefix(b.Text, forkBoilerplateOpen) {
			texts = append(texts, b.Text)
		}
	}
	return texts, len(texts) > 0
}
