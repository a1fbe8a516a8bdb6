package conform

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/internal/projectdir"
)

// Line tags of the canonical transcript. Every line is "<tag> <json>".
const (
	TagEditorToAgent = "client editor->agent"
	TagAgentToEditor = "client agent->editor"
	// TagCLIRun is a CLI run that does not speak stream-json (auth status,
	// --version): one line per distinct argv, sorted.
	TagCLIRun = "cli:run spawn"
)

// cliTag is the tag of stream-json CLI process n (1-based, in spawn order).
func cliTag(n int, what string) string { return fmt.Sprintf("cli:%d %s", n, what) }

// FloatRule moves a message whose timing the adapter does not control to a
// fixed place. Match selects the floating agent → editor frame; Anchor gets
// the placed client lines without the floating frames and the position the
// frame arrived at (it arrived after lines[from-1]), and returns the index
// of the line to put it after (after any frame floated there before it), or
// -1 to leave it where it arrived.
type FloatRule struct {
	// Name documents the rule.
	Name   string
	Match  func(e *journal.Entry) bool
	Anchor func(lines []line, from int, e *journal.Entry) int
}

// FloatRules are the placement rules of the canonical form, applied in order.
var FloatRules = []FloatRule{
	{
		// The adapter runs `claude auth status --json` in the background at
		// initialize and pushes the result whenever the probe ends (about
		// 200 ms later): before, between or after the next responses.
		Name:  "_auth/status_update follows the initialize response",
		Match: func(e *journal.Entry) bool { return e.Method == "_auth/status_update" && len(e.ID) == 0 },
		Anchor: func(lines []line, _ int, _ *journal.Entry) int {
			for i, l := range lines {
				if l.tag == TagAgentToEditor && l.e.Method == "initialize" && len(l.e.ID) > 0 {
					return i
				}
			}
			return -1
		},
	},
	{
		// The reference asks the CLI for a title (generate_session_title)
		// when a prompt is queued, after reading the session file, and
		// publishes it whenever the answer comes: anywhere in the turn, or
		// just after its response. A turn the editor did not prompt (the
		// adapter's own /goal run) has no response to follow: the title then
		// goes to the end of the client lane.
		Name:  "a session title update follows the response of the prompt it arrived during, else ends the client lane",
		Match: isTitleUpdate,
		Anchor: func(lines []line, from int, _ *journal.Entry) int {
			if at := promptResponseAnchor(lines, from); at >= 0 {
				return at
			}
			return len(lines) - 1
		},
	},
	{
		// The reference publishes the slash commands after a session opens
		// and again whenever the CLI's answer to get_context_usage lists
		// other skill files (refreshSkillFiles, not awaited: it takes about a
		// second on a real CLI). Against the real CLI that answer lands
		// anywhere in the turn, or after its response, even once the next
		// prompt was placed (the canonical form places a prompt right after
		// the response that let it go). So an update follows the response
		// of the prompt that reached the agent last before it was written
		// (by journal seq); one written before any prompt (after the
		// session opened) stays where it is.
		Name:  "an available_commands_update follows the response of the prompt that reached the agent last before it was written",
		Match: isCommandsUpdate,
		Anchor: func(lines []line, _ int, e *journal.Entry) int {
			return writtenDuringPrompt(lines, e.Seq)
		},
	},
	{
		// An ACP v2 agent answers tool_call/cancel and terminal/cancel once
		// Claude Code confirmed the stop (stop_task), and reports the stop
		// itself (the call's final status, the terminal's exit, the list
		// without it) when Claude Code reports the task's end. The two come
		// from Claude Code in either order, so the reference's answer lands
		// before, among or after those reports.
		Name:  "the answer to a background cancel follows its request",
		Match: isBackgroundCancelAnswer,
		Anchor: func(lines []line, _ int, e *journal.Entry) int {
			for i, l := range lines {
				if l.tag == TagEditorToAgent && l.e.Method == e.Method && string(l.e.ID) == string(e.ID) {
					return i
				}
			}
			return -1
		},
	},
}

// isBackgroundCancelAnswer reports whether e answers an ACP v2
// tool_call/cancel or terminal/cancel.
func isBackgroundCancelAnswer(e *journal.Entry) bool {
	return len(e.ID) > 0 && (e.Method == "tool_call/cancel" || e.Method == "terminal/cancel")
}

// writtenDuringPrompt finds the session/prompt request that reached the
// agent last before journal seq (the canonical form may have placed a later
// prompt before the frame: it follows the response that let it go) and
// returns the index of its response, or -1.
func writtenDuringPrompt(lines []line, seq uint64) int {
	req := -1
	for i, l := range lines {
		if l.tag == TagEditorToAgent && l.e.Method == "session/prompt" && len(l.e.ID) > 0 && l.e.Seq < seq &&
			(req < 0 || l.e.Seq > lines[req].e.Seq) {
			req = i
		}
	}
	if req < 0 {
		return -1
	}
	for j := req + 1; j < len(lines); j++ {
		r := lines[j]
		if r.tag == TagAgentToEditor && r.e.Method == "session/prompt" && string(r.e.ID) == string(lines[req].e.ID) {
			return j
		}
	}
	return -1
}

// sessionUpdate is the update of a session/update notification.
type sessionUpdate struct {
	SessionUpdate string          `json:"sessionUpdate"`
	Title         *string         `json:"title"`
	Meta          json.RawMessage `json:"_meta"`
}

