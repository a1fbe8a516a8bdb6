package cassette_test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"
	"github.com/onsi/gomega/gexec"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/projectdir"
)

const liveSession = "bbbbbbbb-5555-6666-7777-888888888888"

var streamArgs = []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--session-id=" + liveSession}

// player is `airwire fake-cli --replay` run as a process in its own
// directories (not the recorded ones).
type player struct {
	dirs  runDirs
	stdin io.WriteCloser
	s     *gexec.Session
}

// savedCassette records the synthetic journal and saves its cassette.
func savedCassette() string {
	GinkgoHelper()
	rec := recordJournal()
	c, err := cassette.FromJournalFile(rec.journal, rec.subs())
	Expect(err).NotTo(HaveOccurred())
	path := filepath.Join(GinkgoT().TempDir(), "c.cassette.jsonl")
	Expect(c.Save(path)).To(Succeed())
	return path
}

func startPlayer(cpath string, env []string, args ...string) *player {
	GinkgoHelper()
	p := &player{dirs: newRunDirs()}
	cmd := exec.Command(airwireBin, append([]string{"fake-cli", "--replay", cpath}, args...)...)
	cmd.Dir = p.dirs.cwd
	cmd.Env = p.dirs.env(append([]string{cassette.EnvReplayState + "=" + filepath.Join(p.dirs.root, "spawns")}, env...)...)
	var err error
	p.stdin, err = cmd.StdinPipe()
	Expect(err).NotTo(HaveOccurred())
	p.s, err = gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _ = p.stdin.Close(); p.s.Kill().Wait(5 * time.Second) })
	return p
}

func (p *player) send(frame string) {
	GinkgoHelper()
	_, err := fmt.Fprintln(p.stdin, frame)
	Expect(err).NotTo(HaveOccurred())
}

// says waits for stdout to show text (in order).
func (p *player) says(text string) {
	GinkgoHelper()
	Eventually(p.s.Out).WithTimeout(5 * time.Second).Should(gbytes.Say(regexp.QuoteMeta(text)))
}

