package history

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// ForkPoint is the AIR fork point of a `session/fork` (contract "Session
// fork point"): the agent message the fork keeps the history up to.
type ForkPoint struct {
	MessageID string
	// Fingerprint is "sha256:<hex>" of the message text ("" when absent).
	Fingerprint string
	// Occurrence counts equal messages on the target's branch, from 1 (0
	// when absent).
	Occurrence int
}

// ParseForkPoint reads `_meta.jetbrains.air.fork` of a fork request. It
// reports false, and the whole session is forked, unless `version` is 1
// and `messageId` is not blank.
func ParseForkPoint(meta json.RawMessage) (ForkPoint, bool) {
	var m struct {
		JetBrains struct {
			AIR struct {
				Fork *struct {
					Version     json.RawMessage `json:"version"`
					MessageID   string          `json:"messageId"`
					Fingerprint string          `json:"messageFingerprint"`
					Occurrence  *float64        `json:"messageOccurrence"`
				} `json:"fork"`
			} `json:"air"`
		} `json:"jetbrains"`
	}
	if json.Unmarshal(meta, &m) != nil || m.JetBrains.AIR.Fork == nil {
		return ForkPoint{}, false
	}
	f := m.JetBrains.AIR.Fork
	id := strings.TrimSpace(f.MessageID)
	if string(f.Version) != "1" || id == "" {
		return ForkPoint{}, false
	}
	p := ForkPoint{MessageID: id, Fingerprint: strings.TrimSpace(f.Fingerprint)}
	if o := f.Occurrence; o != nil && *o > 0 && *o == float64(int64(*o)) && *o <= 1<<53 {
		p.Occurrence = int(*o)
	}
	return p, true
}

var segmentSuffix = lazyre.New(`:segment:\d+$`)

// candidates are the ids the point may name: the id, then the id without
// a `:segment:<n>` suffix.
func (p ForkPoint) candidates() []string {
	if base := segmentSuffix.ReplaceAllString(p.MessageID, ""); base != p.MessageID {
		return []string{p.MessageID, base}
	}
	return []string{p.MessageID}
}

// ResolveForkPoint finds the transcript row uuid that p names: in the live
// session first (live maps a message id to its row uuid; nil when the
// session does not run here), then on the active branch of the transcript
// at path, then among all its stored branches, by id and else by
// fingerprint and occurrence. It reports false when nothing matches.
func ResolveForkPoint(path string, p ForkPoint, live func(messageID string) string) (string, bool, error) {
	ids := p.candidates()
	if live != nil {
		for _, id := range ids {
			if u := live(id); u != "" {
				return u, true, nil
			}
		}
	}
	msgs, err := ReadMessages(path)
	if err != nil {
		return "", false, err
	}
	for _, id := range ids {
		for i := len(msgs) - 1; i >= 0; i-- {
			if groupingID(msgs[i].Type, msgs[i].Message, msgs[i].UUID) == id {
				return msgs[i].UUID, true, nil
			}
		}
	}
	rows, err := readAllRows(path)
	if err != nil {
		return "", false, err
	}
	u := resolveInAllBranches(rows, ids, p)
	return u, u != "", nil
}

// groupingID is the id a message goes by: an assistant message's API id,
// else the row uuid.
func groupingID(typ string, message json.RawMessage, uuid string) string {
	if typ == "assistant" {
		var m struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(message, &m) == nil && m.ID != "" {
			return m.ID
		}
	}
	return uuid
}

// readAllRows reads every conversation row of a transcript, on every
// branch, in file order.
func readAllRows(path string) ([]*entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []*entry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if e := parseEntry(sc.Bytes()); e != nil && e.UUID != "" {
			rows = append(rows, e)
		}
	}
	return rows, sc.Err()
}

// agentGroup is one agent message of the main thread, over its rows.
type agentGroup struct {
	uuid, text string
}

// agentGroups groups the main thread's assistant rows by message id.
func agentGroups(rows []*entry) (map[string]*agentGroup, []string) {
	groups := map[string]*agentGroup{}
	var order []string
	for _, e := range rows {
		if e.Type != "assistant" || e.IsSidechain {
			continue
		}
		id := groupingID(e.Type, e.Message, e.UUID)
		g := groups[id]
		if g == nil {
			g = &agentGroup{}
			groups[id] = g
			order = append(order, id)
		}
		g.uuid = e.UUID
		g.text += MessageText(e.Message)
	}
	return groups, order
}

// resolveInAllBranches is the last step of ResolveForkPoint: an exact id,
// else the one message with the fingerprint, else the one whose
// occurrence on its own branch is p.Occurrence.
func resolveInAllBranches(rows []*entry, ids []string, p ForkPoint) string {
	groups, order := agentGroups(rows)
	for _, id := range ids {
		if g := groups[id]; g != nil && g.uuid != "" {
			return g.uuid
		}
	}
	if p.Fingerprint == "" || p.Occurrence == 0 {
		return ""
	}
	var matches []*agentGroup
	for _, id := range order {
		if g := groups[id]; g.uuid != "" && fingerprint(g.text) == p.Fingerprint {
			matches = append(matches, g)
		}
	}
	if len(matches) == 1 {
		return matches[0].uuid
	}
	byUUID := map[string]*entry{}
	for _, e := range rows {
		byUUID[e.UUID] = e
	}
	matches = slices.DeleteFunc(matches, func(g *agentGroup) bool {
		return occurrenceOnBranch(g.uuid, p.Fingerprint, byUUID, groups) != p.Occurrence
	})
	if len(matches) == 1 {
		return matches[0].uuid
	}
	return ""
}

// occurrenceOnBranch counts the agent messages with fingerprint fp on the
// branch that ends at uuid.
func occurrenceOnBranch(uuid, fp string, byUUID map[string]*entry, groups map[string]*agentGroup) int {
	seen := map[string]bool{}
	n := 0
	for e := byUUID[uuid]; e != nil && !seen[e.UUID]; e = byUUID[e.parent()] {
		seen[e.UUID] = true
		if e.Type != "assistant" || e.IsSidechain {
			continue
		}
		id := groupingID(e.Type, e.Message, e.UUID)
		if seen["group:"+id] {
			continue
		}
		seen["group:"+id] = true
		if g := groups[id]; g != nil && fingerprint(g.text) == fp {
			n++
		}
	}
	return n
}

// fingerprint is "sha256:" and the hex SHA-256 of text.
func fingerprint(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// MessageText is the text of an API message: a string content, or its
// text blocks joined ("" when it has none).
func MessageText(message json.RawMessage) string {
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(message, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Content, &blocks)
	var b strings.Builder
	for _, bl := range blocks {
		if bl.Type == "text" {
			b.WriteString(bl.Text)
		}
	}
	return b.String()
}
