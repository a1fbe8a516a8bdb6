package cassette_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"

	"github.com/airwire/airwire/conform/cassette"
)

// loosePlay is cassette.Play in loose mode, in process, on a golden
// cassette: the test writes agent frames to in and reads out and errOut.
type loosePlay struct {
	in     *io.PipeWriter
	out    *gbytes.Buffer
	errOut *gbytes.Buffer
	done   chan int
	// cliRequests receives each control request the player writes.
	cliRequests chan map[string]any
}

// startLoose plays spawn #spawn of goldens/<golden> with the recorded argv
// of process argvOf (its session id made live), changed by edit.
func startLoose(golden string, spawn, argvOf int, edit func(*cassette.Options)) *loosePlay {
	GinkgoHelper()
	c, err := cassette.Load(filepath.Join("..", "..", "goldens", golden))
	Expect(err).NotTo(HaveOccurred())
	d := newRunDirs()
	var args []string
	for _, a := range c.Processes[argvOf-1].Argv {
		args = append(args, strings.ReplaceAll(a, "{{session_id_1}}", liveSession))
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	lp := &loosePlay{in: inW, out: gbytes.NewBuffer(), errOut: gbytes.NewBuffer(), done: make(chan int, 1), cliRequests: make(chan map[string]any, 64)}
	env := map[string]string{"HOME": d.home, "CLAUDE_CONFIG_DIR": d.config, "TMPDIR": d.tmp}
	o := cassette.Options{Cassette: c, Args: args, In: inR, Out: io.MultiWriter(lp.out, outW), ErrOut: lp.errOut,
		Getenv: func(k string) string { return env[k] }, Cwd: d.cwd, Loose: true, Spawn: func() (int, error) { return spawn, nil }}
	if edit != nil {
		edit(&o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		lp.done <- cassette.Play(ctx, o)
		_ = outW.Close()
		_ = inR.CloseWithError(io.ErrClosedPipe) // a later send fails instead of blocking
	}()
	go lp.readRequests(outR)
	DeferCleanup(func() { cancel(); _ = inW.Close() })
	return lp
}

func (lp *loosePlay) readRequests(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["type"] == "control_request" {
			lp.cliRequests <- m
		}
	}
	_, _ = io.Copy(io.Discard, r)
}

func (lp *loosePlay) send(frame string) {
	GinkgoHelper()
	_, err := fmt.Fprintln(lp.in, frame)
	Expect(err).NotTo(HaveOccurred())
}

// says waits for stdout to show text (in order).
func (lp *loosePlay) says(text string) {
	GinkgoHelper()
	Eventually(lp.out).WithTimeout(5 * time.Second).Should(gbytes.Say(regexp.QuoteMeta(text)))
}

// answerCLI answers the player's next control request as an agent that
// allows everything would, and returns its subtype.
func (lp *loosePlay) answerCLI() string {
	GinkgoHelper()
	var m map[string]any
	Eventually(lp.cliRequests).WithTimeout(5 * time.Second).Should(Receive(&m))
	req, _ := m["request"].(map[string]any)
	body := `{"continue":true}`
	if req["subtype"] == "can_use_tool" {
		input, _ := json.Marshal(req["input"])
		body = `{"behavior":"allow","updatedInput":` + string(input) + `}`
	}
	lp.send(fmt.Sprintf(`{"type":"control_response","response":{"subtype":"success","request_id":%q,"response":%s}}`, m["request_id"], body))
	return req["subtype"].(string)
}

func request(id, subtype, extra string) string {
	return fmt.Sprintf(`{"type":"control_request","request_id":%q,"request":{"subtype":%q%s}}`, id, subtype, extra)
}

func prompt(uuid, text string) string {
	return fmt.Sprintf(`{"type":"user","message":{"role":"user","content":[{"type":"text","text":%q}]},"session_id":%q,"parent_tool_use_id":null,"uuid":%q}`, text, liveSession, uuid)
}

var _ = Describe("the loose player", func() {
	It("plays the next recorded turn for a prompt of another text, under the live uuid", func() {
		lp := startLoose("bash-foreground/zed.cassette", 1, 1, nil)
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.says(`"request_id":"live-init"`)
		lp.send(prompt("u-live-1", "What is in this folder?"))
		lp.says(`"text":"List the files."}]},"session_id":"` + liveSession + `","parent_tool_use_id":null,"uuid":"u-live-1"`)
		Expect(lp.answerCLI()).To(Equal("can_use_tool"))
		Expect(lp.answerCLI()).To(Equal("hook_callback"))
		lp.says(`There are two files: a.ts and b.ts.`)
		lp.says(`"type":"result"`)
		Expect(lp.errOut.Contents()).NotTo(ContainSubstring("synthesized"))
	})

	It("reaches the first turn's result when the agent never sends the recorded set_permission_mode", func() {
		lp := startLoose("edit-with-permission/zed.cassette", 1, 1, nil)
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.send(request("live-settings", "get_settings", ""))
		lp.send(request("live-usage", "get_context_usage", ""))
		lp.says(`"request_id":"live-usage"`)
		lp.send(prompt("u-live-1", "Change the greeting to hello."))
		for _, want := range []string{"hook_callback", "can_use_tool", "hook_callback"} {
			Expect(lp.answerCLI()).To(Equal(want))
		}
		lp.says(`"type":"result"`)
		Expect(string(lp.out.Contents())).NotTo(ContainSubstring("1u12ird69tsi"), "the answer to the skipped set_permission_mode is not played")
		Expect(string(lp.out.Contents())).NotTo(ContainSubstring("nvbv54df7f"), "nor that to the generate_session_title never sent")
	})

	It("plays the answer to a control request the agent sends after the prompt in its recorded place", func() {
		lp := startLoose("compaction-update/plain.cassette", 1, 1, nil)
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.send(request("live-settings", "get_settings", ""))
		lp.send(request("live-usage", "get_context_usage", ""))
		lp.says(`"request_id":"live-usage"`)
		lp.send(prompt("u-live-1", "Start."))
		time.Sleep(100 * time.Millisecond) // the agent asks for a title a little later
		lp.send(request("live-title", "generate_session_title", `,"description":"Start.","persist":true`))
		lp.says(`"type":"result"`)
		out := string(lp.out.Contents())
		title := strings.Index(out, `"request_id":"live-title","response":{"title":"Scripted session title"}`)
		Expect(title).To(BeNumerically(">=", 0), "the recorded title answers the live request")
		Expect(title).To(BeNumerically("<", strings.Index(out, `"type":"result"`)), "before the turn's result, as recorded")
	})

	It("goes on past a recorded control request the agent never sends, after HoldGrace", func() {
		lp := startLoose("compaction-update/plain.cassette", 1, 1, nil)
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.send(request("live-settings", "get_settings", ""))
		lp.send(request("live-usage", "get_context_usage", ""))
		lp.send(prompt("u-live-1", "Start."))
		Consistently(lp.out).WithTimeout(cassette.HoldGrace / 2).ShouldNot(gbytes.Say(`"type":"result"`))
		Eventually(lp.out).WithTimeout(cassette.HoldGrace + 3*time.Second).Should(gbytes.Say(`"type":"result"`))
		Expect(string(lp.out.Contents())).NotTo(ContainSubstring("Scripted session title"), "no answer to a request never sent")
	})

	It("answers a control request the recording does not have with success under the live request id", func() {
		lp := startLoose("bash-foreground/zed.cassette", 1, 1, nil)
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.send(request("m1", "set_model", `,"model":"opus"`))
		lp.says(`{"response":{"request_id":"m1","response":{},"subtype":"success"},"type":"control_response"}`)
		lp.send(prompt("u-live-1", "hi"))
		lp.send(request("m2", "set_permission_mode", `,"mode":"plan"`))
		lp.says(`{"response":{"request_id":"m2","response":{"mode":"plan"},"subtype":"success"},"type":"control_response"}`)
		Consistently(lp.done).WithTimeout(200 * time.Millisecond).ShouldNot(Receive())
	})

	It("answers a prompt past the recording's last with a synthesized turn and notes it", func() {
		lp := startLoose("two-prompts-queued/zed.cassette", 1, 1, nil)
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.send(prompt("u-1", "one"))
		lp.send(prompt("u-2", "two"))
		lp.send(prompt("u-3", "three"))
		lp.says(`"text":"First: list the files."`)
		lp.says(`"text":"Second: count them."`)
		lp.says(`"type":"result"`)
		lp.says(`"isReplay":true,"message":{"content":[{"text":"three","type":"text"}],"role":"user"}`)
		lp.says(`"session_id":"` + liveSession + `"`)
		lp.says(`"uuid":"u-3"`)
		lp.says(`"content":[{"text":"` + cassette.NoMoreTurns + `","type":"text"}]`)
		lp.says(`"model":"claude-opus-5-5"`)
		lp.says(`"result":"` + cassette.NoMoreTurns + `"`)
		Eventually(lp.errOut).Should(gbytes.Say(`fake-cli replay: note: prompt \(agent frame #4\) is past the recording's last prompt; answered with a synthesized turn`))
	})

	It("ends the recorded turn on an interrupt the recording does not have", func() {
		lp := startLoose("bash-foreground/zed.cassette", 1, 1, nil)
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.send(prompt("u-live-1", "List the files."))
		lp.says(`"subtype":"can_use_tool"`)
		lp.send(request("live-int", "interrupt", ""))
		lp.says(`{"request_id":"e054cd09-7ac2-43ee-a272-5d2a0d346a81","type":"control_cancel_request"}`)
		lp.says(`"request_id":"live-int","response":{"still_queued":[]}`)
		lp.says(`"subtype":"error_during_execution"`)
		lp.says(`"state":"completed"`)
		Expect(string(lp.out.Contents())).NotTo(ContainSubstring("There are two files"))
	})

	It("skips a recorded interrupt the agent never sends when it answers the permission instead", func() {
		lp := startLoose("cancel-mid-permission/zed.cassette", 1, 1, nil)
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.send(prompt("u-live-1", "Delete them."))
		Expect(lp.answerCLI()).To(Equal("can_use_tool"))
		lp.says(`"subtype":"error_during_execution"`)
		Expect(string(lp.out.Contents())).NotTo(ContainSubstring("a9bdjjj2lo8"), "the skipped interrupt's answer is not played")
	})

	It("does not time out waiting for the agent", func() {
		lp := startLoose("bash-foreground/zed.cassette", 1, 1, nil)
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.send(request("live-settings", "get_settings", ""))
		lp.send(request("live-usage", "get_context_usage", ""))
		lp.send(request("live-mode", "set_permission_mode", `,"mode":"default"`))
		lp.says(`"request_id":"live-mode"`)
		Consistently(lp.done).WithTimeout(cassette.DefaultTimeout+time.Second).ShouldNot(Receive(), "waiting for the first prompt")
		lp.send(prompt("u-live-1", "late"))
		lp.says(`"uuid":"u-live-1"`)
	})

	It("plays the recorded process for a spawn with other arguments, noting the difference", func() {
		lp := startLoose("bash-foreground/zed.cassette", 1, 1, func(o *cassette.Options) {
			o.Args = append(o.Args, "--model", "opus")
		})
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.says(`"request_id":"live-init"`)
		Eventually(lp.errOut).Should(gbytes.Say(regexp.QuoteMeta("fake-cli replay: note: stream-json spawn #1: the CLI was started with `--model=opus`")))
	})

	It("plays a minimal process for a spawn past the recorded ones", func() {
		lp := startLoose("bash-foreground/zed.cassette", 2, 1, nil)
		lp.send(request("live-init", "initialize", `,"hooks":{}`))
		lp.says(`"request_id":"live-init","response":{"account":`)
		lp.send(prompt("u-live-1", "hello again"))
		lp.says(`"uuid":"u-live-1"`)
		lp.says(`"result":"` + cassette.NoMoreTurns + `"`)
		Eventually(lp.errOut).Should(gbytes.Say(`stream-json spawn #2 is past the recording's 1; playing a minimal process`))
		lp.send(request("live-int", "interrupt", ""))
		lp.says(`"request_id":"live-int"`)
		Expect(lp.in.Close()).To(Succeed())
		Eventually(lp.done).WithTimeout(5 * time.Second).Should(Receive(Equal(143)))
	})
})