// updateOf decodes e's update when e is a session/update notification.
func updateOf(e *journal.Entry) (sessionUpdate, bool) {
	var m struct {
		Params struct {
			Update sessionUpdate `json:"update"`
		} `json:"params"`
	}
	if e.Method != "session/update" || len(e.ID) > 0 || e.Kind != journal.KindMsg || json.Unmarshal(e.Msg, &m) != nil {
		return sessionUpdate{}, false
	}
	return m.Params.Update, true
}

// isCommandsUpdate reports whether e is an available_commands_update.
func isCommandsUpdate(e *journal.Entry) bool {
	u, ok := updateOf(e)
	return ok && u.SessionUpdate == "available_commands_update"
}

// isTitleUpdate reports whether e is a session_info_update that publishes
// a title (and carries no _meta: goal snapshots, failure records and
// file-change reports travel in session_info_update too, on the adapter's
// own schedule).
func isTitleUpdate(e *journal.Entry) bool {
	u, ok := updateOf(e)
	return ok && u.SessionUpdate == "session_info_update" && u.Title != nil && len(u.Meta) == 0
}

// promptResponseAnchor finds the last session/prompt request placed before
// from and returns the index of its response.
func promptResponseAnchor(lines []line, from int) int {
	for i := min(from, len(lines)) - 1; i >= 0; i-- {
		l := lines[i]
		if l.tag != TagEditorToAgent || l.e.Method != "session/prompt" || len(l.e.ID) == 0 {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			r := lines[j]
			if r.tag == TagAgentToEditor && r.e.Method == "session/prompt" && string(r.e.ID) == string(l.e.ID) {
				return j
			}
		}
		return -1
	}
	return -1
}

type line struct {
	tag string
	e   *journal.Entry
	msg json.RawMessage // when set, replaces e.Msg (spawn lines)
}

// Canonical renders the run as canonical text: the client lane in
// canonical order (editor frames placed by their anchors, floating
// messages by FloatRules), then every stream-json CLI process in spawn
// order with its argv and the frames the adapter wrote to it before the
// editor closed the adapter's stdin, then the distinct argv of the other
// CLI runs. Values are normalized (Normalizer).
func Canonical(r *Result) ([]byte, error) {
	l := splitLanes(r)
	if len(l.editor) != len(r.Anchors) {
		return nil, fmt.Errorf("the journal holds %d editor frames but the driver wrote %d", len(l.editor), len(r.Anchors))
	}
	out := append(clientLines(l.agent, l.editor, r.Anchors), l.cliLines()...)
	nz := NewNormalizer(r.Paths)
	nz.FixDurations(cliOutput(r.Entries))
	var fixture []byte
	if r.Scenario != nil {
		fixture, _ = json.Marshal(r.Scenario)
	}
	nz.LearnMadeIDs(cliOutput(r.Entries), fixture)
	if r.Scenario != nil {
		nz.Stored(r.Scenario)
	}
	return render(out, nz)
}

// cliOutput is what the CLI processes wrote to the adapter (their stdout
// frames): the fake CLI's script or the cassette in a replay, what the real
// CLI said in a live run.
func cliOutput(entries []journal.Entry) []json.RawMessage {
	var out []json.RawMessage
	for i := range entries {
		e := &entries[i]
		if e.Lane == journal.LaneCLI && e.Dir == journal.DirCLI && e.Kind == journal.KindMsg {
			out = append(out, e.Msg)
		}
	}
	return out
}

// StoredSessions are the session ids a scenario stores before the run, in
// the order it lists them: its transcript's, then its sessions'.
func StoredSessions(sc *scenario.Scenario) []string {
	var ids []string
	if sc.Transcript != nil {
		ids = append(ids, sc.Transcript.SessionID)
	}
	for _, t := range sc.Sessions {
		ids = append(ids, t.SessionID)
	}
	return ids
}

// lanes are a run's entries that the canonical text shows, by lane.
type lanes struct {
	agent, editor []*journal.Entry
	// cliOrder lists the stream-json CLI processes in spawn order.
	cliOrder []string
	cliSpawn map[string]*journal.Entry
	cliMsgs  map[string][]*journal.Entry
	// runs holds the argv (as JSON) of the other CLI runs.
	runs map[string]bool
}

func splitLanes(r *Result) *lanes {
	l := &lanes{cliSpawn: map[string]*journal.Entry{}, cliMsgs: map[string][]*journal.Entry{}, runs: map[string]bool{}}
	// What the adapter writes to a CLI after the editor closed its stdin
	// (the interrupt of its shutdown) may or may not be read before the CLI
	// is killed: it is left out.
	cutoff := int64(-1)
	if !r.ClosedAt.IsZero() && !r.Header.Start.IsZero() {
		cutoff = r.ClosedAt.Sub(r.Header.Start).Nanoseconds()
	}
	for i := range r.Entries {
		e := &r.Entries[i]
		switch e.Lane {
		case journal.LaneClient:
			if e.Kind != journal.KindMsg && e.Kind != journal.KindNonJSON {
				continue
			}
			switch e.Dir {
			case journal.DirAgent:
				l.agent = append(l.agent, e)
			case journal.DirEditor:
				l.editor = append(l.editor, e)
			}
		case journal.LaneCLI:
			switch {
			case e.Kind == journal.KindSpawn:
				if jsonrpc.ArgvSpeaksStreamJSON(e.Argv) {
					l.cliOrder = append(l.cliOrder, e.Proc)
					l.cliSpawn[e.Proc] = e
				} else {
					b, _ := json.Marshal(map[string]any{"argv": e.Argv[min(1, len(e.Argv)):]})
					l.runs[string(b)] = true
				}
			case e.Kind == journal.KindMsg && e.Dir == journal.DirAgent && (cutoff < 0 || e.TNs <= cutoff):
				l.cliMsgs[e.Proc] = append(l.cliMsgs[e.Proc], e)
			}
		}
	}
	return l
}

