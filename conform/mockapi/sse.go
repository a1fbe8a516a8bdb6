package mockapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"
)

// event is one server-sent event of a streamed message.
type event struct {
	name string
	data map[string]any
}

// reply is a successful answer, before it is written as JSON or SSE.
type reply struct {
	id         string
	model      string
	blocks     []Block
	stopReason string
	usage      Usage
	stream     Stream
}

func (u Usage) withDefaults() Usage {
	if u.InputTokens == 0 {
		u.InputTokens = 10
	}
	if u.OutputTokens == 0 {
		u.OutputTokens = 12
	}
	return u
}

func (u Usage) wire(output int) map[string]any {
	w := map[string]any{
		"input_tokens":                u.InputTokens,
		"output_tokens":               output,
		"cache_creation_input_tokens": u.CacheCreationTokens,
		"cache_read_input_tokens":     u.CacheReadTokens,
	}
	if u.CacheTTL != "" {
		hour, fiveMin := 0, u.CacheCreationTokens
		if u.CacheTTL == "1h" {
			hour, fiveMin = fiveMin, 0
		}
		w["cache_creation"] = map[string]any{"ephemeral_1h_input_tokens": hour, "ephemeral_5m_input_tokens": fiveMin}
	}
	return w
}

// signature is the thinking block's deterministic signature.
func signature(thinking string) string {
	sum := sha256.Sum256([]byte(thinking))
	return "mock_sig_" + hex.EncodeToString(sum[:12])
}

// wireBlock is b as a complete content block of a non-streamed message.
func wireBlock(b Block) map[string]any {
	switch {
	case b.Thinking != "":
		return map[string]any{"type": "thinking", "thinking": b.Thinking, "signature": signature(b.Thinking)}
	case b.ToolUse != nil:
		return map[string]any{"type": "tool_use", "id": b.ToolUse.ID, "name": b.ToolUse.Name, "input": toolInput(b.ToolUse)}
	default:
		return map[string]any{"type": "text", "text": b.Text}
	}
}

func toolInput(t *ToolUse) map[string]any {
	if t.Input == nil {
		return map[string]any{}
	}
	return t.Input
}

// message is r as a non-streamed Messages API response body.
func (r reply) message() map[string]any {
	content := make([]map[string]any, 0, len(r.blocks))
	for _, b := range r.blocks {
		content = append(content, wireBlock(b))
	}
	u := r.usage.withDefaults()
	return map[string]any{
		"id": r.id, "type": "message", "role": "assistant", "model": r.model,
		"content": content, "stop_reason": r.stopReason, "stop_sequence": nil,
		"usage": u.wire(u.OutputTokens),
	}
}

// events is r as the SSE events of a streamed message.
func (r reply) events() []event {
	u := r.usage.withDefaults()
	ev := []event{
		{"message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": r.id, "type": "message", "role": "assistant", "model": r.model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": u.wire(1),
		}}},
		{"ping", map[string]any{"type": "ping"}},
	}
	for i, b := range r.blocks {
		ev = append(ev, blockEvents(i, b)...)
	}
	return append(ev,
		event{"message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": r.stopReason, "stop_sequence": nil},
			"usage": u.wire(u.OutputTokens)}},
		event{"message_stop", map[string]any{"type": "message_stop"}},
	)
}

func blockEvents(i int, b Block) []event {
	start := func(cb map[string]any) event {
		return event{"content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": cb}}
	}
	delta := func(d map[string]any) event {
		return event{"content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}}
	}
	var ev []event
	switch {
	case b.Thinking != "":
		ev = append(ev, start(map[string]any{"type": "thinking", "thinking": "", "signature": ""}))
		for _, p := range split(b.Thinking) {
			ev = append(ev, delta(map[string]any{"type": "thinking_delta", "thinking": p}))
		}
		ev = append(ev, delta(map[string]any{"type": "signature_delta", "signature": signature(b.Thinking)}))
	case b.ToolUse != nil:
		ev = append(ev, start(map[string]any{"type": "tool_use", "id": b.ToolUse.ID, "name": b.ToolUse.Name, "input": map[string]any{}}))
		for _, p := range splitMembers(toolInput(b.ToolUse)) {
			ev = append(ev, delta(map[string]any{"type": "input_json_delta", "partial_json": p}))
		}
	default:
		ev = append(ev, start(map[string]any{"type": "text", "text": ""}))
		for _, p := range split(b.Text) {
			ev = append(ev, delta(map[string]any{"type": "text_delta", "text": p}))
		}
	}
	return append(ev, event{"content_block_stop", map[string]any{"type": "content_block_stop", "index": i}})
}

// splitMembers streams a tool input one top-level member at a time (keys
// sorted): every prefix the client parses holds whole members, wherever the
// values (run paths of any length) put the byte boundaries.
func splitMembers(in map[string]any) []string {
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := []string{"{"}
	for i, k := range keys {
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(in[k]) // checked by Validate
		sep := ","
		if i == 0 {
			sep = ""
		}
		out = append(out, sep+string(kb)+":"+string(vb))
	}
	return append(out, "}")
}

// split cuts s on rune boundaries into two or more pieces of at most about
// 40 runes (one piece when s has a single rune).
func split(s string) []string {
	r := []rune(s)
	if len(r) < 2 {
		return []string{s}
	}
	n := max(2, (len(r)+39)/40)
	size := (len(r) + n - 1) / n
	var out []string
	for i := 0; i < len(r); i += size {
		out = append(out, string(r[i:min(i+size, len(r))]))
	}
	return out
}

// writeStream writes r's events to w, shaped by r.stream: a delay between
// events, a dropped connection or a stream held open until the client
// leaves. It returns when the stream ends or done is closed.
func writeStream(w http.ResponseWriter, done <-chan struct{}, r reply) {
	evs := r.events()
	stop, hang, drop := len(evs), false, false
	switch st := r.stream; {
	case st.DropAfter > 0:
		stop, drop = min(st.DropAfter, len(evs)), true
	case st.HangAfter > 0:
		stop, hang = min(st.HangAfter, len(evs)), true
	case st.Hang:
		stop, hang = len(evs)-3, true
	}
	flusher, _ := w.(http.Flusher)
	for i, e := range evs[:stop] {
		pause := r.stream.EventDelay
		if i == 0 {
			pause = r.stream.FirstEventDelay
		}
		if pause > 0 {
			select {
			case <-done:
				return
			case <-time.After(time.Duration(pause)):
			}
		}
		data, _ := json.Marshal(e.data)
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, data); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
	switch {
	case drop:
		panic(http.ErrAbortHandler) // net/http closes the connection without ending the chunked body
	case hang:
		<-done
	}
}
