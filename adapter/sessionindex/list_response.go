package sessionindex

import (
	"time"

	"github.com/airwire/airwire/adapter/parallel"
)

// List response (contract: "Session index", "List response").

// Own is what the connection knows of a session it runs; the zero value
// (ok false from the Own func) means it does not run here.
type Own struct {
	// State is the CLI's session_state_changed state ("" before any).
	State string
	// LastTurnEndedAt is when its last turn ended (zero for none yet).
	LastTurnEndedAt time.Time
	// LastTurnFailed: its last turn ended with an error that was no cancel.
	LastTurnFailed bool
	// CostUSD is the total_cost_usd of its last result.
	CostUSD float64
	// QueryFailedAt, when set, says the session no longer runs here because
	// its query failed then (not a cancel).
	QueryFailedAt time.Time
}

// Page is a session/list result of a sessionIndex client.
type Page struct {
	Sessions   []SessionInfo `json:"sessions"`
	NextCursor string        `json:"nextCursor,omitempty"`
}

// SessionInfo is one row: of session/list and of _session/list/changes.
type SessionInfo struct {
	SessionID string  `json:"sessionId"`
	Cwd       string  `json:"cwd"`
	Title     string  `json:"title"`
	UpdatedAt string  `json:"updatedAt"`
	Meta      rowWire `json:"_meta"`
}

type rowWire struct {
	JetBrains struct {
		AIR RowFields `json:"air"`
	} `json:"jetbrains"`
}

// RowFields are the flat row fields of `_meta.jetbrains.air`; archived is
// always there, every other field only when known.
type RowFields struct {
	Version         int    `json:"version"`
	Archived        bool   `json:"archived"`
	LastPromptAt    string `json:"lastPromptAt,omitempty"`
	Model           string `json:"model,omitempty"`
	ForkedFrom      string `json:"forkedFrom,omitempty"`
	State           string `json:"state,omitempty"`
	LastTurnEndedAt string `json:"lastTurnEndedAt,omitempty"`
	Cost            *Cost  `json:"cost,omitempty"`
}

// Cost is a row's cost.
type Cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// Fields are the row fields of s.
func (s SessionInfo) Fields() RowFields { return s.Meta.JetBrains.AIR }

func isoMs(ms int64) string {
	if ms == 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

func isoTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return isoMs(t.UnixMilli())
}

// infoOf is the row the client sees.
func infoOf(r row, own Own, isOwn bool, live *liveRecord, now time.Time) SessionInfo {
	state, ended := activity(r, own, isOwn, live, now)
	f := RowFields{Version: 1, Archived: r.archived, LastPromptAt: isoMs(r.facts.lastPromptAt), Model: r.facts.model,
		ForkedFrom: r.facts.forkedFrom, State: state, LastTurnEndedAt: ended}
	if isOwn && own.CostUSD > 0 {
		f.Cost = &Cost{Amount: own.CostUSD, Currency: "USD"}
	}
	info := SessionInfo{SessionID: r.sessionID, Cwd: r.cwd, Title: r.title, UpdatedAt: isoMs(r.updatedAtMs)}
	info.Meta.JetBrains.AIR = f
	return info
}

const recentUnfinishedTurn = 10 * time.Minute

// activity is a row's state and lastTurnEndedAt (contract: "List
// response", state): this connection's own state, else the registry and
// the transcript.
func activity(r row, own Own, isOwn bool, live *liveRecord, now time.Time) (state, endedAt string) {
	fa := r.facts
	failedAt := own.QueryFailedAt
	running := isOwn && failedAt.IsZero()
	failed := (fa.turnState == "finished" && fa.lastTurnError) ||
		(!failedAt.IsZero() && fa.lastPromptAt <= failedAt.UnixMilli() && fa.lastTurnEndedAt <= failedAt.UnixMilli())
	switch {
	case running:
		state = firstNonEmpty(own.State, "idle")
		if state == "idle" && own.LastTurnFailed {
			state = "error"
		}
	case live == nil:
		state = pick(failed, "error", "idle")
	case usesRegistryStatus(*live, r.mtimeMs):
		state = registryState(live.Status)
		if state == "idle" && failed {
			state = "error"
		}
	case failed:
		state = "error"
	case fa.turnState == "finished":
		state = "idle"
	case fa.turnState == "unfinished" && now.Sub(time.UnixMilli(r.mtimeMs)) < recentUnfinishedTurn:
		state = "running"
	}
	endedAt = isoMs(fa.lastTurnEndedAt)
	if running && !own.LastTurnEndedAt.IsZero() {
		endedAt = isoTime(own.LastTurnEndedAt)
	}
	return state, endedAt
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// usesRegistryStatus: an interactive CLI not driven by an SDK whose status
// is newer than the transcript.
func usesRegistryStatus(rec liveRecord, mtimeMs int64) bool {
	return rec.Kind == "interactive" && !hasPrefix(rec.Entrypoint, "sdk-") &&
		rec.StatusUpdatedAt != nil && *rec.StatusUpdatedAt > float64(mtimeMs)
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

func registryState(status string) string {
	switch status {
	case "busy", "shell":
		return "running"
	case "waiting":
		return "requires_action"
	case "idle":
		return "idle"
	}
	return ""
}

// keep applies the archived filter.
func keep(r row, filter string) bool {
	switch filter {
	case Archived:
		return r.archived
	case All:
		return true
	}
	return !r.archived
}

// List is one page of a sessionIndex client's session/list: the rows of
// the request's scope in list order after its cursor, at most Limit, with
// a cursor when more follow.
func (s *Service) List(req ListRequest) Page {
	// A cold list stats every transcript of the scope and reads dozens.
	defer parallel.Bulk()()
	var paths []string
	if req.Cwd != "" {
		paths = scopePaths(req.Cwd, req.IncludeWorktrees)
	}
	cands := s.Index.candidates(scopeDirs(s.Index.configDir, paths))
	rows, more := s.Index.page(cands, func(r row) bool { return keep(r, req.Archived) }, req.After, req.Limit)
	live := s.registry.snapshot()
	now := time.Now()
	page := Page{Sessions: make([]SessionInfo, 0, len(rows))}
	for _, r := range rows {
		page.Sessions = append(page.Sessions, s.info(r, live, now))
	}
	if more {
		page.NextCursor = encodeCursor(rows[len(rows)-1].position(), req)
	}
	return page
}

// info is the row of r with what this connection and the registry know.
func (s *Service) info(r row, live map[string]liveRecord, now time.Time) SessionInfo {
	own, isOwn := Own{}, false
	if s.own != nil {
		own, isOwn = s.own(r.sessionID)
	}
	var rec *liveRecord
	if l, ok := live[r.sessionID]; ok {
		rec = &l
	}
	return infoOf(r, own, isOwn, rec, now)
}