// clientLines is the client lane: editor frames sorted (stably) by anchor,
// merged after the agent frame they follow, then floated (FloatRules).
func clientLines(agent, editor []*journal.Entry, anchors []int) []line {
	idx := make([]int, len(editor))
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(a, b int) bool { return anchors[idx[a]] < anchors[idx[b]] })
	var client []line
	k := 0
	emitEditor := func(upto int) {
		for k < len(idx) && anchors[idx[k]] <= upto {
			client = append(client, line{tag: TagEditorToAgent, e: editor[idx[k]]})
			k++
		}
	}
	emitEditor(-1)
	for i, e := range agent {
		client = append(client, line{tag: TagAgentToEditor, e: e})
		emitEditor(i)
	}
	emitEditor(len(agent) + len(editor))
	return float(client)
}

// cliLines is each stream-json CLI's spawn line and frames, then the
// distinct argv of the other CLI runs, sorted.
func (l *lanes) cliLines() []line {
	var out []line
	for n, proc := range l.cliOrder {
		sp := l.cliSpawn[proc]
		argv := append([]string{"<cli>"}, sp.Argv[min(1, len(sp.Argv)):]...)
		b, _ := json.Marshal(map[string]any{"argv": argv})
		out = append(out, line{tag: cliTag(n+1, "spawn"), e: sp, msg: b})
		for _, e := range floatCLI(l.cliMsgs[proc]) {
			out = append(out, line{tag: cliTag(n+1, "agent->cli"), e: e})
		}
	}
	runList := make([]string, 0, len(l.runs))
	for k := range l.runs {
		runList = append(runList, k)
	}
	sort.Strings(runList)
	for _, rl := range runList {
		out = append(out, line{tag: TagCLIRun, msg: json.RawMessage(rl)})
	}
	return out
}

