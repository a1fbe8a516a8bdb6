package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/internal/uuid"
)

// ErrNotFound is a session with no stored transcript (or an id that is no
// UUID): the reference answers its fork with sessionNotFound.
var ErrNotFound = errors.New("session not found")

// Fork copies the transcript of session id into a new session, as the
// reference's `session/fork` does for a plain or a Zed client (no fork
// point): the main-thread rows get fresh uuids relinked to each other
// (progress rows are dropped and skipped over), the new session id, a
// `forkedFrom` link to the row they copy, and the last one the fork time;
// a `custom-title` row "<title> (fork)" closes the file, written as
// <new id>.jsonl beside the source. It returns the new session id, to
// resume. now is the fork time.
func Fork(configDir, id string, now time.Time) (string, error) {
	return ForkAt(configDir, id, "", now)
}

// ForkAt is Fork that keeps the history up to the row upTo (a uuid that
// ResolveForkPoint found; "" keeps all of it): the rows before it in the
// file that lead to it, and the row itself (contract "Session fork
// point": "The fork keeps the history up to that message").
func ForkAt(configDir, id, upTo string, now time.Time) (string, error) {
	src, ok := Find(configDir, id)
	if !ok {
		return "", ErrNotFound
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	s := readForkSource(data, id)
	if upTo != "" {
		s.rows = upToRow(s.rows, upTo)
	}
	if len(s.rows) == 0 {
		return "", fmt.Errorf("Session %s has no messages to fork", id)
	}
	newID := uuid.New()
	rows := s.forkRows(id, newID, isoMillis(now))
	if len(rows) == 0 {
		return "", fmt.Errorf("Session %s has no messages to fork", id)
	}
	var out []object
	if s.historySuppressed {
		out = append(out, object{{"type", marshal("history-suppression")}, {"sessionId", marshal(newID)},
			{"cause", marshal("fork_inherit")}, {"ts", marshal(isoMillis(now))}})
	}
	out = append(out, rows...)
	out = append(out, s.trailer(newID, isoMillis(now), forkTitle(data, src, id))...)
	return newID, writeRows(filepath.Join(filepath.Dir(src), newID+".jsonl"), out)
}

// forkSource is what a fork copies from a transcript.
type forkSource struct {
	// rows are the main-thread conversation rows, in file order.
	rows              []object
	historySuppressed bool
	atisLatch         json.RawMessage
	toolsUsed         json.RawMessage
	replacements      []json.RawMessage
	relocatedCwd      string
}

var printableRE = lazyre.New(`^[\x21-\x7e]*$`)

func readForkSource(data []byte, id string) *forkSource {
	s := &forkSource{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		o, err := parseObject(bytes.TrimSpace(sc.Bytes()))
		if err != nil {
			continue
		}
		s.add(o, id)
	}
	return s
}

func (s *forkSource) add(o object, id string) {
	typ := o.str("type")
	own := o.str("sessionId") == id
	switch {
	case conversationRow(typ) && isString(o, "uuid"):
		if side, _ := o.get("isSidechain"); string(side) != "true" {
			s.rows = append(s.rows, o)
		}
	case typ == "history-suppression":
		s.historySuppressed = true
	case typ == "atis-latch" && own && printableRE.MatchString(o.str("atis")) && isString(o, "atis"):
		s.atisLatch, _ = o.get("atis")
	case typ == "tools-used" && own:
		var tools []any
		if v, _ := o.get("tools"); json.Unmarshal(v, &tools) == nil {
			var names []string
			for _, t := range tools {
				if n, ok := t.(string); ok && n != "" {
					names = append(names, n)
				}
			}
			s.toolsUsed = marshal(orEmpty(names))
		}
	case typ == "content-replacement" && own:
		var r []json.RawMessage
		if v, _ := o.get("replacements"); json.Unmarshal(v, &r) == nil {
			s.replacements = append(s.replacements, r...)
		}
	case typ == "relocated" && own && o.str("relocatedCwd") != "":
		s.relocatedCwd = o.str("relocatedCwd")
	}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func isString(o object, key string) bool {
	v, ok := o.get(key)
	return ok && len(v) > 0 && v[0] == '"'
}

// forkRows rewrites the non-progress rows for the new session.
func (s *forkSource) forkRows(oldID, newID, now string) []object {
	fresh := map[string]string{}
	byUUID := map[string]object{}
	var kept []object
	for _, o := range s.rows {
		u := o.str("uuid")
		fresh[u] = uuid.New()
		byUUID[u] = o
		if o.str("type") != "progress" {
			kept = append(kept, o)
		}
	}
	out := make([]object, 0, len(kept))
	for i, o := range kept {
		u := o.str("uuid")
		c := append(object(nil), o...)
		if o.str("type") == "system" && o.str("subtype") == "model_refusal_fallback" {
			c.set("neutralizedByFork", json.RawMessage("true"))
		}
		remapRefs(&c, fresh)
		c.set("uuid", marshal(fresh[u]))
		c.set("parentUuid", forkParent(o, byUUID, fresh))
		if v, ok := o.get("logicalParentUuid"); ok && string(v) != "null" {
			c.set("logicalParentUuid", nullOr(fresh[o.str("logicalParentUuid")]))
		}
		c.set("sessionId", marshal(newID))
		if i == len(kept)-1 {
			c.set("timestamp", marshal(now))
		}
		c.set("isSidechain", json.RawMessage("false"))
		for _, k := range []string{"teamName", "agentName", "sessionKind", "slug", "sourceToolAssistantUUID",
			"summarizedTurnPromptUuids", "droppedPromptUuids", "turnAttributionKey"} {
			c.del(k)
		}
		c.set("forkedFrom", marshal(forkLink{SessionID: oldID, MessageUUID: u}))
		out = append(out, c)
	}
	return out
}

// forkLink is the forkedFrom value of a copied row, its keys in the SDK's
// order: the session index finds the source by a pattern that expects
// sessionId first (contract: "List response", forkedFrom).
type forkLink struct {
	SessionID   string `json:"sessionId"`
	MessageUUID string `json:"messageUuid"`
}

// forkParent is the new uuid of the nearest ancestor that is not a
// progress row; null at the root.
func forkParent(o object, byUUID map[string]object, fresh map[string]string) json.RawMessage {
	seen := map[string]bool{}
	for p := o.str("parentUuid"); p != ""; {
		anc, ok := byUUID[p]
		if !ok {
			break
		}
		if anc.str("type") != "progress" || seen[p] {
			return nullOr(fresh[p])
		}
		seen[p] = true
		p = anc.str("parentUuid")
	}
	return json.RawMessage("null")
}

func nullOr(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage("null")
	}
	return marshal(s)
}

// remapRefs points the uuids a row holds elsewhere (a compaction's kept
// messages, an attachment's source) at their copies.
func remapRefs(c *object, fresh map[string]string) {
	if v, ok := c.get("compactMetadata"); ok && c.str("type") == "system" {
		if m := remapCompaction(v, fresh); m != nil {
			c.set("compactMetadata", m)
		}
	}
	if v, ok := c.get("attachment"); ok {
		if a, err := parseObject(v); err == nil {
			if n := fresh[a.str("source_uuid")]; n != "" {
				a.set("source_uuid", marshal(n))
				c.set("attachment", marshal(a))
			}
		}
	}
}

// remapCompaction rewrites the uuids of a compact_boundary's kept
// messages and drops its running turn sends; nil when it has none.
func remapCompaction(v json.RawMessage, fresh map[string]string) json.RawMessage {
	m, err := parseObject(v)
	if err != nil {
		return nil
	}
	_, pm := m.get("preservedMessages")
	_, ps := m.get("preservedSegment")
	_, rt := m.get("runningTurnSends")
	if !pm && !ps && !rt {
		return nil
	}
	m.del("runningTurnSends")
	remap := func(key string, fields ...string) {
		raw, ok := m.get(key)
		if !ok {
			return
		}
		sub, err := parseObject(raw)
		if err != nil {
			return
		}
		for _, f := range fields {
			fv, ok := sub.get(f)
			if !ok {
				continue
			}
			sub.set(f, remapValue(fv, fresh))
		}
		m.del(key)
		m.set(key, marshal(sub))
	}
	remap("preservedMessages", "anchorUuid", "uuids", "allUuids")
	remap("preservedSegment", "headUuid", "anchorUuid", "tailUuid")
	return marshal(m)
}

// remapValue maps a uuid string, or each uuid of a list, to its copy;
// other values stay.
func remapValue(v json.RawMessage, fresh map[string]string) json.RawMessage {
	var s string
	if json.Unmarshal(v, &s) == nil {
		if n, ok := fresh[s]; ok {
			return marshal(n)
		}
		return v
	}
	var list []json.RawMessage
	if json.Unmarshal(v, &list) != nil {
		return v
	}
	for i, e := range list {
		list[i] = remapValue(e, fresh)
	}
	return marshal(list)
}

// trailer is the rows after the copied conversation: the source's
// content replacements, ATIS latch, tools used and relocation, and the
// fork's title.
func (s *forkSource) trailer(newID, now, title string) []object {
	var out []object
	row := func(kv ...any) {
		var o object
		for i := 0; i < len(kv); i += 2 {
			o = append(o, field{kv[i].(string), marshal(kv[i+1])})
		}
		out = append(out, o)
	}
	if len(s.replacements) > 0 {
		row("type", "content-replacement", "sessionId", newID, "replacements", s.replacements, "uuid", uuid.New(), "timestamp", now)
	}
	if s.atisLatch != nil {
		row("type", "atis-latch", "sessionId", newID, "atis", s.atisLatch)
	}
	if s.toolsUsed != nil {
		row("type", "tools-used", "sessionId", newID, "tools", s.toolsUsed)
	}
	if s.relocatedCwd != "" {
		row("type", "relocated", "sessionId", newID, "relocatedCwd", s.relocatedCwd)
	}
	row("type", "custom-title", "sessionId", newID, "customTitle", title, "uuid", uuid.New(), "timestamp", now)
	return out
}

// forkTitle is "<source title> (fork)": the source's custom title, else
// its AI title, else its first prompt, else "Forked session".
func forkTitle(data []byte, path, id string) string {
	head := strings.ToValidUTF8(string(data[:min(len(data), headTailBytes)]), "\uFFFD")
	tail := strings.ToValidUTF8(string(data[max(0, len(data)-headTailBytes):]), "\uFFFD")
	custom, present := lastStringOf(tail, "customTitle")
	if custom == "" && !present {
		custom = firstOf(sidecarTitle(path, id), lastString(head, "customTitle"))
	}
	t := firstOf(custom, lastString(tail, "aiTitle"), lastString(head, "aiTitle"), firstPromptOf(head), "Forked session")
	return t + " (fork)"
}

// writeRows writes the rows as JSONL, readable by the owner only.
func writeRows(path string, rows []object) error {
	var b bytes.Buffer
	for _, r := range rows {
		b.Write(marshal(r))
		b.WriteByte('\n')
	}
	return os.WriteFile(path, b.Bytes(), 0o600)
}

// upToRow keeps, of rows in file order, those before the row upTo that it
// descends from, and upTo itself; nothing when upTo is not there.
func upToRow(rows []object, upTo string) []object {
	end := slices.IndexFunc(rows, func(o object) bool { return o.str("uuid") == upTo })
	if end < 0 {
		return nil
	}
	byUUID := map[string]object{}
	for _, o := range rows[:end+1] {
		byUUID[o.str("uuid")] = o
	}
	keep := map[string]bool{}
	for u := upTo; u != "" && !keep[u]; {
		o, ok := byUUID[u]
		if !ok {
			break
		}
		keep[u] = true
		u = o.str("parentUuid")
	}
	var out []object
	for _, o := range rows[:end+1] {
		if keep[o.str("uuid")] {
			out = append(out, o)
		}
	}
	return out
}
