package cassette_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/journal"
)

// recSession is the session id of the synthetic recording.
const recSession = "aaaaaaaa-1111-2222-3333-444444444444"

// recorded is one synthetic recorded run: its directories and journal.
type recorded struct {
	dirs    runDirs
	journal string
}

func (r recorded) subs() cassette.Substitutions {
	return cassette.Substitutions{Cwd: r.dirs.cwd, Home: r.dirs.home, ConfigDir: r.dirs.config, TmpDir: r.dirs.tmp}
}

// recordJournal writes, with the journal writer, the CLI lane of a run
// like the real one: an auth status run, then a stream-json process with
// initialize, a stderr line, a prompt whose turn asks can_use_tool and
// writes a file, and an interrupt; it exited 143.
func recordJournal() recorded {
	GinkgoHelper()
	d := newRunDirs()
	path := filepath.Join(d.root, "rec.jsonl")
	w, err := journal.Create(path, journal.Header{Journal: "airwire", Version: journal.Version, Redaction: "off"})
	Expect(err).NotTo(HaveOccurred())
	cli := filepath.Join(d.root, "bin", "claude")
	sub := func(s string) string {
		return strings.NewReplacer("$CWD", d.cwd, "$CONFIG", d.config, "$TMP", d.tmp, "$S", recSession).Replace(s)
	}
	msg := func(proc string, dir journal.Dir, s string) *journal.Entry {
		return &journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: dir, Proc: proc, Msg: json.RawMessage(sub(s))}
	}
	doc := sub(`{"loggedIn":true,"configDirectory":"$CONFIG"}`)
	text := "{\n  \"loggedIn\": true,\n  \"configDirectory\": \"" + d.config + "\"\n}\n"
	stderr := sub("warming up in $TMP/x")
	entries := []*journal.Entry{
		{Kind: journal.KindSpawn, Lane: journal.LaneCLI, Proc: "cli-1", Argv: []string{cli, "auth", "status", "--json"}},
		{Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: journal.DirCLI, Proc: "cli-1", Msg: json.RawMessage(doc), Text: &text},
		{Kind: journal.KindExit, Lane: journal.LaneCLI, Proc: "cli-1", Exit: &journal.Exit{Code: 0}},
		{Kind: journal.KindSpawn, Lane: journal.LaneCLI, Proc: "cli-2", Argv: []string{cli, "--output-format", "stream-json", "--verbose",
			"--input-format", "stream-json", "--session-id=" + recSession}},
		msg("cli-2", journal.DirAgent, `{"request_id":"rec-init","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`),
		{Kind: journal.KindStderr, Lane: journal.LaneCLI, Proc: "cli-2", Text: &stderr},
		msg("cli-2", journal.DirCLI, `{"type":"control_response","response":{"subtype":"success","request_id":"rec-init","response":{"cwd":"$CWD"}}}`),
		msg("cli-2", journal.DirAgent, `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hello"}]},"session_id":"$S","uuid":"u-rec-1"}`),
		msg("cli-2", journal.DirCLI, `{"type":"system","subtype":"init","cwd":"$CWD","session_id":"$S"}`),
		msg("cli-2", journal.DirCLI, `{"type":"command_lifecycle","command_uuid":"u-rec-1","state":"started","session_id":"$S"}`),
		msg("cli-2", journal.DirCLI, `{"type":"control_request","request_id":"cli-req-1","request":{"subtype":"can_use_tool","tool_name":"Write","input":{"file_path":"$CWD/a.txt","content":"A\n"}}}`),
		msg("cli-2", journal.DirAgent, `{"type":"control_response","response":{"subtype":"success","request_id":"cli-req-1","response":{"behavior":"allow"}}}`),
		msg("cli-2", journal.DirCLI, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"parent_tool_use_id":null,"session_id":"$S","uuid":"u-cli-2","tool_use_result":{"type":"create","filePath":"$CWD/a.txt","content":"A\n"}}`),
		msg("cli-2", journal.DirCLI, `{"type":"result","subtype":"success","result":"done","session_id":"$S"}`),
		msg("cli-2", journal.DirAgent, `{"request_id":"rec-int","type":"control_request","request":{"subtype":"interrupt"}}`),
		msg("cli-2", journal.DirCLI, `{"type":"control_response","response":{"subtype":"success","request_id":"rec-int","response":{}}}`),
		{Kind: journal.KindExit, Lane: journal.LaneCLI, Proc: "cli-2", Exit: &journal.Exit{Code: 143}},
		{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirEditor, Proc: "agent", Method: "initialize", Msg: json.RawMessage(`{"jsonrpc":"2.0","id":0,"method":"initialize"}`)},
	}
	for _, e := range entries {
		Expect(w.Append(e)).To(Succeed())
	}
	Expect(w.Close()).To(Succeed())
	return recorded{dirs: d, journal: path}
}

var _ = Describe("FromJournal", func() {
	It("takes every CLI process and run of the journal, in spawn order", func() {
		rec := recordJournal()
		c, err := cassette.FromJournalFile(rec.journal, rec.subs())
		Expect(err).NotTo(HaveOccurred())

		Expect(c.Runs).To(HaveLen(1))
		Expect(c.Runs[0].Argv).To(Equal([]string{"auth", "status", "--json"}))
		Expect(c.Runs[0].Stdout).To(Equal("{\n  \"loggedIn\": true,\n  \"configDirectory\": \"{{config_dir}}\"\n}\n"))

		Expect(c.Processes).To(HaveLen(1))
		p := c.Processes[0]
		Expect(p.Argv).To(ContainElement("--session-id={{session_id_1}}"))
		Expect(p.Exit).To(Equal(&cassette.Exit{Code: 143}))
		var dirs []string
		for _, e := range p.Events {
			dirs = append(dirs, e.Dir)
		}
		Expect(dirs).To(Equal([]string{"agent", "stderr", "cli", "agent", "cli", "cli", "cli", "agent", "cli", "cli", "agent", "cli"}))
		Expect(p.Events[1].Text).To(Equal("warming up in {{tmpdir}}/x"))
		Expect(string(p.Events[4].Msg)).To(Equal(`{"type":"system","subtype":"init","cwd":"{{cwd}}","session_id":"{{session_id_1}}"}`))
		Expect(string(p.Events[5].Msg)).To(ContainSubstring(`"command_uuid":"u-rec-1"`), "ids the recording made up stay verbatim")
	})

	It("leaves no path of the recorded run in the cassette", func() {
		rec := recordJournal()
		c, err := cassette.FromJournalFile(rec.journal, rec.subs())
		Expect(err).NotTo(HaveOccurred())
		var buf bytes.Buffer
		Expect(c.Write(&buf)).To(Succeed())
		Expect(buf.String()).NotTo(ContainSubstring(rec.dirs.root))
		Expect(buf.String()).NotTo(ContainSubstring(recSession))
		Expect(buf.String()).To(ContainSubstring("{{cwd}}/a.txt"))
	})

	It("fails on a journal without a CLI lane", func() {
		_, err := cassette.FromJournal([]journal.Entry{{Seq: 1, Kind: journal.KindMsg, Lane: journal.LaneClient}}, cassette.Substitutions{})
		Expect(err).To(MatchError(cassette.ErrNoCLILane))
	})
})

var _ = Describe("the cassette file", func() {
	It("round-trips", func() {
		rec := recordJournal()
		c, err := cassette.FromJournalFile(rec.journal, rec.subs())
		Expect(err).NotTo(HaveOccurred())
		path := filepath.Join(rec.dirs.root, "c.jsonl")
		Expect(c.Save(path)).To(Succeed())
		back, err := cassette.Load(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(back).To(Equal(c))
		var again bytes.Buffer
		Expect(back.Write(&again)).To(Succeed())
		Expect(os.ReadFile(path)).To(Equal(again.Bytes()))
	})

	DescribeTable("rejects what it cannot read",
		func(text string, want error, msg string) {
			_, err := cassette.Read(strings.NewReader(text))
			Expect(err).To(HaveOccurred())
			if want != nil {
				Expect(errors.Is(err, want)).To(BeTrue(), err.Error())
			}
			Expect(err.Error()).To(ContainSubstring(msg))
		},
		Entry("empty", "", cassette.ErrNotCassette, "empty"),
		Entry("a journal", `{"journal":"airwire","version":1}`, cassette.ErrNotCassette, "header"),
		Entry("another version", `{"cassette":"airwire","version":9}`, cassette.ErrUnsupportedVersion, "version 9"),
		Entry("a bad line", "{\"cassette\":\"airwire\",\"version\":1}\n{nope\n", nil, "cassette line 2"),
		Entry("an event of no process", "{\"cassette\":\"airwire\",\"version\":1}\n{\"proc\":2,\"dir\":\"cli\",\"msg\":{}}\n", nil, "no known process"),
	)
})
