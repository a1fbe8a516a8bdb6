package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Contract "Native subagent sessions", AIR form: an agent that ran before
// a `session/load` or `session/resume` is restored when a later turn
// talks to it again. Its metadata file names the call that launched it,
// and the transcripts say which session made that call: the lineage below.

// LineageEntry is one agent of a subagent's lineage: the call that
// launched it and the agent that made that call ("" for the session).
type LineageEntry struct {
	AgentID, LaunchID, ParentAgentID string
	Name, AgentType, Description     string
}

// LaunchedBy is the agent that the Agent or Task call launchID launched,
// from the subagent metadata of the session whose transcript is at
// transcript; "" when no metadata file names it.
func LaunchedBy(transcript, launchID string) string {
	return Subagents(transcript)[launchID].AgentID
}

// Lineage is the agent agentID and its ancestors, root first, from the
// subagent history of the session whose transcript is at transcript. The
// parent of a launch is the session whose transcript has the launch call:
// the session's own (every row, also before a compaction), or an agent's.
// Nil when the agent or an ancestor has no metadata, no transcript has its
// launch, or the ancestors loop.
func Lineage(transcript, agentID string) []LineageEntry {
	type launch struct {
		id   string
		meta Subagent
	}
	launchOf := map[string]launch{}
	for id, meta := range Subagents(transcript) {
		launchOf[meta.AgentID] = launch{id, meta}
	}
	if _, ok := launchOf[agentID]; !ok {
		return nil
	}
	root := launchIDs(transcript, "")
	byAgent := map[string]map[string]bool{}
	launcherOf := func(launchID string) (string, bool) {
		if root[launchID] {
			return "", true
		}
		for candidate := range launchOf {
			ids, ok := byAgent[candidate]
			if !ok {
				ids = launchIDs(filepath.Join(subagentsDir(transcript), "agent-"+candidate+".jsonl"), candidate)
				byAgent[candidate] = ids
			}
			if ids[launchID] {
				return candidate, true
			}
		}
		return "", false
	}
	var out []LineageEntry
	seen := map[string]bool{}
	for current := agentID; ; {
		l, ok := launchOf[current]
		if !ok || seen[current] {
			return nil
		}
		seen[current] = true
		parent, ok := launcherOf(l.id)
		if !ok {
			return nil
		}
		out = append([]LineageEntry{{AgentID: current, LaunchID: l.id, ParentAgentID: parent,
			Name: l.meta.Name, AgentType: l.meta.AgentType, Description: l.meta.Description}}, out...)
		if parent == "" {
			return out
		}
		current = parent
	}
}

// launchRecord is the part of a transcript row that names launch calls.
type launchRecord struct {
	Type        string `json:"type"`
	IsSidechain bool   `json:"isSidechain"`
	AgentID     string `json:"agentId"`
	Message     struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// launchIDs are the ids of the Agent and Task calls in the transcript
// file, every row of it. owner is the agent the transcript belongs to, ""
// for the session's: the session's sidechain rows are an agent's, and an
// agent's transcript counts only its own rows. The rows of a fork child
// before its directive message are the parent's context, not its own. A
// file that cannot be read has none.
func launchIDs(file, owner string) map[string]bool {
	out := map[string]bool{}
	f, err := os.Open(file)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		fork := owner != "" && bytes.Contains(line, []byte(forkBoilerplateOpen))
		if !fork && !bytes.Contains(line, []byte(`"tool_use"`)) {
			continue
		}
		var rec launchRecord
		if json.Unmarshal(line, &rec) != nil {
			continue
		}
		if fork && isForkDirectiveRecord(rec) {
			clear(out)
			continue
		}
		if rec.Type != "assistant" || (owner == "" && rec.IsSidechain) || (owner != "" && rec.AgentID != "" && rec.AgentID != owner) {
			continue
		}
		for _, id := range launchCalls(rec.Message.Content) {
			out[id] = true
		}
	}
	return out
}

// isForkDirectiveRecord reports the directive message of a fork child.
func isForkDirectiveRecord(rec launchRecord) bool {
	if rec.Type != "user" {
		return false
	}
	var blocks []block
	_ = json.Unmarshal(rec.Message.Content, &blocks)
	for _, b := range blocks {
		if b.Type == "text" && strings.HasPrefix(b.Text, forkBoilerplateOpen) {
			return true
		}
	}
	return false
}

// launchCalls are the ids of the Agent and Task tool uses in content.
func launchCalls(content json.RawMessage) []string {
	var blocks []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(content, &blocks)
	var out []string
	for _, b := range blocks {
		if b.Type == "tool_use" && b.ID != "" && (b.Name == "Agent" || b.Name == "Task") {
			out = append(out, b.ID)
		}
	}
	return out
}
