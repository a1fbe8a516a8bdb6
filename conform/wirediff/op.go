package wirediff

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// sessionDiff turns the alignment of one session into findings.
type sessionDiff struct {
	run, session     string
	oldFile, newFile string
	air              bool
	// oldKinds holds the fineKind of every old message.
	oldKinds map[string]bool
	out      []Finding
}

func (d *sessionDiff) op(op Op) {
	switch op.Kind {
	case OpMissing:
		f := d.at(WireMessageMissing, "missing", op)
		f.Path, f.Old = wholeValue(*op.Old)
		d.add(f)
	case OpMoved:
		d.add(d.at(WireMessageMoved, "moved", op))
	case OpExtra:
		d.extra(op)
	case OpPair:
		d.pair(op)
	}
}

// extra classifies a new message: one carrying a _meta.jetbrains key to a
// non-AIR client, a request the client must answer, a notification of a
// kind the session never had, or one more of a known kind. It is one
// finding, as the same message missing is.
func (d *sessionDiff) extra(op Op) {
	obj, _ := op.New.Value.(map[string]any)
	_, isRequest := obj["method"]
	rule := WireMessageAdded
	path, value := wholeValue(*op.New)
	switch p := airPath(op.New.Value, nil); {
	case p != "" && !d.air && isClientLane(op.New.Tag):
		rule, path = WireAIRKeyToNonAIR, p
	case isRequest && obj["id"] != nil && op.New.Tag == "client agent->editor":
		rule = WireRequestAdded
	case isRequest && obj["id"] == nil && !d.oldKinds[fineKind(*op.New)]:
		rule = NotificationKindAdded
	}
	f := d.at(rule, "extra", op)
	f.Path, f.New = path, value
	d.add(f)
}

// pair compares two messages that the alignment paired.
func (d *sessionDiff) pair(op Op) {
	if op.Old.Raw == op.New.Raw {
		return
	}
	oldObj, _ := op.Old.Value.(map[string]any)
	newObj, _ := op.New.Value.(map[string]any)
	_, oldResult := oldObj["result"]
	_, newErr := newObj["error"]
	if oldResult && newErr {
		f := d.at(WireMethodNowErrors, "errors", op)
		f.Path, f.New = "$.error", encode(newObj["error"])
		d.add(f)
		return
	}
	c := comparer{airClient: d.air}
	c.walk(nil, op.Old.Value, op.New.Value)
	for _, ch := range c.out {
		f := d.at(ch.rule, changeWord(ch), op)
		f.Path, f.Old, f.New = ch.path, ch.old, ch.new
		d.add(f)
	}
}

func changeWord(ch change) string {
	switch {
	case ch.new == "":
		return "removed"
	case ch.old == "":
		return "added"
	case ch.rule == WireTypeChanged || ch.rule == AIRTypeChanged:
		return "type"
	}
	return "changed"
}

// at builds a finding for op, located at the new message, or the old one
// when there is no new one.
func (d *sessionDiff) at(rule, what string, op Op) Finding {
	f := Finding{Rule: rule, Category: RuleByID(rule).Category, Change: what, Run: d.run, Session: d.session}
	m := op.New
	f.File = d.newFile
	if m == nil {
		m, f.File = op.Old, d.oldFile
	}
	f.Line, f.Tag, f.Kind = m.Line, m.Tag, describe(*m)
	if op.Old != nil {
		f.OldLine = op.Old.Line
	}
	if op.New != nil {
		f.NewLine = op.New.Line
	}
	return f
}

func (d *sessionDiff) add(f Finding) { d.out = append(d.out, f) }

// describe names a message: its method and sessionUpdate, its response
// id, a CLI message's type and request subtype, or the lane's word for a
// record that is none of these (a CLI "spawn").
func describe(m Message) string {
	obj, _ := m.Value.(map[string]any)
	if method, ok := obj["method"].(string); ok {
		if u := sessionUpdateOf(obj); u != "" {
			return method + " " + u
		}
		return method
	}
	if typ, ok := obj["type"].(string); ok { // a stream-json message to or from the CLI
		req, _ := obj["request"].(map[string]any)
		if sub, ok := req["subtype"].(string); ok {
			return typ + " " + sub
		}
		return typ
	}
	if id, ok := obj["id"]; ok && id != nil {
		return fmt.Sprintf("response %v", id)
	}
	if _, isResponse := obj["id"]; isResponse || obj["result"] != nil || obj["error"] != nil {
		return "response (no id)"
	}
	if f := strings.Fields(m.Tag); len(f) > 1 && !isClientLane(m.Tag) {
		return f[len(f)-1] // "cli:1 spawn" → spawn
	}
	return "message"
}

// wholeValue is what a missing or extra record carries when it is not a
// JSON-RPC message (a spawn's argv): the path and value that say which one
// it was.
func wholeValue(m Message) (path, value string) {
	obj, _ := m.Value.(map[string]any)
	if isJSONRPC(obj) {
		return "", ""
	}
	if argv, ok := obj["argv"]; ok {
		return "$.argv", encode(argv)
	}
	return "", ""
}

// airPath returns the JSON path of the first _meta.jetbrains in v, "" when
// there is none.
func airPath(v any, path []pathStep) string {
	switch t := v.(type) {
	case map[string]any:
		if meta, ok := t["_meta"].(map[string]any); ok {
			if _, ok := meta["jetbrains"]; ok {
				return formatPath(append(slices.Clone(path), pathStep{key: "_meta", index: -1}, pathStep{key: "jetbrains", index: -1}))
			}
		}
		for _, k := range sortedKeys(t) {
			if p := airPath(t[k], append(slices.Clone(path), pathStep{key: k, index: -1})); p != "" {
				return p
			}
		}
	case []any:
		for i, e := range t {
			if p := airPath(e, append(slices.Clone(path), pathStep{index: i})); p != "" {
				return p
			}
		}
	}
	return ""
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
