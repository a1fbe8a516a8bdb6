package acpv2

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/airwire/airwire/internal/jsonrpc"
)

// PromptParams is the v1 session/prompt a v2 one means. v2 requires at
// least one block; an embedded blob Claude cannot read fails with -32602
// rather than being dropped; a v2 annotation audience keeps only the roles
// v1 knows (an audience of only unknown roles is dropped). The agent's own
// check of the block types runs on the v1 request.
func PromptParams(v2 json.RawMessage) (json.RawMessage, error) {
	p, err := decodeObject(v2)
	if err != nil {
		return nil, err
	}
	blocks, _ := p["prompt"].([]any)
	if len(blocks) == 0 {
		return nil, invalidParams("`prompt` must hold at least one content block", map[string]any{"prompt": p["prompt"]})
	}
	for _, b := range blocks {
		m, _ := b.(object)
		if err := checkBlob(m); err != nil {
			return nil, err
		}
		v1Annotations(m)
	}
	return json.Marshal(p)
}

// readableBlobs are the blob MIME types Claude reads (images, PDF, text).
var readableBlobs = []string{"image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp", "application/pdf",
	"application/json", "application/xml", "application/javascript", "application/typescript", "application/x-yaml",
	"application/yaml", "application/toml", "application/x-sh", "application/sql", "application/graphql"}

func checkBlob(block object) error {
	res, _ := block["resource"].(object)
	if block["type"] != "resource" || res == nil || res["blob"] == nil {
		return nil
	}
	mime, _ := res["mimeType"].(string)
	base := strings.ToLower(strings.TrimSpace(strings.SplitN(mime, ";", 2)[0]))
	if strings.HasPrefix(base, "text/") || slices.Contains(readableBlobs, base) ||
		strings.HasSuffix(base, "+json") || strings.HasSuffix(base, "+xml") {
		return nil
	}
	var shown any = mime
	name := mime
	if mime == "" {
		shown, name = nil, "unknown"
	}
	return invalidParams("Embedded blob resources of type "+name+" are not supported",
		map[string]any{"uri": res["uri"], "mimeType": shown})
}

func v1Annotations(block object) {
	ann, _ := block["annotations"].(object)
	audience, ok := ann["audience"].([]any)
	if !ok {
		return
	}
	known := slices.DeleteFunc(slices.Clone(audience), func(r any) bool { return r != "user" && r != "assistant" })
	if len(known) > 0 || len(audience) == 0 {
		ann["audience"] = known
	} else {
		delete(ann, "audience")
	}
}

// UserMessage is the update of the prompt Claude Code took in as message
// messageID, sent before the prompt's answer.
func UserMessage(messageID string, prompt json.RawMessage) object {
	return object{"sessionUpdate": "user_message", "messageId": messageID, "content": prompt}
}

// PromptAnswer is the answer of a prompt Claude Code took in.
func PromptAnswer(messageID string) object { return object{"messageId": messageID} }

// NotInserted is the error of a prompt whose turn ended before Claude Code
// took it in: -32800 for one a cancel ended in the queue.
func NotInserted(outcome json.RawMessage) error {
	var o struct {
		StopReason string `json:"stopReason"`
	}
	_ = json.Unmarshal(outcome, &o)
	if o.StopReason == "cancelled" {
		return &jsonrpc.WireError{Code: -32800, Message: "Request cancelled"}
	}
	data, _ := json.Marshal(map[string]string{"stopReason": o.StopReason})
	return &jsonrpc.WireError{Code: jsonrpc.ErrInternal.Code,
		Message: "Internal error: The turn ended before Claude Code took the prompt in", Data: data}
}

// State is a `state_update` with no stop reason: running, requires_action,
// or idle as a snapshot.
func State(state string) object { return object{"sessionUpdate": "state_update", "state": state} }

// Idle is the `state_update` of work that ended with outcome: its stop
// reason, usage and `_meta`.
func Idle(outcome json.RawMessage) object {
	u := State("idle")
	var o map[string]json.RawMessage
	_ = json.Unmarshal(outcome, &o)
	for _, k := range []string{"stopReason", "usage", "_meta"} {
		if present(o[k]) {
			u[k] = o[k]
		}
	}
	return u
}

// Failed is the `state_update` of work that failed with err: idle with the
// error stop reason and the JSON-RPC error v1 answers the prompt with.
func Failed(err error) object {
	var we *jsonrpc.WireError
	e := object{"code": jsonrpc.ErrInternal.Code, "message": err.Error()}
	if errors.As(err, &we) {
		e = object{"code": we.Code, "message": we.Message}
		if present(we.Data) {
			e["data"] = we.Data
		}
	}
	u := State("idle")
	u["stopReason"], u["error"] = "error", e
	return u
}
