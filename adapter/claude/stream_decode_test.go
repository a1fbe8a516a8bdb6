package claude

import (
	"github.com/airwire/airwire/conform/goldentest"
	"reflect"
	"strings"
	"testing"
)

// TestStreamEventFastPathIsEncodingJSON decodes every stream_event line of
// every cassette, and variants of one that the fast path must refuse or
// read alike, both ways: the fast path yields what encoding/json yields,
// and takes every recorded content block event.
func TestStreamEventFastPathIsEncodingJSON(t *testing.T) {
	var lines []string
	for _, c := range goldentest.Cassettes(t) {
		for _, p := range c.Processes {
			for _, ev := range p.Events {
				if ev.Dir == "cli" && strings.Contains(string(ev.Msg), `"stream_event"`) {
					lines = append(lines, string(ev.Msg))
				}
			}
		}
	}
	if len(lines) < 100 {
		t.Fatalf("only %d stream_event lines in the cassettes", len(lines))
	}
	blocks, fast := 0, 0
	for _, l := range lines {
		block := strings.Contains(l, `"type":"content_block_`)
		if block {
			blocks++
		}
		if compareDecode(t, l) && block {
			fast++
		}
	}
	if fast != blocks || blocks < 100 {
		t.Errorf("%d of %d recorded content block events took the slow path", blocks-fast, blocks)
	}
	base := `{"type":"stream_event","event":{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"a\n\"b\" <c> \u00e9"}},"session_id":"s","parent_tool_use_id":null,"uuid":"u","ttft_ms":12.5}`
	start := `{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"Bash","input":{},"caller":{"type":"direct"}}},"session_id":"s","parent_tool_use_id":null,"uuid":"u"}`
	variants := []string{
		base,
		strings.Replace(base, `"uuid"`, `"UUID"`, 1),
		strings.Replace(base, `"uuid"`, `"u\u0075id"`, 1),
		strings.Replace(base, `"index":1`, `"index":1.0`, 1),
		strings.Replace(base, `"index":1`, `"Index":2`, 1),
		strings.Replace(base, `"index":1`, `"index":null`, 1),
		strings.Replace(base, `"index":1`, `"index":"1"`, 1),
		strings.Replace(base, `null`, `"toolu_1"`, 1),
		strings.Replace(base, `null`, `7`, 1),
		strings.Replace(base, `"session_id":"s"`, `"session_id":null`, 1),
		strings.Replace(base, `12.5`, `1e400`, 1),
		strings.Replace(base, `12.5`, `null`, 1),
		strings.Replace(base, `"ttft_ms"`, `"extra":{"type":"x"},"ttft_ms"`, 1),
		strings.Replace(base, `"type":"stream_event"`, `"type":"assistant"`, 1),
		strings.Replace(base, `{"type":"content_block_delta"`, `{"TYPE":"message_stop","type":"content_block_delta"`, 1),
		strings.Replace(base, `"event":{`, `"event":null,"x":{`, 1),
		`{"type":"stream_event","type":"stream_event","event":{"index":3,"index":4}}`,
		` { "type" : "stream_event" , "event" : { "type" : "ping" } } `,
		strings.Replace(base, `"text":`, `"Text":`, 1),
		strings.Replace(base, `"text_delta"`, `"thinking_delta","thinking":"t"`, 1),
		strings.Replace(base, `"delta":{`, `"delta":{"partial_json":"{}",`, 1),
		strings.Replace(base, `"delta":{`, `"delta":null,"delta":{`, 1),
		strings.Replace(base, `"delta":{`, `"delta":{"text":"x"},"delta":{`, 1),
		strings.Replace(base, `"delta":{`, `"delta":"x","d":{`, 1),
		strings.Replace(base, `"index":1`, `"index":1,"message":{"id":"m"}`, 1),
		strings.Replace(base, `"session_id":"s"`, `"isReplay":true`, 1),
		strings.Replace(base, `"text_delta","text"`, `"input_json_delta","partial_json"`, 1),
		start,
		strings.Replace(start, `"input":{}`, `"input":null`, 1),
		strings.Replace(start, `"input":{}`, `"input":[1]`, 1),
		strings.Replace(start, `"input":{}`, `"input":{"a":1}`, 1),
		strings.Replace(start, `"name"`, `"Name"`, 1),
	}
	for _, l := range variants {
		compareDecode(t, l)
	}
}

// compareDecode checks the fast path against encoding/json for one line
// and reports whether the fast path took it.
func compareDecode(t *testing.T, line string) bool {
	t.Helper()
	want, wantErr := decodeFrameJSON([]byte(line))
	got, ok := decodeStreamEvent([]byte(line))
	if !ok {
		return false
	}
	if wantErr != nil {
		t.Errorf("fast path read %s, encoding/json fails: %v", line, wantErr)
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fast path of %s\n got %+v\nwant %+v", line, got, want)
	}
	return true
}