// render normalizes the lines with nz, once it has seen every session id
// they hold and numbered the sessions the responses create, and writes one
// "<tag> <json>" line each.
func render(out []line, nz *Normalizer) ([]byte, error) {
	for _, l := range out {
		if l.e != nil && l.msg == nil {
			nz.collectSessions(l.e.Msg)
		}
		if l.e != nil && l.e.Kind == journal.KindSpawn {
			nz.collectArgvSessions(l.e.Argv)
		}
	}
	for _, l := range out {
		if l.tag == TagAgentToEditor && l.e.Kind == journal.KindMsg && len(l.e.ID) > 0 {
			nz.createdSession(l.e.Msg)
		}
	}
	var buf bytes.Buffer
	for _, l := range out {
		raw := l.msg
		if raw == nil {
			if l.e.Kind == journal.KindNonJSON {
				raw, _ = json.Marshal(map[string]any{"nonJSON": l.e.TextOf(), "reason": l.e.Reason})
			} else {
				raw = l.e.Msg
			}
		}
		norm, err := nz.Line(raw)
		if err != nil {
			return nil, fmt.Errorf("%s seq %d: %w", l.tag, seqOf(l.e), err)
		}
		buf.WriteString(l.tag)
		buf.WriteByte(' ')
		buf.Write(norm)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

func seqOf(e *journal.Entry) uint64 {
	if e == nil {
		return 0
	}
	return e.Seq
}

// float applies FloatRules to the placed client lines.
func float(lines []line) []line {
	for _, rule := range FloatRules {
		type floater struct {
			l    line
			from int
		}
		var floating []floater
		var rest []line
		for _, l := range lines {
			if l.tag == TagAgentToEditor && l.e.Kind == journal.KindMsg && rule.Match(l.e) {
				floating = append(floating, floater{l, len(rest)})
			} else {
				rest = append(rest, l)
			}
		}
		if len(floating) == 0 {
			continue
		}
		// Resolve every anchor on the same rest, then insert back to front.
		after := map[int][]line{}
		stay := map[int][]line{}
		for _, f := range floating {
			if at := rule.Anchor(rest, f.from, f.l.e); at >= 0 {
				after[at] = append(after[at], f.l)
			} else {
				stay[f.from] = append(stay[f.from], f.l)
			}
		}
		out := make([]line, 0, len(lines))
		out = append(out, stay[0]...)
		for i, l := range rest {
			out = append(out, l)
			out = append(out, after[i]...)
			out = append(out, stay[i+1]...)
		}
		lines = out
	}
	return lines
}

// floatCLI places the adapter → CLI frames whose timing the adapter does
// not control: a generate_session_title request goes right after the last
// user message before it (the reference sends it once the prompt is queued
// and the session file read, which races with the turn's other requests).
func floatCLI(frames []*journal.Entry) []*journal.Entry {
	var out []*journal.Entry
	lastUser := -1
	for _, e := range frames {
		var f struct {
			Type    string `json:"type"`
			Request struct {
				Subtype string `json:"subtype"`
			} `json:"request"`
		}
		_ = json.Unmarshal(e.Msg, &f)
		switch {
		case f.Type == "user":
			out = append(out, e)
			lastUser = len(out) - 1
		case f.Type == "control_request" && f.Request.Subtype == TitleSubtype && lastUser >= 0:
			out = append(out[:lastUser+1], append([]*journal.Entry{e}, out[lastUser+1:]...)...)
			lastUser++
		default:
			out = append(out, e)
		}
	}
	return out
}

// Normalizer replaces volatile values by placeholders. Rules, in order of
// application to every string (keys included):
//
//	windows     on Windows only, each run of backslashes → one slash
//	            (recordings are made with slashes), first; the run's
//	            paths then match folded, and after a/, b/ and file:///
//	            as a Unix path would (a/C:/… → a<cwd>…)
//	paths       the stand-in MCP server → <home>/bin/mcp-server (without
//	            its .exe on Windows), the run's cwd → <cwd>, CLAUDE_CONFIG_DIR → <config>, HOME →
//	            <home>, the fake CLI wrapper → <cli>, the run directory →
//	            <tmp>, the airwire binary → <airwire>, each path in the
//	            agent's argv → <agent-argv-N>, the encoded project directory
//	            of cwd → <project-dir>, airwire-shim-NNN → airwire-shim-N
//	made ids    ids the real CLI makes up, found under their keys and then
//	            replaced everywhere: agent ids (a + 16 hex: agentId,
//	            subagentSessionId, …) → <agent-N>, background task ids
//	            (asyncTaskId, backgroundTaskId, …) → <task-N>, an autonomous
//	            turn's runId → <run-N>, numbered by first appearance; agent
//	            ids are also learned from the CLI's own frames
//	            (LearnMadeIDs), task ids too
//	CLI text    a plan file …/plans/<random words>.md → …/plans/<plan-file>.md
//	            a SendMessage result that resumed an agent: "Resuming agent
//	            <first 7 hex>" → "Resuming agent <agent-prefix>", its
//	            pin's "ref" → "<pin-ref>"
//	generation  the epoch milliseconds that number a restored subagent
//	            session, <agent id>:generation:<ms> → …:generation:<epoch-ms>
//	model API   127.0.0.1:<port> → <model-api>: the only loopback server a
//	            run talks to is the model API (the mock, the recorder's model
//	            proxy in front of it, or the unused address of a replay), and
//	            the CLI quotes it in notices
//	uuids       a UUID that is a session id (a sessionId/session_id value or
//	            a --session-id/--resume argument anywhere in the run, or a
//	            session the scenario stores) → <session-N>, numbered by where
//	            the session was created, so that a reordered list shows:
//	            first the sessions the scenario stores, in the order it lists
//	            them (its transcript, then its sessions: the k-th is always
//	            <session-k>, shown or not), then each sessionId that a
//	            response to the editor introduces at the top of its result
//	            (session/new, a fork), in canonical order, then any other by
//	            first appearance in canonical order (keys sorted). Any other
//	            UUID → <uuid-N>, numbered by first appearance in canonical
//	            order: the adapter makes those up at random, and nothing
//	            outside the transcript fixes their order
//	request_id  the value of every request_id key → <req-N> (the SDK makes
//	            them up at random)
//	timestamps  an RFC 3339 string neither on the scripted clock's day
//	            (scenario.ClockBase) nor on the day a stored session of the
//	            scenario was modified (its rows are stamped from then on) →
//	            <timestamp>; an integer in the epoch
//	            milliseconds range (2017–2096) outside that day →
//	            "<epoch-ms>"
//	durations   a number under a key containing duration, elapsed or
//	            latency (any case), and the N of "duration_ms: N" in a
//	            string, → "<duration>" unless the CLI side of the run wrote
//	            the same number under such a key or in such a text
//	            (FixDurations): then the fake CLI's script or the cassette
//	            fixed it, and it is kept. Only what the adapter measures or
//	            derives itself (a clock, a unit conversion) varies between
//	            two runs; a live run's measured values are masked at
//	            comparison instead (MaskMeasured)
//	version     agentInfo.version → <agent-version>
//	hashes      toolResponse.harnessSectionHash (new in every real run) → <hash>
//	cursors     the value of every cursor or nextCursor key → <cursor-N>
//	            (opaque, and the reference encodes the cwd in it)
//	exit line   in an ACP v2 terminal's output (base64), the line Claude
//	            Code appends to a background command's output file when the
//	            command exits ("[exited with code N]") is left out: an
//	            adapter reads the file as the task ends, and whether the
//	            line is there yet is a race in every run
type Normalizer struct {
	paths    [][2]string
	sessions map[string]bool
	// madeKind holds the ids the real CLI makes up (agents, background
	// tasks, autonomous runs), found under their keys, with their kind;
	// made their placeholders, numbered by first appearance.
	madeKind map[string]string
	made     map[string]string
	nMade    map[string]int
	ids      map[string]string
	reqs     map[string]string
	cursors  map[string]string
	// fixed holds the durations the CLI side wrote (numKey form).
	fixed map[string]bool
	// storedDays are the days (2006-01-02) of the scenario's stored sessions.
	storedDays map[string]bool
	// fold: a Windows run's strings have their backslashes folded
	// (cassette.FoldSeparators) before any rule; the paths match folded.
	fold     bool
	nCursor  int
	nSession int
	nUUID    int
	nReq     int
}

// NewNormalizer builds the path rules of a run.
func NewNormalizer(p Paths) *Normalizer {
	n := &Normalizer{sessions: map[string]bool{}, ids: map[string]string{}, reqs: map[string]string{}, cursors: map[string]string{},
		madeKind: map[string]string{}, made: map[string]string{}, nMade: map[string]int{}, fixed: map[string]bool{}}
	add := func(from, to string) {
		if from != "" && from != "/" {
			n.paths = append(n.paths, [2]string{from, to})
		}
	}
	add(p.MCPServer, "<home>/bin/mcp-server") // <home>/bin/mcp-server.exe on Windows
	add(p.Cwd, "<cwd>")
	add(p.ConfigDir, "<config>")
	add(p.Home, "<home>")
	add(p.CLI, "<cli>")
	add(p.Root, "<tmp>")
	add(p.Airwire, "<airwire>")
	for i, a := range p.Agent {
		for _, form := range argvPathForms(a, i == 0) {
			add(form, fmt.Sprintf("<agent-argv-%d>", i))
		}
	}
	if p.Cwd != "" {
		add(projectdir.Name(p.Cwd), "<project-dir>")
	}
	if n.fold = cassette.OnWindows; n.fold {
		// Folded; and where a Unix path's own leading slash ends a prefix
		// (a patch's a/ and b/, file:///), a Windows path gets the slash
		// added before its drive.
		for _, p := range n.paths {
			if f := cassette.FoldSeparators(p[0]); f != p[0] {
				n.paths = append(n.paths, [2]string{f, p[1]})
				for _, prefix := range []string{"a/", "b/", "file:///"} {
					n.paths = append(n.paths, [2]string{prefix + f, prefix[:len(prefix)-1] + p[1]})
				}
			}
		}
	}
	sort.SliceStable(n.paths, func(a, b int) bool { return len(n.paths[a][0]) > len(n.paths[b][0]) })
	return n
}

// argvPathForms is how an agent argument that names a file can appear in
// what the agent writes: as given, and as the real file behind it. A
// program named without a directory (argv[0] "node") is found on PATH: the
// reference reports its own interpreter by its resolved path
// (terminal-auth's command), which must not reach a golden.
func argvPathForms(a string, program bool) []string {
	if !strings.ContainsAny(a, `/\`) {
		if !program || a == "" {
			return nil
		}
		found, err := exec.LookPath(a)
		if err != nil || !filepath.IsAbs(found) {
			return nil
		}
		a = found
	}
	forms := []string{a}
	if real, err := filepath.EvalSymlinks(a); err == nil && real != a {
		forms = append(forms, real)
	}
	return forms
}

var (
	uuidRE = lazyre.New(`(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	shimRE = lazyre.New(`airwire-shim-[0-9]+(?:-[0-9]+)?`)
	apiRE  = lazyre.New(`127\.0\.0\.1:[0-9]+`)
	// textDurRE is a duration the CLI writes into a subagent's result text.
	textDurRE = lazyre.New(`duration_ms: [0-9]+`) // textDurPrefix, then digits: TestScriptedDay
	// planRE is a plan file the CLI names with random words.
	// exitLineRE is the exit line Claude Code appends to a background
	// command's output file, with the blank line before it.
	exitLineRE = lazyre.New(`\n?\[exited with code -?[0-9]+\]\n?$`)
	planRE     = lazyre.New(`(/plans/)[a-z0-9-]+\.md`)
	// restoredGenRE is the generation of a subagent session restored
	// after a load or resume: the adapter's clock in epoch milliseconds.
	restoredGenRE = lazyre.New(`(:generation:)1[5-9][0-9]{11}\b`)
	// resumeRE is what a SendMessage result that resumed an agent says of
	// it besides its id: the id's first 7 hex digits and the pin's ref.
	resumeRE = lazyre.New(`(Resuming agent )[0-9a-f]{7}\b|("pin":\{[^{}]*"ref":")[0-9a-f]{6}"`)
	tsRE     = lazyre.New(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$`)
	durKeyRE = lazyre.New(`(?i)duration|elapsed|latency`)
)

// textDurPrefix starts a duration in a subagent's result text.
const textDurPrefix = "duration_ms: "

// The scripted clock's day and its bounds in Unix milliseconds: constants,
// so that no init code computes them at every start (TestScriptedDay checks
// the day against scenario.ClockBase).
const (
	scriptedDay    = "2026-01-01"
	scriptedMsFrom = scenario.ClockBaseMilli
	scriptedMsTo   = scenario.ClockBaseMilli + 86_400_000
)

// FixDurations records the durations the CLI side of the run wrote to the
// adapter (frames): numbers under a duration, elapsed or latency key and the
// N of "duration_ms: N" in strings. The durations rule keeps those values.
func (n *Normalizer) FixDurations(frames []json.RawMessage) {
	for _, raw := range frames {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			continue
		}
		walkJSON(v, "", func(key string, leaf any) {
			switch t := leaf.(type) {
			case json.Number:
				if durKeyRE.MatchString(key) {
					n.fixed[numKey(t)] = true
				}
			case string:
				for _, m := range textDurRE.FindAllString(t, -1) {
					n.fixed[numKey(json.Number(strings.TrimPrefix(m, textDurPrefix)))] = true
				}
			}
		})
	}
}

// walkJSON calls leaf for every string and number in v with the key it is
// under ("" at the top, the array's key for its elements).
func walkJSON(v any, key string, leaf func(key string, v any)) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			walkJSON(e, k, leaf)
		}
	case []any:
		for _, e := range t {
			walkJSON(e, key, leaf)
		}
	default:
		leaf(key, v)
	}
}

// numKey is the value of a JSON number, so that 5 and 5.0 are the same.
func numKey(x json.Number) string {
	f, err := strconv.ParseFloat(string(x), 64)
	if err != nil {
		return string(x)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// Stored applies what the scenario sc fixes before the run: the sessions it
// stores (StoredSessions) are numbered first, the k-th <session-k>, and
// timestamps on the days they were modified are kept. Call it before any
// Line.
func (n *Normalizer) Stored(sc *scenario.Scenario) {
	for _, id := range StoredSessions(sc) {
		n.numberSession(strings.ToLower(id))
	}
	n.storedDays = map[string]bool{}
	stored := slices.Clone(sc.Sessions)
	if sc.Transcript != nil {
		stored = append(stored, *sc.Transcript)
	}
	for _, t := range stored {
		if len(t.Modified) >= 10 {
			n.storedDays[t.Modified[:10]] = true
		}
	}
}

// LearnMadeIDs learns the subagent and background task ids the CLI made
// up from its own frames (a tool result's agentId, a task's task_id): an
// adapter may show one only inside text, before or without a key that
// names it (the Agent tool's launch message an AIR client gets without the
// tool response; the base64 output of an ACP v2 display terminal), and it
// is replaced there too. An id the scenario itself holds (fixture: its
// stored transcripts) is the same in every run and is not learned.
func (n *Normalizer) LearnMadeIDs(frames []json.RawMessage, fixture []byte) {
	learned := slices.DeleteFunc(slices.Clone(madeIDs), func(m madeID) bool { return m.placeholder == "run" })
	for _, raw := range frames {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		walkStrings(v, func(key, s string) {
			for _, m := range learned {
				if slices.Contains(m.keys, key) && m.shape.MatchString(s) && !bytes.Contains(fixture, []byte(s)) {
					n.madeKind[s] = m.placeholder
				}
			}
		})
	}
}

// walkStrings calls f with each string value of v under an object key.
func walkStrings(v any, f func(key, s string)) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if s, ok := e.(string); ok {
				f(k, s)
			}
			walkStrings(e, f)
		}
	case []any:
		for _, e := range t {
			walkStrings(e, f)
		}
	}
}

// createdSession numbers the session a response introduces at the top of
// its result (session/new, a fork), unless it has a number already.
func (n *Normalizer) createdSession(raw json.RawMessage) {
	var m struct {
		Result struct {
			SessionID string `json:"sessionId"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &m) != nil || !uuidRE.MatchString(m.Result.SessionID) {
		return
	}
	n.numberSession(strings.ToLower(m.Result.SessionID))
}

// numberSession gives session id u (lower case) the next session number
// unless it has one.
func (n *Normalizer) numberSession(u string) string {
	if p, ok := n.ids[u]; ok {
		return p
	}
	n.sessions[u] = true
	n.nSession++
	n.ids[u] = fmt.Sprintf("<session-%d>", n.nSession)
	return n.ids[u]
}

func (n *Normalizer) collectSessions(raw json.RawMessage) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				if s, ok := e.(string); ok && (k == "sessionId" || k == "session_id") && uuidRE.MatchString(s) {
					n.sessions[strings.ToLower(s)] = true
				}
				if s, ok := e.(string); ok {
					n.collectMade(k, s)
					n.collectHandback(s)
				}
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
}

// madeID is one kind of id the real CLI makes up.
type madeID struct {
	keys        []string
	shape       *lazyre.Regexp
	placeholder string
}

// madeIDs are the ids the real CLI makes up at random, by the keys that
// carry them: the value must also have the id's shape. They are replaced
// wherever they appear (a task's output path, a notice's text).
var madeIDs = []madeID{
	{[]string{"agentId", "agent_id", "subagentSessionId", "senderTaskId", "from", "sessionId"}, lazyre.New(`^a[0-9a-f]{16}$`), "agent"},
	{[]string{"asyncTaskId", "backgroundTaskId", "taskId", "task_id"}, lazyre.New(`^[a-z][0-9a-z]{8}$`), "task"},
	{[]string{"runId", "run_id"}, lazyre.New(`^[0-9a-z]+-[0-9a-f]+$`), "run"},
	{[]string{"runId"}, lazyre.New(`^wf_[0-9a-f]{8}-[0-9a-f]{3}$`), "workflow"},
}

func (n *Normalizer) collectMade(key, v string) {
	for _, m := range madeIDs {
		if slices.Contains(m.keys, key) && m.shape.MatchString(v) {
			n.madeKind[v] = m.placeholder
			return
		}
	}
}

// handbackFrom is the sentence with which Claude Code points a flat
// subagent's tool result at the report its agent handed back; the quoted
// word is the agent's id. An editor-lane run sees the id nowhere else.
var handbackFrom = lazyre.New(`as a message from "(a[0-9a-f]{16})" \(its SubagentHandback call\)`)

// collectHandback learns the agent ids that text names in handbackFrom.
func (n *Normalizer) collectHandback(text string) {
	if !strings.Contains(text, "SubagentHandback") {
		return
	}
	for _, m := range handbackFrom.Compiled().FindAllStringSubmatch(text, -1) {
		n.madeKind[m[1]] = "agent"
	}
}

// replaceMade replaces the made ids in s, numbering new ones in the order
// they appear.
func (n *Normalizer) replaceMade(s string) string {
	type hit struct {
		at int
		id string
	}
	var hits []hit
	for id := range n.madeKind {
		if at := strings.Index(s, id); at >= 0 {
			hits = append(hits, hit{at, id})
		}
	}
	sort.Slice(hits, func(a, b int) bool { return hits[a].at < hits[b].at })
	for _, h := range hits {
		p, ok := n.made[h.id]
		if !ok {
			kind := n.madeKind[h.id]
			n.nMade[kind]++
			p = fmt.Sprintf("<%s-%d>", kind, n.nMade[kind])
			n.made[h.id] = p
		}
		s = strings.ReplaceAll(s, h.id, p)
	}
	return s
}

func (n *Normalizer) collectArgvSessions(argv []string) {
	for i, a := range argv {
		for _, flag := range []string{"--session-id", "--resume"} {
			if v, ok := strings.CutPrefix(a, flag+"="); ok && uuidRE.MatchString(v) {
				n.sessions[strings.ToLower(v)] = true
			}
			if a == flag && i+1 < len(argv) && uuidRE.MatchString(argv[i+1]) {
				n.sessions[strings.ToLower(argv[i+1])] = true
			}
		}
	}
}

// Line normalizes one JSON document and encodes it with sorted keys and no
// HTML escaping.
func (n *Normalizer) Line(raw json.RawMessage) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return encodeJSON(n.value(v, nil))
}

// encodeJSON encodes v as the canonical form does: keys sorted, no HTML
// escaping, no trailing newline.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func (n *Normalizer) value(v any, path []string) any {
	key := ""
	if len(path) > 0 {
		key = path[len(path)-1]
	}
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(t))
		for _, k := range keys {
			out[n.str(k)] = n.value(t[k], append(path, k))
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = n.value(e, append(path, "[]"))
		}
		return out
	case string:
		if key == "request_id" && t != "" {
			if p, ok := n.reqs[t]; ok {
				return p
			}
			n.nReq++
			n.reqs[t] = fmt.Sprintf("<req-%d>", n.nReq)
			return n.reqs[t]
		}
		if (key == "cursor" || key == "nextCursor") && t != "" {
			if p, ok := n.cursors[t]; ok {
				return p
			}
			n.nCursor++
			n.cursors[t] = fmt.Sprintf("<cursor-%d>", n.nCursor)
			return n.cursors[t]
		}
		if key == "version" && len(path) >= 2 && (path[len(path)-2] == "agentInfo" || v2AgentInfo(path)) {
			return "<agent-version>"
		}
		if key == "data" && len(path) >= 2 && path[len(path)-2] == "output" {
			// ACP v2 sends terminal output as base64 (terminal_update,
			// terminal_output_chunk): its text gets the rules of any text.
			if b, err := base64.StdEncoding.DecodeString(t); err == nil && utf8.Valid(b) {
				text := exitLineRE.ReplaceAllString(string(b), "")
				return base64.StdEncoding.EncodeToString([]byte(n.str(text)))
			}
		}
		if key == "harnessSectionHash" {
			// A hash the real CLI makes anew in every run (a forced
			// subagent hand-back's tool response).
			return "<hash>"
		}
		return n.str(t)
	case json.Number:
		if durKeyRE.MatchString(key) && !n.fixed[numKey(t)] {
			return "<duration>"
		}
		if i, err := t.Int64(); err == nil && i >= 1_500_000_000_000 && i < 4_000_000_000_000 && (i < scriptedMsFrom || i >= scriptedMsTo) {
			return "<epoch-ms>"
		}
		return t
	}
	return v
}

