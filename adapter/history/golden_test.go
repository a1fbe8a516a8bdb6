package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/conform/scenario"

	"github.com/airwire/airwire/internal/testroot"
)

// run is a scenario's stored sessions materialised as conform does it:
// the transcripts written into a fresh config dir for a run in cwd.
type run struct {
	sc        *scenario.Scenario
	configDir string
	cwd       string
	root      string
}

func materialise(t *testing.T, name string) *run {
	t.Helper()
	root := testroot.Root(t)
	sc, err := scenario.Load(filepath.Join(root, "scenarios", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &run{sc: sc, configDir: filepath.Join(tmp, "config"), cwd: filepath.Join(tmp, "cwd"), root: root}
	if err := os.MkdirAll(r.cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := sc.WriteSessions(r.configDir, r.cwd, map[string]string{"cwd": r.cwd, "home": filepath.Join(tmp, "home")}); err != nil {
		t.Fatal(err)
	}
	return r
}

// normalize applies the run's golden normalizer to raw; ids holds the
// placeholders of the stored session ids, which the golden names
// <session-N> by first appearance.
func (r *run) normalize(t *testing.T, n *conform.Normalizer, raw json.RawMessage, ids map[string]string) string {
	t.Helper()
	s := string(raw)
	for _, id := range r.storedIDs() {
		if !strings.Contains(s, id) {
			continue
		}
		if _, ok := ids[id]; !ok {
			ids[id] = "<session-" + strconv.Itoa(len(ids)+1) + ">"
		}
		s = strings.ReplaceAll(s, id, ids[id])
	}
	out, err := n.Line(json.RawMessage(s))
	if err != nil {
		t.Fatalf("normalize %s: %v", raw, err)
	}
	return string(out)
}

func (r *run) storedIDs() []string {
	var ids []string
	if r.sc.Transcript != nil {
		ids = append(ids, r.sc.Transcript.SessionID)
	}
	for _, s := range r.sc.Sessions {
		ids = append(ids, s.SessionID)
	}
	return ids
}

// goldenLine is one ACP line of a golden.
type goldenLine struct {
	tag string
	msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			ClientCapabilities json.RawMessage `json:"clientCapabilities"`
			Update             json.RawMessage `json:"update"`
		} `json:"params"`
		Result json.RawMessage `json:"result"`
	}
	body string
}

// readGolden reads the client lines of goldens/<name>/<profile>.golden.
func readGolden(t *testing.T, root, name, profile string) []goldenLine {
	t.Helper()
	var out []goldenLine
	for _, l := range goldentest.Read(t, filepath.Join(root, "goldens", name, profile+".golden")) {
		if !strings.HasPrefix(l.Tag, "client ") {
			continue
		}
		g := goldenLine{tag: l.Tag, body: string(l.Msg)}
		if json.Unmarshal(l.Msg, &g.msg) != nil {
			t.Fatalf("bad golden line %s %s", l.Tag, l.Msg)
		}
		out = append(out, g)
	}
	return out
}

func clientCaps(lines []goldenLine) caps.Client {
	for _, l := range lines {
		if l.tag == "client editor->agent" && l.msg.Method == "initialize" {
			return caps.Parse(l.msg.Params.ClientCapabilities)
		}
	}
	return caps.Client{}
}

// canonical is JSON with sorted keys, as the goldens write it.
func canonical(t *testing.T, raw string) string {
	t.Helper()
	out, err := conform.NewNormalizer(conform.Paths{}).Line(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// requestWindow is the session/update lines the agent sent between the
// request with method and its response, and that response's result.
func requestWindow(t *testing.T, lines []goldenLine, method string) ([]string, string) {
	t.Helper()
	var id string
	var updates []string
	for _, l := range lines {
		switch {
		case id == "" && l.tag == "client editor->agent" && l.msg.Method == method:
			id = string(l.msg.ID)
		case id != "" && l.tag == "client agent->editor" && l.msg.Method == "session/update":
			updates = append(updates, canonical(t, string(l.msg.Params.Update)))
		case id != "" && l.tag == "client agent->editor" && string(l.msg.ID) == id && l.msg.Method == "":
			return updates, canonical(t, string(l.msg.Result))
		}
	}
	t.Fatalf("no %s request with a response in the golden", method)
	return nil, ""
}

// TestGoldenLoadReplay replays the stored transcript of session-load-replay
// and compares the updates with what the reference sent before its
// session/load response.
func TestGoldenLoadReplay(t *testing.T) {
	for _, profile := range []string{"plain", "zed"} {
		t.Run(profile, func(t *testing.T) {
			r := materialise(t, "session-load-replay")
			lines := readGolden(t, r.root, "session-load-replay", profile)
			want, _ := requestWindow(t, lines, "session/load")
			path, ok := Find(r.configDir, r.sc.Transcript.SessionID)
			if !ok {
				t.Fatal("the stored transcript is not found")
			}
			msgs, err := ReadMessages(path)
			if err != nil {
				t.Fatal(err)
			}
			n := conform.NewNormalizer(conform.Paths{Cwd: r.cwd, ConfigDir: r.configDir})
			ids := map[string]string{}
			var got []string
			for _, u := range Replay(msgs, toolcall.Renderer{Caps: clientCaps(lines), Cwd: r.cwd}, toolcall.NewSession(clientCaps(lines), r.cwd)) {
				got = append(got, r.normalize(t, n, u, ids))
			}
			goldentest.CompareLines(t, "update", got, want)
			if m := Model(msgs); m != scenario.DefaultModel {
				t.Errorf("model %q, want %q", m, scenario.DefaultModel)
			}
		})
	}
}

// TestGoldenListPlainClient lists the stored sessions of
// session-list-plain-client and compares the page with the reference's.
func TestGoldenListPlainClient(t *testing.T) {
	for _, profile := range []string{"plain", "zed"} {
		t.Run(profile, func(t *testing.T) {
			r := materialise(t, "session-list-plain-client")
			lines := readGolden(t, r.root, "session-list-plain-client", profile)
			want, wantResult := requestWindow(t, lines, "session/list")
			if len(want) != 0 {
				t.Fatalf("the golden sends updates during session/list: %v", want)
			}
			page, err := List(r.configDir, ListParams{Cwd: &r.cwd})
			if err != nil {
				t.Fatal(err)
			}
			n := conform.NewNormalizer(conform.Paths{Cwd: r.cwd, ConfigDir: r.configDir})
			if got := r.normalize(t, n, marshal(page), map[string]string{}); got != wantResult {
				t.Errorf("page:\n got %s\nwant %s", got, wantResult)
			}
		})
	}
}

// TestGoldenForkTitle forks the stored session of fork-then-prompt: the
// copy resumes under a new id, and the title the reference publishes for
// it after the prompt is the fork's stored title.
func TestGoldenForkTitle(t *testing.T) {
	for _, profile := range []string{"plain", "zed"} {
		t.Run(profile, func(t *testing.T) {
			r := materialise(t, "fork-then-prompt")
			lines := readGolden(t, r.root, "fork-then-prompt", profile)
			var wantTitle string
			for _, l := range lines {
				var u struct {
					SessionUpdate string `json:"sessionUpdate"`
					Title         string `json:"title"`
				}
				if json.Unmarshal(l.msg.Params.Update, &u) == nil && u.SessionUpdate == "session_info_update" && u.Title != "" {
					wantTitle = u.Title
				}
			}
			if wantTitle == "" {
				t.Fatal("the golden publishes no title")
			}
			src := r.sc.Transcript.SessionID
			id, err := Fork(r.configDir, src, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if id == src || !ValidID(id) {
				t.Fatalf("fork id %q", id)
			}
			info, ok := Stat(r.configDir, id)
			if !ok {
				t.Fatal("the fork is not stored")
			}
			if info.CustomTitle != wantTitle || info.Summary != wantTitle {
				t.Errorf("fork title %q (summary %q), want %q", info.CustomTitle, info.Summary, wantTitle)
			}
			p, _ := Find(r.configDir, id)
			srcPath, _ := Find(r.configDir, src)
			if filepath.Dir(p) != filepath.Dir(srcPath) {
				t.Errorf("fork written to %s, not beside %s", p, srcPath)
			}
			checkForkReplay(t, srcPath, p)
		})
	}
}

// checkForkReplay: the fork replays the same conversation as its source.
func checkForkReplay(t *testing.T, src, fork string) {
	t.Helper()
	a, err := ReadMessages(src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadMessages(fork)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("fork has %d messages, source %d", len(b), len(a))
	}
	for i := range a {
		if string(a[i].Message) != string(b[i].Message) || a[i].UUID == b[i].UUID {
			t.Errorf("message %d: %s (%s) vs %s (%s)", i, b[i].Message, b[i].UUID, a[i].Message, a[i].UUID)
		}
	}
}

// TestGoldenResumeTail reads the resume facts of session-resume's stored
// session: the permission mode is the one the reference spawns the CLI
// with.
func TestGoldenResumeTail(t *testing.T) {
	for _, profile := range []string{"plain", "zed"} {
		t.Run(profile, func(t *testing.T) {
			r := materialise(t, "session-resume")
			data, err := os.ReadFile(filepath.Join(r.root, "goldens", "session-resume", profile+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			path, ok := Find(r.configDir, r.sc.Transcript.SessionID)
			if !ok {
				t.Fatal("the stored transcript is not found")
			}
			tail, err := ReadTail(path, true)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), `"--permission-mode=`+tail.PermissionMode+`"`) || tail.PermissionMode == "" {
				t.Errorf("permission mode %q is not the one of the golden's spawn", tail.PermissionMode)
			}
			if tail.Model != scenario.DefaultModel {
				t.Errorf("model %q, want %q", tail.Model, scenario.DefaultModel)
			}
		})
	}
}
