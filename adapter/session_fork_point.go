package adapter

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// Session fork point (contract "Session fork point"): a `session/fork`
// whose `_meta.jetbrains.air.fork` names an agent message keeps the
// history up to it. The message is looked up in the live session, then in
// the active history, then in all stored branches; no match fails the
// request with invalidParams before anything is copied or started.

// forkPointRow is the transcript row a fork request's fork point names;
// "" forks the whole session (no fork point, or no transcript: the fork
// reports that).
func (a *Agent) forkPointRow(p storedParams) (string, error) {
	point, ok := history.ParseForkPoint(p.Meta)
	if !ok {
		return "", nil
	}
	path, found := history.Find(a.configDir(), p.SessionID)
	if !found {
		return "", nil
	}
	row, ok, err := history.ResolveForkPoint(path, point, a.liveMessageRow(p.SessionID))
	if err != nil {
		return "", err
	}
	if !ok {
		data, _ := json.Marshal(map[string]string{"messageId": point.MessageID})
		return "", &jsonrpc.WireError{Code: jsonrpc.ErrInvalidParams.Code, Data: data,
			Message: fmt.Sprintf("Invalid params: Fork point message %s was not found in session %s", point.MessageID, p.SessionID)}
	}
	return row, nil
}

// liveMessageRow looks a message id up in session id when it runs on this
// connection (nil otherwise).
func (a *Agent) liveMessageRow(id string) func(string) string {
	a.mu.Lock()
	s := a.sessions[id]
	a.mu.Unlock()
	if s == nil {
		return nil
	}
	return s.messageRows.row
}

// messageRows are the transcript row uuids of the agent messages a
// session's CLI reported, by message id.
type messageRows struct {
	mu   sync.Mutex
	rows map[string]string
}

// row is the transcript row uuid of a message the session's CLI reported
// ("" when unknown).
func (m *messageRows) row(messageID string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rows[messageID]
}

// note records the row uuid of a message by the id the client knows it
// by: an assistant message's API id, else the row uuid.
func (m *messageRows) note(messageID, uuid string) {
	if messageID == "" || uuid == "" {
		return
	}
	m.mu.Lock()
	if m.rows == nil {
		m.rows = map[string]string{}
	}
	m.rows[messageID] = uuid
	m.mu.Unlock()
}