// v2AgentInfo reports whether path is in the info of an initialize
// answer of ACP v2 (v1: agentInfo).
func v2AgentInfo(path []string) bool {
	return len(path) == 3 && path[0] == "result" && path[1] == "info"
}

// str applies the path, uuid and timestamp rules to one string.
func (n *Normalizer) str(s string) string {
	if n.fold {
		s = cassette.FoldSeparators(unquoteGitNames(s))
	}
	for _, p := range n.paths {
		if strings.Contains(s, p[0]) {
			s = strings.ReplaceAll(s, p[0], p[1])
		}
	}
	s = shimRE.ReplaceAllString(s, "airwire-shim-N")
	s = apiRE.ReplaceAllString(s, "<model-api>")
	s = n.replaceMade(s)
	s = textDurRE.ReplaceAllStringFunc(s, func(m string) string {
		if n.fixed[numKey(json.Number(strings.TrimPrefix(m, textDurPrefix)))] {
			return m
		}
		return textDurPrefix + "<duration>"
	})
	s = planRE.ReplaceAllString(s, "${1}<plan-file>.md")
	s = restoredGenRE.ReplaceAllString(s, "${1}<epoch-ms>")
	s = resumeRE.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "Resuming agent ") {
			return "Resuming agent <agent-prefix>"
		}
		return m[:len(m)-7] + `<pin-ref>"`
	})
	s = uuidRE.ReplaceAllStringFunc(s, func(u string) string {
		u = strings.ToLower(u)
		if p, ok := n.ids[u]; ok {
			return p
		}
		if n.sessions[u] {
			return n.numberSession(u)
		}
		n.nUUID++
		n.ids[u] = fmt.Sprintf("<uuid-%d>", n.nUUID)
		return n.ids[u]
	})
	if tsRE.MatchString(s) && !strings.HasPrefix(s, scriptedDay) && !n.storedDays[s[:min(len(s), 10)]] {
		return "<timestamp>"
	}
	return s
}

