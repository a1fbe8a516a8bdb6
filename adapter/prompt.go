package adapter

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/turns"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/lazyre"
)

// An ACP prompt reaches the CLI as one user message, built as the
// reference builds it: text blocks as they are (a leading `/mcp:server:cmd`
// becomes the CLI's `/server:cmd (MCP)`), images as base64 or URL image
// blocks, resource links as a markdown link, embedded resources as a link
// plus a `<context ref=...>` block appended after every other block (or,
// for an image or PDF blob, the link and the blob itself). Any other block
// type fails the prompt with -32602 before anything is queued.

type promptParams struct {
	SessionID string            `json:"sessionId"`
	Prompt    []json.RawMessage `json:"prompt"`
	Meta      json.RawMessage   `json:"_meta"`
}

// prompt queues a user message; v1 answers it at the turn's end.
func (a *Agent) prompt(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if len(req.Params) == 0 {
		return nil, invalidParams("missing params")
	}
	if err := a.startTurn(ctx, req.Params, turns.V1Prompt{Conn: a.conn, ID: req.ID}); err != nil {
		return nil, err
	}
	return nil, jsonrpc.ErrAsyncResponse
}

// startTurn starts the turn of a session/prompt's params, which reports
// through events (each ACP version's answer). It returns once the prompt is
// queued for Claude Code; an error means it was refused before that, and
// events report nothing.
func (a *Agent) startTurn(ctx context.Context, params json.RawMessage, events turns.Events) error {
	var p promptParams
	if err := json.Unmarshal(params, &p); err != nil {
		return invalidParams("")
	}
	blocks := decodePrompt(p.Prompt)
	if err := checkPromptBlocks(blocks); err != nil {
		return err
	}
	s, err := a.session(p.SessionID)
	if err != nil {
		return err
	}
	s.idle.Disarm("prompt")
	return s.submit(ctx, newTurn(events, blocks, p.Meta, s), blocks)
}

// newTurn is the turn of a prompt of blocks in s, reported through
// events; meta is the prompt's _meta.
func newTurn(events turns.Events, blocks []promptBlock, meta json.RawMessage, s *Session) *turn {
	return &turn{events: events, localOnly: isLocalOnlyCommand(blocks), local: newLocalCommand(blocks), fileChange: s.fileChanges.request(meta)}
}

// submit queues t and sends its prompt to the CLI; the turn's result
// answers t's request later.
func (s *Session) submit(ctx context.Context, t *turn, prompt []promptBlock) error {
	content, _ := json.Marshal(promptToClaude(prompt))
	msg := claude.NewUserInput(s.ID, content)
	t.promptUUID = msg.UUID
	if err := s.enqueue(t); err != nil {
		return err
	}
	for _, u := range s.cfg.AutoFallback().Pending() {
		s.notify(u) // the session started in Accept edits instead of a chosen Auto
	}
	text := promptText(prompt)
	s.titles.prompt(text)
	s.tr.mu.Lock()
	if u := s.tr.suggest.clear(s.agent.clientCaps().AIR.Client); u != nil {
		s.notify(u)
	}
	s.tr.mu.Unlock()
	s.mu.Lock()
	auth := s.auth
	s.mu.Unlock()
	auth.helper = s.prefs.current().APIKeyHelperUnder(auth.settings) // the files as they are now
	s.agent.probeAuth(s.agent.useAuthContext(auth))
	s.tr.sent(msg.UUID)
	if err := s.cli().Send(msg); err != nil {
		return errSessionEnded
	}
	s.titles.fromPrompt(ctx, text)
	s.goal.fromPrompt(text, msg.UUID) // contract "Goal"
	return nil
}

// supportedPromptBlocks are the prompt block types the agent converts (it
// advertises no audio prompt capability).
var supportedPromptBlocks = []string{"text", "image", "resource_link", "resource"}

type promptBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
	URI      string `json:"uri"`
	Resource *struct {
		URI      string  `json:"uri"`
		MimeType string  `json:"mimeType"`
		Text     *string `json:"text"`
		Blob     *string `json:"blob"`
	} `json:"resource"`
	// decoded: the block is an object of the fields' types.
	decoded bool
}

// decodePrompt reads a prompt's blocks, once for every use of them.
func decodePrompt(raw []json.RawMessage) []promptBlock {
	out := make([]promptBlock, len(raw))
	for i, r := range raw {
		out[i].decoded = json.Unmarshal(r, &out[i]) == nil
	}
	return out
}

// checkPromptBlocks refuses a prompt with a block type the agent does not
// support, with the reference's invalid params error.
func checkPromptBlocks(blocks []promptBlock) error {
	for _, b := range blocks {
		if !slices.Contains(supportedPromptBlocks, b.Type) {
			data, _ := json.Marshal(map[string]string{"type": b.Type})
			return &jsonrpc.WireError{Code: jsonrpc.ErrInvalidParams.Code,
				Message: "Invalid params: Content blocks of type " + b.Type + " are not supported", Data: data}
		}
	}
	return nil
}

var mcpCommand = lazyre.New(`^/mcp:([^:\s]+):(\S+)(?:\s+([\s\S]*))?$`)

