package cassette

import (
	"bytes"
	"encoding/json"
	"strings"
)

// frame is the part of a stream-json frame that matching looks at.
type frame struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	RequestID string `json:"request_id"`
	UUID      string `json:"uuid"`
	Request   struct {
		Subtype string `json:"subtype"`
	} `json:"request"`
	Response struct {
		RequestID string `json:"request_id"`
	} `json:"response"`
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

func parseFrame(raw []byte) (frame, bool) {
	var f frame
	return f, json.Unmarshal(raw, &f) == nil && f.Type != ""
}

// key is what an agent → CLI frame is matched by: type and subtype; for a
// user message its text; for a control_response the request it answers;
// for a control_cancel_request the request it withdraws (mapID translates
// a live request id to the recorded one). A frame that is not JSON is
// keyed by its text.
func key(raw []byte, text string, mapID func(string) string) string {
	if raw == nil {
		return "text:" + text
	}
	f, ok := parseFrame(raw)
	if !ok {
		return "json:" + string(bytes.TrimSpace(raw))
	}
	switch f.Type {
	case "control_request":
		return "control_request/" + f.Request.Subtype
	case "control_response":
		return "control_response/" + mapID(f.Response.RequestID)
	case "control_cancel_request":
		return "control_cancel_request/" + mapID(f.RequestID)
	case "user":
		return "user:" + userText(f.Message.Content)
	}
	if f.Subtype != "" {
		return f.Type + "/" + f.Subtype
	}
	return f.Type
}

// userText joins the text of a user message's content (a string or
// blocks; other blocks count by their type).
func userText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(content, &blocks)
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		} else {
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// displayKey shortens a key for a diagnostic.
func displayKey(k string) string {
	const max = 80
	if len(k) > max {
		k = k[:max] + "…"
	}
	b, _ := json.Marshal(k)
	return string(b)
}

// sameRequest reports whether two control_request frames carry the same
// request body (request_id aside), compared as compacted JSON after
// decoding (so key order does not matter).
func sameRequest(a, b []byte) bool {
	var x, y struct {
		Request any `json:"request"`
	}
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x.Request)
	jb, _ := json.Marshal(y.Request)
	return bytes.Equal(ja, jb)
}