var (
	// gitHeaderRE is a header line of a Git patch that names files.
	gitHeaderRE = lazyre.New(`(?m)^(?:diff --git|---|\+\+\+) .*$`)
	// gitQuotedRE is a name Git quoted for its backslashes alone.
	gitQuotedRE = lazyre.New(`"((?:[ -!#-\[\]-~]|\\\\)*\\\\(?:[ -!#-\[\]-~]|\\\\)*)"`)
)

// unquoteGitNames takes off, in a Git patch's header lines, the quotes of
// a name that Git quoted only for its backslashes: a Windows path, quoted
// where the same name on Unix is not. The separators fold after.
func unquoteGitNames(s string) string {
	if !strings.Contains(s, `\\`) || !gitHeaderRE.MatchString(s) {
		return s
	}
	return gitHeaderRE.ReplaceAllStringFunc(s, func(line string) string {
		return gitQuotedRE.ReplaceAllString(line, "$1")
	})
}

// MaskMeasured replaces, in a canonical transcript, every duration the
// durations rule would replace if the CLI had not fixed it: a number under a
// duration, elapsed or latency key and the N of "duration_ms: N"; and the
// API and active times of the `/usage` table ("| $0.00 | 0s | 2s |"). A live run
// compares its transcript and the golden both masked: there the real CLI
// measures those values anew (a replay gets them from the cassette, and
// keeps them). Lines that are not "<tag> <json>" stay as they are.
func MaskMeasured(canon []byte) []byte { return maskCanon(canon, false) }