// promptToClaude turns ACP prompt blocks into Claude message content.
func promptToClaude(blocks []promptBlock) []map[string]any {
	out := []map[string]any{}
	var context []map[string]any
	firstText := true
	for _, b := range blocks {
		if !b.decoded {
			continue
		}
		switch b.Type {
		case "text":
			text := b.Text
			if firstText {
				text, firstText = mcpSlashCommand(text), false
			}
			out = append(out, textBlock(text))
		case "resource_link":
			out = append(out, textBlock(uriLink(b.URI)))
		case "resource":
			var ctx map[string]any
			out, ctx = appendResource(out, b)
			if ctx != nil {
				context = append(context, ctx)
			}
		case "image":
			if img := imageBlock(b); img != nil {
				out = append(out, img)
			}
		}
	}
	return append(out, context...)
}

func textBlock(text string) map[string]any { return map[string]any{"type": "text", "text": text} }

// mcpSlashCommand rewrites `/mcp:server:command args` (an MCP prompt as the
// editor lists it) to the CLI's `/server:command (MCP) args`.
func mcpSlashCommand(text string) string {
	m := mcpCommand.FindStringSubmatch(text)
	if m == nil {
		return text
	}
	out := "/" + m[1] + ":" + m[2] + " (MCP)"
	if m[3] != "" {
		out += " " + m[3]
	}
	return out
}

// imageBlock is an image given inline (base64) or by an http(s) URL; nil
// when it has neither.
func imageBlock(b promptBlock) map[string]any {
	switch {
	case b.Data != "":
		return map[string]any{"type": "image", "source": map[string]any{"type": "base64", "data": b.Data, "media_type": b.MimeType}}
	case strings.HasPrefix(b.URI, "http"):
		return map[string]any{"type": "image", "source": map[string]any{"type": "url", "url": b.URI}}
	}
	return nil
}

// appendResource adds an embedded resource's link (and an image or PDF
// blob); a text resource (or a text blob, decoded) also gives a context
// block, returned to go after every other block. A blob of another type is
// skipped.
func appendResource(out []map[string]any, b promptBlock) ([]map[string]any, map[string]any) {
	res := b.Resource
	if res == nil {
		return out, nil
	}
	text := res.Text
	if res.Blob != nil {
		kind, block, decoded := blobToClaude(res.MimeType, *res.Blob)
		switch {
		case kind == "image" || kind == "document":
			return append(out, textBlock(uriLink(res.URI)), block), nil
		case kind == "text" && text == nil:
			text = &decoded
		}
	}
	if text == nil {
		return out, nil
	}
	return append(out, textBlock(uriLink(res.URI))), textBlock("\n<context ref=\"" + res.URI + "\">\n" + *text + "\n</context>")
}

// uriLink shows a file:// or zed:// URI as a markdown mention of its last
// path element; any other URI stays as it is.
func uriLink(uri string) string {
	var name string
	switch {
	case strings.HasPrefix(uri, "file://"):
		path := uri[len("file://"):]
		if name = path[strings.LastIndex(path, "/")+1:]; name == "" {
			name = path
		}
	case strings.HasPrefix(uri, "zed://"):
		if name = uri[strings.LastIndex(uri, "/")+1:]; name == "" {
			name = uri
		}
	default:
		return uri
	}
	return "[@" + name + "](" + uri + ")"
}

var imageMimeTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

var textApplicationMimeTypes = []string{"application/json", "application/xml", "application/javascript",
	"application/typescript", "application/x-yaml", "application/yaml", "application/toml", "application/x-sh",
	"application/sql", "application/graphql"}

// blobToClaude classifies a blob resource by its MIME type (parameters and
// case ignored, image/jpg read as image/jpeg): "image" and "document"
// (PDF) come with their Claude block, "text" with the decoded text; ""
// for anything else.
func blobToClaude(mimeType, blob string) (kind string, block map[string]any, text string) {
	base := strings.ToLower(strings.TrimSpace(strings.SplitN(mimeType, ";", 2)[0]))
	if base == "image/jpg" {
		base = "image/jpeg"
	}
	source := func(media string) map[string]any {
		return map[string]any{"type": "base64", "media_type": media, "data": blob}
	}
	switch {
	case base == "":
		return "", nil, ""
	case slices.Contains(imageMimeTypes, base):
		return "image", map[string]any{"type": "image", "source": source(base)}, ""
	case base == "application/pdf":
		return "document", map[string]any{"type": "document", "source": source(base)}, ""
	case strings.HasPrefix(base, "text/") || slices.Contains(textApplicationMimeTypes, base) ||
		strings.HasSuffix(base, "+json") || strings.HasSuffix(base, "+xml"):
		return "text", nil, decodeBlobText(blob)
	}
	return "", nil, ""
}

// decodeBlobText decodes a text blob as UTF-8 without a leading byte order
// mark. Other charsets are not converted: their bytes stay as Go reads them.
func decodeBlobText(blob string) string {
	b, _ := base64.StdEncoding.DecodeString(blob)
	return strings.TrimPrefix(strings.ToValidUTF8(string(b), "\uFFFD"), "\uFEFF")
}

// promptText is the prompt's text blocks joined by newlines (what a title
// is generated from).
func promptText(blocks []promptBlock) string {
	var parts []string
	for _, b := range blocks {
		if b.decoded && b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