var _ = Describe("the player", func() {
	It("plays the recording with the live directories, session id and request ids", func() {
		p := startPlayer(savedCassette(), nil, streamArgs...)
		p.send(`{"request_id":"live-init","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)
		p.says(`"request_id":"live-init","response":{"cwd":"` + p.dirs.cwd + `"}`)
		Eventually(p.s.Err).Should(gbytes.Say(regexp.QuoteMeta("warming up in " + p.dirs.tmp + "/x")))

		p.send(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hello"}]},"session_id":"` + liveSession + `","uuid":"u-live-1"}`)
		p.says(`{"type":"system","subtype":"init","cwd":"` + p.dirs.cwd + `","session_id":"` + liveSession + `"}`)
		p.says(`"command_uuid":"u-live-1"`)
		p.says(`"request_id":"cli-req-1"`)
		p.says(`"file_path":"` + p.dirs.cwd + `/a.txt"`)
		Consistently(p.s.Out).WithTimeout(200*time.Millisecond).ShouldNot(gbytes.Say(`tool_result`), "the tool result waits for the permission answer")

		p.send(`{"type":"control_response","response":{"subtype":"success","request_id":"cli-req-1","response":{"behavior":"allow"}}}`)
		p.says(`"type":"tool_result"`)
		p.says(`"type":"result"`)
		Expect(os.ReadFile(filepath.Join(p.dirs.cwd, "a.txt"))).To(Equal([]byte("A\n")))
		transcript := filepath.Join(p.dirs.config, "projects", projectdir.Name(p.dirs.cwd), liveSession+".jsonl")
		Expect(os.ReadFile(transcript)).To(ContainSubstring(`"text":"hello"`))

		p.send(`{"request_id":"live-int","type":"control_request","request":{"subtype":"interrupt"}}`)
		p.says(`"request_id":"live-int"`)
		Expect(p.stdin.Close()).To(Succeed())
		Eventually(p.s).WithTimeout(5*time.Second).Should(gexec.Exit(143), "stdin EOF ends it with the recorded exit code")
	})

	It("accepts independent agent frames in another order", func() {
		p := startPlayer(savedCassette(), nil, streamArgs...)
		p.send(`{"request_id":"live-init","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)
		p.send(`{"request_id":"early-int","type":"control_request","request":{"subtype":"interrupt"}}`)
		p.send(`{"type":"user","message":{"role":"user","content":"hello"},"session_id":"` + liveSession + `","uuid":"u-live-1"}`)
		p.says(`"request_id":"cli-req-1"`)
		Expect(p.s.Out.Contents()).NotTo(ContainSubstring("early-int"), "its answer keeps its recorded place")
		p.send(`{"type":"control_response","response":{"subtype":"success","request_id":"cli-req-1","response":{"behavior":"allow"}}}`)
		p.says(`"type":"result"`)
		p.says(`"request_id":"early-int"`)
	})

	It("refuses a control request the recording does not have: the cassette does not apply", func() {
		p := startPlayer(savedCassette(), nil, streamArgs...)
		p.send(`{"request_id":"live-init","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)
		p.send(`{"request_id":"m1","type":"control_request","request":{"subtype":"set_model","model":"opus"}}`)
		Eventually(p.s).WithTimeout(5 * time.Second).Should(gexec.Exit(cassette.ExitNotApplicable))
		Expect(p.s.Err).To(gbytes.Say(regexp.QuoteMeta(cassette.NotApplicable + `the adapter sent control request "control_request/set_model" (frame #2), which the recording does not have here; it expected one of: "user:hello", "control_response/cli-req-1", "control_request/interrupt"`)))
	})

	It("fails on an interrupt the recording does not have without refusing the cassette", func() {
		p := startPlayer(savedCassette(), nil, streamArgs...)
		p.send(`{"request_id":"live-init","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)
		p.send(`{"request_id":"i1","type":"control_request","request":{"subtype":"interrupt"}}`)
		p.send(`{"request_id":"i2","type":"control_request","request":{"subtype":"interrupt"}}`)
		Eventually(p.s).WithTimeout(5 * time.Second).Should(gexec.Exit(cassette.ExitUnexpected))
		Expect(string(p.s.Err.Contents())).NotTo(ContainSubstring(cassette.NotApplicable))
	})

	It("fails on a prompt text the recording does not have", func() {
		p := startPlayer(savedCassette(), nil, streamArgs...)
		p.send(`{"type":"user","message":{"role":"user","content":"bye"},"session_id":"` + liveSession + `"}`)
		Eventually(p.s).WithTimeout(5 * time.Second).Should(gexec.Exit(cassette.ExitUnexpected))
		Expect(p.s.Err).To(gbytes.Say(regexp.QuoteMeta(`frame #1: "user:bye"`)))
	})

	It("fails when the agent does not send what the recording needs", func() {
		p := startPlayer(savedCassette(), []string{cassette.EnvReplayTimeout + "=300ms"}, streamArgs...)
		p.send(`{"request_id":"live-init","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)
		Eventually(p.s).WithTimeout(5 * time.Second).Should(gexec.Exit(cassette.ExitTimeout))
		Expect(p.s.Err).To(gbytes.Say(regexp.QuoteMeta(`fake-cli replay: timed out after 300ms waiting for agent→cli frame "user:hello"`)))
	})

	It("refuses a spawn whose arguments differ from the recording, naming the argument", func() {
		args := append(append([]string(nil), streamArgs...), "--permission-mode=default")
		p := startPlayer(savedCassette(), nil, args...)
		Eventually(p.s).WithTimeout(5 * time.Second).Should(gexec.Exit(cassette.ExitNotApplicable))
		Expect(p.s.Err).To(gbytes.Say(regexp.QuoteMeta(cassette.NotApplicable +
			"stream-json spawn #1: the CLI was started with `--permission-mode=default`, which the recording does not have")))
		Expect(p.s.Out.Contents()).To(BeEmpty(), "nothing is replayed")
	})

	It("ends on its own, with its status, where the recorded CLI failed alone", func() {
		resume := []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--resume=" + liveSession}
		c := &cassette.Cassette{Processes: []cassette.Process{{
			Argv: []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--resume={{session_id_1}}"},
			Events: []cassette.Event{
				{Dir: cassette.DirAgent, Msg: json.RawMessage(`{"request_id":"r1","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)},
				{Dir: cassette.DirStderr, Text: "No conversation found with session ID: {{session_id_1}}"},
			},
			Exit: &cassette.Exit{Code: 1},
		}}}
		path := filepath.Join(GinkgoT().TempDir(), "alone.cassette.jsonl")
		Expect(c.Save(path)).To(Succeed())
		p := startPlayer(path, nil, resume...)
		p.send(`{"request_id":"live-init","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)
		Eventually(p.s).WithTimeout(5*time.Second).Should(gexec.Exit(1), "stdin still open: the recorded CLI ended by itself")
		Expect(p.s.Err).To(gbytes.Say(regexp.QuoteMeta("No conversation found with session ID: " + liveSession)))
	})

	It("exits promptly on SIGTERM", func() {
		p := startPlayer(savedCassette(), nil, streamArgs...)
		p.send(`{"request_id":"live-init","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)
		p.says(`"request_id":"live-init"`)
		p.s.Signal(syscall.SIGTERM)
		Eventually(p.s).WithTimeout(2*time.Second).Should(gexec.Exit(143), "the recorded exit code")
	})

	It("answers auth status from the recorded document", func() {
		p := startPlayer(savedCassette(), nil, "auth", "status", "--json")
		Eventually(p.s).WithTimeout(5 * time.Second).Should(gexec.Exit(0))
		Expect(string(p.s.Out.Contents())).To(Equal("{\n  \"loggedIn\": true,\n  \"configDirectory\": \"" + p.dirs.config + "\"\n}\n"))
	})

	It("answers each auth status with the recorded run in its place, the last one past them", func() {
		cpath := savedCassette()
		c, err := cassette.Load(cpath)
		Expect(err).NotTo(HaveOccurred())
		c.Runs = append(c.Runs, cassette.Run{Argv: []string{"auth", "status", "--json"}, Stdout: "{\"second\": true}\n"})
		Expect(c.Save(cpath)).To(Succeed())
		state := filepath.Join(GinkgoT().TempDir(), "spawns")
		var outs []string
		for range 3 {
			p := startPlayer(cpath, []string{cassette.EnvReplayState + "=" + state}, "auth", "status", "--json")
			Eventually(p.s).WithTimeout(5 * time.Second).Should(gexec.Exit(0))
			outs = append(outs, string(p.s.Out.Contents()))
		}
		Expect(outs[0]).To(ContainSubstring(`"loggedIn": true`))
		Expect(outs[1:]).To(Equal([]string{"{\"second\": true}\n", "{\"second\": true}\n"}))
	})

	It("fails on a run the cassette does not have", func() {
		p := startPlayer(savedCassette(), nil, "--version")
		Eventually(p.s).WithTimeout(5 * time.Second).Should(gexec.Exit(cassette.ExitNotApplicable))
		Expect(p.s.Err).To(gbytes.Say(regexp.QuoteMeta(cassette.NotApplicable + `the CLI was run with ["--version"], which the recording never ran`)))
	})

	It("reads the cassette from AIRWIRE_FAKE_CLI_REPLAY and counts stream-json spawns", func() {
		cpath := savedCassette()
		state := filepath.Join(GinkgoT().TempDir(), "spawns")
		env := []string{cassette.EnvReplayState + "=" + state}
		first := startEnvPlayer(cpath, env)
		first.send(`{"request_id":"a","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)
		first.says(`"request_id":"a"`)
		second := startEnvPlayer(cpath, env)
		Eventually(second.s).WithTimeout(5 * time.Second).Should(gexec.Exit(cassette.ExitNotApplicable))
		Expect(second.s.Err).To(gbytes.Say(regexp.QuoteMeta(cassette.NotApplicable + `stream-json spawn #2, but the recording has 1`)))
	})
})

// startEnvPlayer starts `airwire fake-cli ARGS` with the cassette named by
// the environment instead of --replay.
func startEnvPlayer(cpath string, env []string) *player {
	GinkgoHelper()
	p := &player{dirs: newRunDirs()}
	cmd := exec.Command(airwireBin, append([]string{"fake-cli"}, streamArgs...)...)
	cmd.Dir = p.dirs.cwd
	cmd.Env = p.dirs.env(append(env, cassette.EnvReplay+"="+cpath)...)
	var err error
	p.stdin, err = cmd.StdinPipe()
	Expect(err).NotTo(HaveOccurred())
	p.s, err = gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _ = p.stdin.Close(); p.s.Kill().Wait(5 * time.Second) })
	return p
}

var _ = Describe("session ids across processes", func() {
	It("numbers each recorded session id and binds it to the live one by flag", func() {
		const s1, s2 = "11111111-0000-0000-0000-000000000001", "22222222-0000-0000-0000-000000000002"
		msg := func(seq uint64, proc string, dir journal.Dir, s string) journal.Entry {
			return journal.Entry{Seq: seq, Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: dir, Proc: proc, Msg: json.RawMessage(s)}
		}
		spawn := func(seq uint64, proc string, args ...string) journal.Entry {
			argv := append([]string{"claude", "--output-format", "stream-json", "--input-format", "stream-json", "--verbose"}, args...)
			return journal.Entry{Seq: seq, Kind: journal.KindSpawn, Lane: journal.LaneCLI, Proc: proc, Argv: argv}
		}
		c, err := cassette.FromJournal([]journal.Entry{
			spawn(1, "cli-1", "--session-id", s1),
			msg(2, "cli-1", journal.DirCLI, `{"type":"system","subtype":"init","session_id":"`+s1+`"}`),
			spawn(3, "cli-2", "--resume="+s1, "--fork-session", "--session-id="+s2),
			msg(4, "cli-2", journal.DirCLI, `{"type":"system","subtype":"init","session_id":"`+s2+`","forked_from":"`+s1+`"}`),
		}, cassette.Substitutions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Processes[1].Argv[5:]).To(Equal([]string{"--resume={{session_id_1}}", "--fork-session", "--session-id={{session_id_2}}"}))
		path := filepath.Join(GinkgoT().TempDir(), "c.jsonl")
		Expect(c.Save(path)).To(Succeed())

		state := filepath.Join(GinkgoT().TempDir(), "spawns")
		Expect(os.WriteFile(state, []byte("1\n"), 0o600)).To(Succeed()) // the first spawn happened
		p := startPlayer(path, []string{cassette.EnvReplayState + "=" + state},
			"--output-format", "stream-json", "--input-format", "stream-json", "--verbose", "--resume", "live-1", "--fork-session", "--session-id", "live-2")
		p.says(`{"type":"system","subtype":"init","session_id":"live-2","forked_from":"live-1"}`)
	})
})

var _ = Describe("the model API's address", func() {
	It("is recorded as {{model_api}} and played as the replaying run's, or as the one the agent names when the run gives none", func() {
		const recorded, live = "127.0.0.1:41234", "127.0.0.1:50505"
		settings := func(addr string) string { return `{"env":{"ANTHROPIC_BASE_URL":"http://` + addr + `"}}` }
		c, err := cassette.FromJournal([]journal.Entry{
			{Seq: 1, Kind: journal.KindSpawn, Lane: journal.LaneCLI, Proc: "cli-1",
				Argv: append([]string{"claude"}, append(append([]string(nil), streamArgs...), "--settings", settings(recorded))...)},
			{Seq: 2, Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: journal.DirAgent, Proc: "cli-1",
				Msg: json.RawMessage(`{"request_id":"r1","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)},
			{Seq: 3, Kind: journal.KindMsg, Lane: journal.LaneCLI, Dir: journal.DirCLI, Proc: "cli-1",
				Msg: json.RawMessage(`{"type":"system","subtype":"notice","text":"requests go through ` + recorded + `"}`)},
		}, cassette.Substitutions{ModelAPI: recorded})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Processes[0].Argv).To(ContainElement(settings(cassette.PlaceholderModelAPI)))
		path := filepath.Join(GinkgoT().TempDir(), "c.jsonl")
		Expect(c.Save(path)).To(Succeed())
		Expect(os.ReadFile(path)).NotTo(ContainSubstring(recorded))

		args := append(append([]string(nil), streamArgs...), "--settings", settings(live))
		p := startPlayer(path, []string{cassette.EnvModelAPI + "=" + live}, args...)
		p.send(`{"request_id":"live-init","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)
		p.says(`"text":"requests go through ` + live + `"`)

		other := startPlayer(path, []string{cassette.EnvModelAPI + "=127.0.0.1:60606"}, args...)
		Eventually(other.s).WithTimeout(5*time.Second).Should(gexec.Exit(cassette.ExitNotApplicable), "the argument names another address than the run's")

		named := "127.0.0.1:43210"
		unsaid := startPlayer(path, nil, append(append([]string(nil), streamArgs...), "--settings", settings(named))...)
		unsaid.send(`{"request_id":"live-init","type":"control_request","request":{"subtype":"initialize","hooks":{}}}`)
		unsaid.says(`"text":"requests go through ` + named + `"`)
	})
})