// MaskRecorded masks what MaskMeasured masks and, besides, the token counts
// the CLI estimates itself (a compaction's preTokens and postTokens, numbers
// under estimatedTokensRE, and the amounts of its /context report) →
// "<tokens>": two recordings made by different
// releases or CLI versions (airwire diff) differ there by nature, where a
// live run against its own golden does not (runDir keeps the estimate
// stable).
func MaskRecorded(canon []byte) []byte { return maskCanon(canon, true) }

// estimatedTokensRE is a key whose number the CLI estimates by counting
// the conversation (its compaction metadata, as the adapter forwards it).
var estimatedTokensRE = lazyre.New(`^(?i)(pre|post)_?tokens$`)

// contextReport heads the CLI's /context report, whose token amounts
// (contextTokensRE: "10.1k", "956.9k") the CLI estimates as well.
const contextReport = "## Context Usage"

var contextTokensRE = lazyre.New(`\b\d+(?:\.\d+)?k\b`)

// usageTimesRE is the row of the `/usage` Markdown's session table: the
// cost, then the API and active times Claude Code measured.
var usageTimesRE = lazyre.New(`(\| \$[0-9]+\.[0-9]{2} \| )(?:[0-9]+m(?: [0-9]+s)?|[0-9]+s) \| (?:[0-9]+m(?: [0-9]+s)?|[0-9]+s) \|`)

