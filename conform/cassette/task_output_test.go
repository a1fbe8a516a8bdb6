package cassette_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/journal"
)

// The output file of a command Claude Code ran in the background is part
// of what an adapter reads, so a cassette keeps it and the player writes
// it back, where the task ends.
var _ = Describe("a background command's output file", func() {
	const session = "bbbbbbbb-1111-2222-3333-444444444444"
	// backgroundRun is the CLI lane of a run whose Bash command went on
	// in the background and ended, with its output file under tmp.
	backgroundRun := func(d runDirs, shown string) []journal.Entry {
		out := filepath.Join(d.tmp, "claude-0", "tasks", "b1a2c3d4e.output")
		Expect(os.MkdirAll(filepath.Dir(out), 0o755)).To(Succeed())
		Expect(os.WriteFile(out, []byte("served\n\n[exited with code 0]\n"), 0o644)).To(Succeed())
		seq := uint64(0)
		msg := func(dir journal.Dir, s string) journal.Entry {
			seq++
			return journal.Entry{Seq: seq, Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: dir, Proc: "cli-1",
				Msg: json.RawMessage(strings.ReplaceAll(s, "$OUT", out))}
		}
		entries := []journal.Entry{
			{Seq: 0, Kind: journal.KindSpawn, Lane: journal.LaneCLI, Proc: "cli-1",
				Argv: []string{"claude", "--output-format", "stream-json", "--input-format", "stream-json", "--session-id=" + session}},
			msg(journal.DirCLI, `{"type":"system","subtype":"task_started","task_id":"b1a2c3d4e","tool_use_id":"toolu_bash","task_type":"local_bash"}`),
			msg(journal.DirCLI, `{"type":"system","subtype":"task_started","task_id":"a1a2c3d4e","tool_use_id":"toolu_agent","task_type":"local_agent"}`),
			msg(journal.DirCLI, `{"type":"system","subtype":"task_updated","task_id":"b1a2c3d4e","patch":{"status":"completed"}}`),
			msg(journal.DirCLI, `{"type":"system","subtype":"task_notification","task_id":"b1a2c3d4e","tool_use_id":"toolu_bash","status":"completed","output_file":"$OUT"}`),
			msg(journal.DirCLI, `{"type":"system","subtype":"task_notification","task_id":"a1a2c3d4e","tool_use_id":"toolu_agent","status":"completed","output_file":"$OUT"}`),
		}
		if shown != "" {
			data := base64.StdEncoding.EncodeToString([]byte(shown))
			entries = append(entries, journal.Entry{Seq: 99, Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirAgent, Proc: "agent",
				Msg: json.RawMessage(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"x","update":{"sessionUpdate":"terminal_update","terminalId":"toolu_bash","output":{"data":"` + data + `"}}}}`)})
		}
		return entries
	}
	subs := func(d runDirs) cassette.Substitutions {
		return cassette.Substitutions{Cwd: d.cwd, Home: d.home, ConfigDir: d.config, TmpDir: d.tmp, TaskOutputs: true}
	}
	files := func(c *cassette.Cassette) (out []cassette.Event) {
		for _, e := range c.Processes[0].Events {
			if e.Dir == cassette.DirFile {
				out = append(out, e)
			}
		}
		return out
	}

	It("keeps what the adapter showed of it, before the frame that ended the task, with placeholders", func() {
		d := newRunDirs()
		c, err := cassette.FromJournal(backgroundRun(d, "served\n"), subs(d))
		Expect(err).NotTo(HaveOccurred())
		Expect(files(c)).To(Equal([]cassette.Event{{Dir: cassette.DirFile, Path: "{{tmpdir}}/claude-0/tasks/b1a2c3d4e.output", Text: "served\n"}}),
			"only the command's file, as read; not the subagent's")
		Expect(c.Processes[0].Events[2].Dir).To(Equal(cassette.DirFile), "before the task_updated that ended the task")
	})

	It("keeps the file as it is when no adapter showed it, and only when asked", func() {
		d := newRunDirs()
		c, err := cassette.FromJournal(backgroundRun(d, ""), subs(d))
		Expect(err).NotTo(HaveOccurred())
		Expect(files(c)).To(HaveLen(1))
		Expect(files(c)[0].Text).To(Equal("served\n\n[exited with code 0]\n"))
		plain := subs(d)
		plain.TaskOutputs = false
		c, err = cassette.FromJournal(backgroundRun(d, ""), plain)
		Expect(err).NotTo(HaveOccurred())
		Expect(files(c)).To(BeEmpty(), "a journal read later may name files that are gone or changed")
	})

	It("round-trips, and the player writes it under its own TMPDIR when it gets there", func() {
		d := newRunDirs()
		c, err := cassette.FromJournal(backgroundRun(d, "served\n"), subs(d))
		Expect(err).NotTo(HaveOccurred())
		path := filepath.Join(GinkgoT().TempDir(), "c.jsonl")
		Expect(c.Save(path)).To(Succeed())
		back, err := cassette.Load(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(back.Processes).To(Equal(c.Processes))

		p := startPlayer(path, nil, "--output-format", "stream-json", "--input-format", "stream-json", "--session-id="+session)
		p.says(`"subtype":"task_notification"`)
		written := filepath.Join(p.dirs.tmp, "claude-0", "tasks", "b1a2c3d4e.output")
		Eventually(func() (string, error) { b, err := os.ReadFile(written); return string(b), err }).
			WithTimeout(5 * time.Second).Should(Equal("served\n"))
	})
})
