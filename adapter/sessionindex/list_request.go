package sessionindex

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"path/filepath"
)

// List request (contract: "Session index", "List request").
const (
	DefaultLimit = 50
	MaxLimit     = 200
)

// Archived filters of a list request.
const (
	Unarchived = "unarchived"
	Archived   = "archived"
	All        = "all"
)

// ListRequest is a `session/list` of a sessionIndex client, validated.
type ListRequest struct {
	Cwd              string // "" lists every project
	Limit            int    // 1..MaxLimit
	IncludeWorktrees bool
	Archived         string // Unarchived, Archived or All
	// After is the position of the cursor; nil for the first page.
	After *Position
}

// Position is where a page ended: the order key and id of its last row.
type Position struct {
	OrderAtMs int64
	SessionID string
}

type listParams struct {
	Cwd    *string         `json:"cwd"`
	Cursor *string         `json:"cursor"`
	Meta   json.RawMessage `json:"_meta"`
}

// ParseListRequest reads `session/list` params: cwd, cursor and
// `_meta.jetbrains.air.list` (limit, includeWorktrees, archived). A bad
// value, a cursor this adapter did not issue, or one of another scope is
// an *Error with -32602.
func ParseListRequest(raw json.RawMessage) (ListRequest, error) {
	var p listParams
	if len(raw) > 0 && json.Unmarshal(raw, &p) != nil {
		return ListRequest{}, invalidParams(nil, "params must be an object")
	}
	var r ListRequest
	if p.Cwd != nil {
		if !filepath.IsAbs(*p.Cwd) {
			return ListRequest{}, &Error{Code: CodeInvalidParams,
				Message: "`cwd` must be an absolute path, but received: " + *p.Cwd, Data: map[string]string{"cwd": *p.Cwd}}
		}
		r.Cwd = *p.Cwd
	}
	list := airList(p.Meta)
	var err error
	if r.Limit, err = parseLimit(list["limit"]); err != nil {
		return ListRequest{}, err
	}
	if r.Archived, err = parseArchived(list["archived"]); err != nil {
		return ListRequest{}, err
	}
	if r.IncludeWorktrees, err = parseBool(list["includeWorktrees"], "includeWorktrees"); err != nil {
		return ListRequest{}, err
	}
	if p.Cursor != nil {
		pos, err := decodeCursor(*p.Cursor, r.scope())
		if err != nil {
			return ListRequest{}, err
		}
		r.After = &pos
	}
	return r, nil
}

// airList is `_meta.jetbrains.air.list` as its raw members; nil when absent
// or not an object.
func airList(meta json.RawMessage) map[string]json.RawMessage {
	var m struct {
		JetBrains struct {
			AIR struct {
				List map[string]json.RawMessage `json:"list"`
			} `json:"air"`
		} `json:"jetbrains"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return nil
	}
	return m.JetBrains.AIR.List
}

func isNull(v json.RawMessage) bool { return len(v) == 0 || string(v) == "null" }

// parseLimit: omitted or null is DefaultLimit; an integer of at least 1 is
// clamped to MaxLimit; anything else is -32602.
func parseLimit(v json.RawMessage) (int, error) {
	if isNull(v) {
		return DefaultLimit, nil
	}
	var f float64
	if json.Unmarshal(v, &f) != nil || f < 1 || f != math.Trunc(f) {
		return 0, invalidParams(map[string]json.RawMessage{"limit": v}, "`_meta.jetbrains.air.list.limit` must be an integer of at least 1")
	}
	return int(math.Min(f, MaxLimit)), nil
}

func parseArchived(v json.RawMessage) (string, error) {
	if isNull(v) {
		return Unarchived, nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil && (s == Unarchived || s == Archived || s == All) {
		return s, nil
	}
	return "", invalidParams(map[string]json.RawMessage{"archived": v}, "`_meta.jetbrains.air.list.archived` must be \"unarchived\", \"archived\" or \"all\"")
}

func parseBool(v json.RawMessage, key string) (bool, error) {
	if isNull(v) {
		return false, nil
	}
	var b bool
	if json.Unmarshal(v, &b) != nil {
		return false, invalidParams(map[string]json.RawMessage{key: v}, "`_meta.jetbrains.air.list.%s` must be a boolean", key)
	}
	return b, nil
}

// cursorVersion tells this adapter's cursors from anything else.
const cursorVersion = 1

// cursor is what an opaque cursor holds: the position and the scope it was
// issued for.
type cursor struct {
	V         int    `json:"v"`
	U         int64  `json:"u"`
	ID        string `json:"id"`
	Cwd       string `json:"cwd"`
	Archived  string `json:"archived"`
	Worktrees bool   `json:"worktrees"`
}

// scope is the part of a request a cursor is bound to.
func (r ListRequest) scope() cursor {
	return cursor{V: cursorVersion, Cwd: r.Cwd, Archived: r.Archived, Worktrees: r.IncludeWorktrees}
}

// encodeCursor is the opaque cursor of the page that ends at pos.
func encodeCursor(pos Position, r ListRequest) string {
	c := r.scope()
	c.U, c.ID = pos.OrderAtMs, pos.SessionID
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor is the position of a cursor issued for scope; -32602 for a
// cursor of another scope or one this adapter did not issue.
func decodeCursor(s string, scope cursor) (Position, error) {
	var c cursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || json.Unmarshal(b, &c) != nil || c.V != cursorVersion || c.ID == "" {
		return Position{}, invalidParams(nil, "Unknown session/list cursor: %s", s)
	}
	if c.Cwd != scope.Cwd || c.Archived != scope.Archived || c.Worktrees != scope.Worktrees {
		return Position{}, invalidParams(nil, "The session/list cursor belongs to another cwd or filter")
	}
	return Position{OrderAtMs: c.U, SessionID: c.ID}, nil
}