func maskCanon(canon []byte, tokens bool) []byte {
	var out bytes.Buffer
	for _, l := range bytes.SplitAfter(canon, []byte("\n")) {
		i := bytes.IndexByte(l, '{')
		if i < 0 {
			out.Write(l)
			continue
		}
		norm, err := maskLine(bytes.TrimRight(l[i:], "\n"), tokens)
		if err != nil {
			out.Write(l)
			continue
		}
		out.Write(l[:i])
		out.Write(norm)
		if bytes.HasSuffix(l, []byte("\n")) {
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

// maskLine applies only the durations rule (nothing fixed), and with
// tokens the estimated token counts, to one JSON document, encoded as Line
// encodes.
func maskLine(raw []byte, tokens bool) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var mask func(v any, key string) any
	mask = func(v any, key string) any {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				t[k] = mask(e, k)
			}
		case []any:
			for i, e := range t {
				t[i] = mask(e, key)
			}
		case json.Number:
			if durKeyRE.MatchString(key) {
				return "<duration>"
			}
			if tokens && estimatedTokensRE.MatchString(key) {
				return "<tokens>"
			}
		case string:
			t = textDurRE.ReplaceAllString(t, textDurPrefix+"<duration>")
			t = usageTimesRE.ReplaceAllString(t, "${1}<duration> | <duration> |")
			if tokens && strings.Contains(t, contextReport) {
				t = contextTokensRE.ReplaceAllString(t, "<tokens>")
			}
			return t
		}
		return v
	}
	return encodeJSON(mask(v, ""))
}
