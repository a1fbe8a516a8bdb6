package proxy

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/airwire/airwire/internal/journal"
)

// model queues a model-lane entry; raw is what the journal goroutine turns
// into its msg or text (finishModel). An event block is copied: the caller
// reuses its buffer. Bodies and heads are only read, never changed.
func (r *Recorder) model(e journal.Entry, kind itemKind, raw []byte) {
	if kind == itemModelEvent {
		raw = append([]byte(nil), raw...)
	}
	e.Msg = raw
	e.TNs = r.w.Now()
	r.send(item{kind: kind, entry: &e})
}

// finishModel runs on the journal goroutine: it parses a body or an event
// block, then redacts.
func (r *Recorder) finishModel(kind itemKind, e *journal.Entry) {
	raw := e.Msg
	e.Msg = nil
	switch {
	case kind == itemModelHead:
		e.Msg = raw
	case kind == itemModelEvent && e.Reason == "":
		e.Bytes = len(raw)
		name, data, ok := sseEvent(raw)
		if name != "" {
			e.Method += " " + name
		}
		if ok {
			e.Msg = data
		} else {
			e.Kind, e.Reason = journal.KindNonJSON, journal.ReasonSSEOther
			r.setText(e, raw)
		}
	case kind == itemModelBody && e.Reason == "" && json.Valid(raw):
		e.Msg = raw
		if bytes.ContainsAny(raw, "\r\n") { // pretty-printed: one journal line needs it compact
			var b bytes.Buffer
			_ = json.Compact(&b, raw)
			e.Msg = b.Bytes()
		}
	default:
		if e.Reason == "" {
			e.Reason = journal.ReasonBodyNotJSON
		}
		e.Kind = journal.KindNonJSON
		r.setText(e, raw)
	}
	if e.Msg != nil && r.red != nil {
		_, out, n, err := r.red.Frame(e.Msg)
		if err != nil { // valid JSON the scanner refuses: redact as text (keeps it JSON)
			out, n = r.red.Text(e.Msg)
		}
		e.Msg, e.Redacted = out, e.Redacted+n
	}
	if e.Text != nil && r.red != nil && kind == itemModelHead {
		r.setText(e, []byte(*e.Text))
	}
}

// sseEvent splits a canonical event block, "event: NAME\ndata: JSON\n\n" or
// "data: JSON\n\n", exactly as the Messages API writes it, so the block is
// rebuilt from name and data. ok is false for any other block (comments,
// id or retry fields, several data lines, CRLF, data that is not JSON);
// name is still returned when the block starts with an event line.
func sseEvent(b []byte) (name string, data []byte, ok bool) {
	rest, found := bytes.CutPrefix(b, []byte("event: "))
	if found {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return "", nil, false
		}
		name, rest = string(bytes.TrimSuffix(rest[:i], []byte("\r"))), rest[i+1:]
	}
	data, found = bytes.CutPrefix(rest, []byte("data: "))
	if !found || !bytes.HasSuffix(data, []byte("\n\n")) {
		return name, nil, false
	}
	data = data[:len(data)-2]
	if bytes.ContainsAny(data, "\r\n") || !json.Valid(data) {
		return name, nil, false
	}
	return name, data, true
}

// markSpawned records that proc's spawn entry is queued.
func (r *Recorder) markSpawned(proc string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ch, ok := r.spawned[proc]; ok {
		select {
		case <-ch:
		default:
			close(ch)
		}
	}
}

// awaitSpawn waits, up to d, until proc's spawn entry is queued, so a model
// request is never journaled before the process that sent it. It reports
// false for a name this Recorder never handed out.
func (r *Recorder) awaitSpawn(proc string, d time.Duration) bool {
	r.mu.Lock()
	ch, ok := r.spawned[proc]
	r.mu.Unlock()
	if !ok {
		return false
	}
	select {
	case <-ch:
	case <-time.After(d):
	}
	return true
}
