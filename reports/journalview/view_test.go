package journalview

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/journal"
)

// entries numbers es (seq and t_ns) as a journal does.
func entries(es ...journal.Entry) []journal.Entry {
	for i := range es {
		es[i].Seq = uint64(i + 1)
		es[i].TNs = int64(i+1) * 1e6
	}
	return es
}

func client(dir journal.Dir, session, method, msg string) journal.Entry {
	return journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: dir, Proc: "agent", Session: session,
		Method: method, Msg: json.RawMessage(msg)}
}

func chunk(session, kind, text string) journal.Entry {
	return client(journal.DirAgent, session, "session/update", fmt.Sprintf(
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"sessionUpdate":%q,"content":{"type":"text","text":%q}}}}`,
		session, kind, text))
}

func cliDelta(text string) journal.Entry {
	return journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: journal.DirCLI, Proc: "cli-1", Method: "stream_event",
		Msg: json.RawMessage(fmt.Sprintf(`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%q}}}`, text))}
}

func sseDelta(exchange, text string) journal.Entry {
	return journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneModel, Dir: journal.DirModel, Proc: "cli-1", ID: json.RawMessage(exchange),
		Method: "POST /v1/messages content_block_delta",
		Msg:    json.RawMessage(fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%q}}`, text))}
}

func toolCall(session, id string) journal.Entry {
	return client(journal.DirAgent, session, "session/update", fmt.Sprintf(
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":%q,"update":{"sessionUpdate":"tool_call","toolCallId":%q,"title":"Run ls","kind":"execute","status":"pending"}}}`,
		session, id))
}

func build(opts Options, es ...journal.Entry) *Builder {
	b := NewBuilder(journal.Header{Journal: "airwire", Version: 1, Airwire: "test"}, opts)
	for _, e := range es {
		b.Add(e)
	}
	return b
}

// summary is one line per card: first seq, count, label and text.
func summary(b *Builder) []string {
	var out []string
	for _, c := range b.Cards() {
		out = append(out, fmt.Sprintf("%d ×%d %s %q", c.Seq, c.Count, c.Label, c.Text))
	}
	return out
}

