package adapter

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/jsonrpc"

	"github.com/airwire/airwire/internal/testroot"
)

// repoRoot is the directory holding go.mod, above the test's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	return testroot.Root(t)
}

// The golden's prompt (text, image, embedded resource, resource link)
// reaches the CLI as the reference's user message content.
func TestPromptToClaudeMatchesTheGolden(t *testing.T) {
	var prompt struct {
		Params promptParams `json:"params"`
	}
	var want struct {
		Message struct {
			Content []any `json:"content"`
		} `json:"message"`
	}
	for _, l := range goldentest.Tagged(t, "prompt-image-and-resource", "zed", "client editor->agent") {
		if strings.Contains(l, `"session/prompt"`) {
			_ = json.Unmarshal([]byte(l), &prompt)
		}
	}
	for _, l := range goldentest.Tagged(t, "prompt-image-and-resource", "zed", "cli:1 agent->cli") {
		if strings.Contains(l, `"type":"user"`) {
			_ = json.Unmarshal([]byte(l), &want)
		}
	}
	if len(prompt.Params.Prompt) != 4 || len(want.Message.Content) != 5 {
		t.Fatalf("golden lines not found: %d blocks, %d content", len(prompt.Params.Prompt), len(want.Message.Content))
	}
	gotJSON, _ := json.Marshal(promptToClaude(decodePrompt(prompt.Params.Prompt)))
	var got []any
	_ = json.Unmarshal(gotJSON, &got)
	if !reflect.DeepEqual(got, want.Message.Content) {
		t.Errorf("content\n got %s\nwant %v", gotJSON, want.Message.Content)
	}
	if text := promptText(decodePrompt(prompt.Params.Prompt)); text != "What does this screenshot and file show?" {
		t.Errorf("promptText = %q", text)
	}
}

func blocks(js ...string) []promptBlock {
	var out []json.RawMessage
	for _, j := range js {
		out = append(out, json.RawMessage(j))
	}
	return decodePrompt(out)
}

func TestPromptToClaudeRules(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	cases := []struct {
		name string
		in   []promptBlock
		want string
	}{
		{"mcp prompt in the first text only",
			blocks(`{"type":"text","text":"/mcp:srv:review the\nfile"}`, `{"type":"text","text":"/mcp:a:b"}`),
			`[{"text":"/srv:review (MCP) the\nfile","type":"text"},{"text":"/mcp:a:b","type":"text"}]`},
		{"image by url, image without data or url dropped",
			blocks(`{"type":"image","uri":"https://x/y.png","mimeType":"image/png"}`, `{"type":"image","uri":"file:///a.png"}`),
			`[{"source":{"type":"url","url":"https://x/y.png"},"type":"image"}]`},
		{"pdf blob is a document after its link",
			blocks(`{"type":"resource","resource":{"uri":"file:///d/r.pdf","mimeType":"application/pdf","blob":"AAAA"}}`),
			`[{"text":"[@r.pdf](file:///d/r.pdf)","type":"text"},{"source":{"data":"AAAA","media_type":"application/pdf","type":"base64"},"type":"document"}]`},
		{"image/jpg blob is a jpeg image",
			blocks(`{"type":"resource","resource":{"uri":"zed://x/pic","mimeType":"Image/JPG; q=1","blob":"AAAA"}}`),
			`[{"text":"[@pic](zed://x/pic)","type":"text"},{"source":{"data":"AAAA","media_type":"image/jpeg","type":"base64"},"type":"image"}]`},
		{"text blob decoded into context, zip blob skipped",
			blocks(`{"type":"resource","resource":{"uri":"file:///a.json","mimeType":"application/json","blob":"`+b64("\uFEFF{}")+`"}}`,
				`{"type":"resource","resource":{"uri":"file:///z.zip","mimeType":"application/zip","blob":"AAAA"}}`,
				`{"type":"resource_link","uri":"https://e.com/x","name":"x"}`),
			`[{"text":"[@a.json](file:///a.json)","type":"text"},{"text":"https://e.com/x","type":"text"},{"text":"\n\u003ccontext ref=\"file:///a.json\"\u003e\n{}\n\u003c/context\u003e","type":"text"}]`},
	}
	for _, c := range cases {
		got, _ := json.Marshal(promptToClaude(c.in))
		if string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestUnsupportedPromptBlockIsInvalidParams(t *testing.T) {
	err := checkPromptBlocks(blocks(`{"type":"text","text":"hi"}`, `{"type":"audio","data":"AA","mimeType":"audio/wav"}`))
	we, ok := err.(*jsonrpc.WireError)
	if !ok || we.Code != -32602 || we.Message != "Invalid params: Content blocks of type audio are not supported" || string(we.Data) != `{"type":"audio"}` {
		t.Fatalf("err = %#v", err)
	}
	if err := checkPromptBlocks(blocks(`{"type":"resource_link","uri":"file:///a","name":"a"}`)); err != nil {
		t.Fatal(err)
	}
}
