package wirediff

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/internal/journal"
)

// journalFile is an airwire journal (internal/journal, docs/journal.md),
// rendered canonical by conform.Canonical: the same placement and
// normalization as a golden, so a journal diffs against a golden too.
type journalFile struct{}

// Detect reads the header line: {"journal": "airwire", ...}.
func (journalFile) Detect(_ string, _ bool, head []byte) bool {
	first, _, _ := bytes.Cut(head, []byte("\n"))
	var h struct {
		Journal string `json:"journal"`
	}
	return json.Unmarshal(first, &h) == nil && h.Journal == "airwire"
}

func (journalFile) Load(path string) (Set, error) {
	r, err := journal.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	res := &conform.Result{Journal: path, Header: r.Header(), Paths: conform.Paths{Agent: r.Header().AgentCmd}}
	agents := 0
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		res.Entries = append(res.Entries, e)
		if e.Lane != journal.LaneClient || (e.Kind != journal.KindMsg && e.Kind != journal.KindNonJSON) {
			continue
		}
		switch e.Dir {
		case journal.DirAgent:
			agents++
		case journal.DirEditor:
			// The editor frame follows the last agent frame that arrived
			// before it (conform.Result.Anchors).
			res.Anchors = append(res.Anchors, agents-1)
			if res.Paths.Cwd == "" {
				res.Paths.Cwd = sessionCwd(e.Msg)
			}
		}
	}
	text, err := conform.Canonical(res)
	if err != nil {
		return nil, err
	}
	msgs, err := ParseCanonical(text)
	if err != nil {
		return nil, err
	}
	return Set{SingleKey: {Key: SingleKey, File: path, Messages: msgs}}, nil
}

// sessionCwd is the cwd of a session/new, load or resume request, which the
// canonical form writes <cwd>.
func sessionCwd(raw json.RawMessage) string {
	var m struct {
		Params struct {
			Cwd string `json:"cwd"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	return m.Params.Cwd
}