// Streamed pieces fold per stream: a session's message chunks, even with
// the CLI's and the model API's deltas between them, and each of those
// streams on its own. Another message of the stream (a tool call), another
// update kind (a thought) or the editor closes the card; another session's
// chunks do not.
func TestFoldStreams(t *testing.T) {
	b := build(Options{}, entries(
		chunk("S1", "agent_message_chunk", "Hel"), // 1
		cliDelta("lo"),                           // 2
		sseDelta("1", "lo"),                      // 3
		chunk("S1", "agent_message_chunk", "lo"), // 4: folds into 1
		chunk("S2", "agent_message_chunk", "x"),  // 5: its own stream
		cliDelta(" w"),                           // 6: folds into 2
		sseDelta("1", " w"),                      // 7: folds into 3
		chunk("S1", "agent_message_chunk", " w"), // 8: folds into 1
		toolCall("S1", "t1"),                     // 9: closes S1's stream
		chunk("S1", "agent_message_chunk", "!"),  // 10: a new card
		chunk("S1", "agent_thought_chunk", "hm"), // 11: another kind
		chunk("S2", "agent_message_chunk", "y"),  // 12: folds into 5
		sseDelta("2", "z"),                       // 13: another exchange
	)...)
	want := []string{
		`1 ×3 session/update: agent_message_chunk "Hello w"`,
		`2 ×2 stream_event: content_block_delta "lo w"`,
		`3 ×2 POST /v1/messages content_block_delta [1] "lo w"`,
		`5 ×2 session/update: agent_message_chunk "xy"`,
		`9 ×1 session/update: tool_call ""`,
		`10 ×1 session/update: agent_message_chunk "!"`,
		`11 ×1 session/update: agent_thought_chunk "hm"`,
		`13 ×1 POST /v1/messages content_block_delta [2] "z"`,
	}
	if got := summary(b); !slices.Equal(got, want) {
		t.Errorf("cards:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c := b.Cards()[0]; c.LastSeq != 8 {
		t.Errorf("the folded card ends at seq %d, want 8", c.LastSeq)
	}
}

// Each card sits between the two parties of its lane, and says who sent
// it: client editor ↔ agent, cli agent ↔ CLI, model CLI ↔ model; a process
// entry belongs to its process's party.
func TestLanes(t *testing.T) {
	text := "warn"
	b := build(Options{}, entries(
		client(journal.DirEditor, "", "initialize", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`),
		client(journal.DirAgent, "", "initialize", `{"jsonrpc":"2.0","id":0,"result":{}}`),
		journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: journal.DirAgent, Proc: "cli-1", Method: "control_request/initialize", Msg: json.RawMessage(`{"type":"control_request"}`)},
		journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: journal.DirCLI, Proc: "cli-1", Method: "system/init", Msg: json.RawMessage(`{"type":"system"}`)},
		journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneModel, Dir: journal.DirCLI, Proc: "cli-1", ID: json.RawMessage("1"), Method: "POST /v1/messages", Msg: json.RawMessage(`{"method":"POST","path":"/v1/messages","headers":{}}`)},
		journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneModel, Dir: journal.DirModel, Proc: "cli-1", ID: json.RawMessage("1"), Method: "POST /v1/messages", Msg: json.RawMessage(`{"status":200,"headers":{}}`)},
		journal.Entry{Kind: journal.KindStderr, Lane: journal.LaneCLI, Proc: "cli-1", Text: &text},
		journal.Entry{Kind: journal.KindSpawn, Lane: journal.LaneClient, Proc: "agent", Argv: []string{"/home/someone/bin/airwire", "agent"}},
	)...)
	want := []string{
		"editor→agent lane-client initialize",
		"agent→editor lane-client initialize → result",
		"agent→cli lane-cli control_request/initialize",
		"cli→agent lane-cli system/init",
		"cli→model lane-model POST /v1/messages [1] request head",
		"model→cli lane-model POST /v1/messages [1] response 200",
		"cli→ solo stderr",
		"agent→ solo started",
	}
	var got []string
	for _, c := range b.Cards() {
		lane := "solo"
		if c.To != "" {
			lane = "lane-" + string(c.Lane)
		}
		if !strings.Contains(c.Class(), lane) {
			t.Errorf("card %d: class %q lacks %q", c.Seq, c.Class(), lane)
		}
		got = append(got, fmt.Sprintf("%s→%s %s %s", c.From, c.To, lane, c.Label))
	}
	if !slices.Equal(got, want) {
		t.Errorf("cards:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if last := b.Cards()[7]; last.Text != "airwire agent" {
		t.Errorf("a spawn card shows %q: paths are cut to their base name", last.Text)
	}
}

// Everything the journal holds is escaped: a prompt, a session id, a
// method and a stderr line holding markup stay text, and the page's only
// script is its own.
func TestEscaping(t *testing.T) {
	evil := `</script><script>alert(1)</script><img src=x onerror=alert(2)>`
	text := "stderr " + evil
	b := build(Options{Title: evil, Note: evil}, entries(
		client(journal.DirEditor, evil, "session/prompt", fmt.Sprintf(
			`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":%q}]}}`, evil, evil)),
		chunk(evil, "agent_message_chunk", evil),
		client(journal.DirAgent, "", evil, `{"jsonrpc":"2.0","method":"x"}`),
		journal.Entry{Kind: journal.KindStderr, Lane: journal.LaneClient, Proc: "agent", Text: &text},
	)...)
	b.SetFindings([]Finding{{Seq: 1, Severity: "error", Rule: evil, Message: evil, Pointer: evil}})
	var out bytes.Buffer
	if err := b.Write(&out); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	if n := strings.Count(strings.ToLower(page), "<script"); n != 2 {
		t.Errorf("the page holds %d <script> tags, want its own two (its cards, its script)", n)
	}
	if strings.Contains(page, "<img") {
		t.Errorf("the page holds an <img> tag")
	}
	if !strings.Contains(page, `\u003c/script\u003e\u003cscript\u003ealert(1)`) {
		t.Errorf("the prompt's JSON is not escaped in the page's cards")
	}
	if !strings.Contains(page, "&lt;/script&gt;&lt;script&gt;alert(1)") {
		t.Errorf("the prompt is not shown escaped")
	}
}

// The filters offer the sessions in the order they appear, the methods
// sorted, each once, and the lanes present in party order; each card
// carries the values the filters match.
func TestFiltersData(t *testing.T) {
	b := build(Options{}, entries(
		journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneModel, Dir: journal.DirCLI, Proc: "cli-1", Method: "POST /v1/messages", Msg: json.RawMessage(`{}`)},
		client(journal.DirEditor, "S2", "session/prompt", `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}`),
		chunk("S1", "agent_message_chunk", "a"),
		client(journal.DirEditor, "S2", "session/cancel", `{"jsonrpc":"2.0","method":"session/cancel","params":{}}`),
		client(journal.DirEditor, "", "initialize", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`),
	)...)
	f := b.Filters()
	if want := []string{"S2", "S1"}; !slices.Equal(f.Sessions, want) {
		t.Errorf("sessions %q, want %q", f.Sessions, want)
	}
	if want := []string{"POST /v1/messages", "initialize", "session/cancel", "session/prompt", "session/update"}; !slices.Equal(f.Methods, want) {
		t.Errorf("methods %q, want %q", f.Methods, want)
	}
	if want := []string{"client", "model"}; !slices.Equal(f.Lanes, want) {
		t.Errorf("lanes %q, want %q", f.Lanes, want)
	}
	var out bytes.Buffer
	if err := b.Write(&out); err != nil {
		t.Fatal(err)
	}
	cards := pageCards(t, out.String())
	if c := cards[1]; c.Seq != 2 || c.Lane != "client" || c.Session != "S2" || c.Method != "session/prompt" {
		t.Errorf("card 2 does not carry its lane, session and method for the filters: %+v", c)
	}
	for _, opt := range []string{`<option>S2</option><option>S1</option>`, `<option value="session/cancel">`, `value="model" checked`} {
		if !strings.Contains(out.String(), opt) {
			t.Errorf("the filters lack %s", opt)
		}
	}
}

// A finding is shown on the card of its message: a folded card takes the
// findings of every message folded into it.
func TestFindingsInline(t *testing.T) {
	b := build(Options{}, entries(
		chunk("S1", "agent_message_chunk", "a"),
		chunk("S1", "agent_message_chunk", "b"),
		toolCall("S1", "t1"),
	)...)
	b.SetFindings([]Finding{
		{Seq: 2, Severity: "error", Rule: "r-folded", Message: "in the second chunk", Pointer: "/params"},
		{Seq: 3, Severity: "warning", Rule: "r-tool", Message: "on the tool call"},
		{Seq: 99, Severity: "error", Rule: "r-none", Message: "no such entry"},
	})
	cards := b.Cards()
	if len(cards) != 2 || len(cards[0].Findings) != 1 || cards[0].Findings[0].Rule != "r-folded" ||
		len(cards[1].Findings) != 1 || cards[1].Findings[0].Rule != "r-tool" {
		t.Fatalf("findings not on their cards: %+v", cards)
	}
	var out bytes.Buffer
	if err := b.Write(&out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`href="#s1">seq 2 r-folded`, "2 findings"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	data := pageCards(t, out.String())
	want := []findingData{{Severity: "error", Rule: "r-folded", Message: "in the second chunk", Pointer: "/params"}}
	if !slices.Equal(data[0].Findings, want) || !strings.Contains(data[0].Class, "has-finding") ||
		!strings.Contains(data[1].Class, "tool-call has-finding") {
		t.Errorf("the page's cards: %+v", data)
	}
}

// A huge message shows only its first MaxBody bytes, with its size; once
// the page's JSON budget is spent, cards show no JSON but say so; a folded
// stream's text is cut too.
func TestBounds(t *testing.T) {
	huge := client(journal.DirEditor, "S1", "session/prompt", fmt.Sprintf(
		`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"prompt":[{"type":"text","text":%q}]}}`, strings.Repeat("é", 20000)))
	var es []journal.Entry
	es = append(es, huge, huge)
	for range 2000 {
		es = append(es, chunk("S1", "agent_message_chunk", "0123456789"))
	}
	line := strings.Repeat("x", 1000)
	for range 2 { // past the text budget: the second is cut to cutText
		es = append(es, journal.Entry{Kind: journal.KindNonJSON, Lane: journal.LaneClient, Dir: journal.DirAgent, Proc: "agent", Text: &line})
	}
	b := build(Options{MaxBody: 1000, MaxPageBody: 900, MaxPageText: 3000}, entries(es...)...)
	cards := b.Cards()
	if len(cards) != 5 {
		t.Fatalf("%d cards, want 5", len(cards))
	}
	first := cards[0]
	if !first.BodyCut || len(first.Body) > 1000 || first.Size != len(huge.Msg) || !strings.HasPrefix(first.Body, "{\n  \"jsonrpc\"") {
		t.Errorf("the huge message is not cut to 1000 bytes with its size: cut %v, %d bytes shown, size %d", first.BodyCut, len(first.Body), first.Size)
	}
	if !cards[1].BodyLeftOut || cards[1].Body != "" {
		t.Errorf("past the page's budget a card still shows JSON")
	}
	if c := cards[2]; c.Count != 2000 || !c.TextCut || len(c.Text) > maxText {
		t.Errorf("the folded stream: %d messages, text cut %v (%d bytes)", c.Count, c.TextCut, len(c.Text))
	}
	var out bytes.Buffer
	if err := b.Write(&out); err != nil {
		t.Fatal(err)
	}
	data := pageCards(t, out.String())
	if !data[0].BodyCut || data[0].Size != len(huge.Msg) || !data[1].LeftOut || data[2].Count != 2000 || !data[2].TextCut {
		t.Errorf("the page's cards do not say what is cut: %+v", data[:3])
	}
	if len(data[3].Text) != 1000 || data[3].TextCut || len(data[4].Text) != cutText || !data[4].TextCut {
		t.Errorf("past the page's text budget a card's text is not cut: %d bytes (cut %v), then %d bytes (cut %v)",
			len(data[3].Text), data[3].TextCut, len(data[4].Text), data[4].TextCut)
	}
}

// pageCards decodes the cards a page holds (its script draws them).
func pageCards(t *testing.T, page string) []cardData {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script id="cards" type="application/json">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page holds no cards")
	}
	var cards []cardData
	if err := json.Unmarshal([]byte(m[1]), &cards); err != nil {
		t.Fatal(err)
	}
	return cards
}

// readJournal feeds a journal file to a builder.
func readJournal(t testing.TB, path string, opts Options) *Builder {
	t.Helper()
	r, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b := NewBuilder(r.Header(), opts)
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return b
		}
		if err != nil {
			t.Fatal(err)
		}
		b.Add(e)
	}
}

// The recorded turn (testdata/bash-turn.jsonl: a Bash tool call with its
// permission, through the real CLI and a mock model API) gives cards on
// all three lanes, tool call cards, and folded streams on each lane.
func TestRecordedTurn(t *testing.T) {
	b := readJournal(t, "testdata/bash-turn.jsonl", Options{})
	lanes, folded := map[journal.Lane]int{}, map[journal.Lane]int{}
	tools := 0
	for _, c := range b.Cards() {
		lanes[c.Lane]++
		if c.Count > 1 {
			folded[c.Lane]++
		}
		if c.Tool != "" {
			tools++
		}
	}
	for _, l := range []journal.Lane{journal.LaneClient, journal.LaneCLI, journal.LaneModel} {
		if lanes[l] == 0 || folded[l] == 0 {
			t.Errorf("lane %s: %d cards, %d folded", l, lanes[l], folded[l])
		}
	}
	if tools == 0 {
		t.Error("no tool call card")
	}
}

// indent indents as json.Indent does, and indents a cut prefix too.
func TestIndent(t *testing.T) {
	for _, src := range []string{`{"a":[1,2,{"b":"x,y:{z}\"q"}],"e":{},"f":[]}`, `[]`, `"s"`, `{"a":{"b":{"c":null}}}`} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(src), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := indent([]byte(src), 1<<20); got != want.String() {
			t.Errorf("indent(%s) =\n%s\nwant\n%s", src, got, want.String())
		}
	}
	if got := indent([]byte(`{"a":{"b":"c`), 100); got != "{\n  \"a\": {\n    \"b\": \"c" {
		t.Errorf("a cut prefix: %q", got)
	}
}
