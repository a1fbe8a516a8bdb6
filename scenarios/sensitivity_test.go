package scenarios_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/scenario"
)

// The sensitivity checks inject into the adapter under test the regressions
// that the suite once missed (issue 12, "Sensitivity"), and require that a
// named run fails on them, at the right place. The adapter is wrapped by
// this test binary itself (mutatingAgent): it runs the adapter and rewrites
// its stdout, line by line, as a regressed adapter would have written it.
var _ = Describe("Sensitivity", Label("mutation", "sensitivity", "profile:air", "lane:client"), func() {
	BeforeEach(func() {
		if golden.UpdateRequested() {
			Skip("goldens are being recorded (-update)")
		}
		if *liveFlag {
			Skip("the sensitivity checks replay the recorded CLI")
		}
	})

	It("fails tool-progress/air when the adapter scales the elapsedTimeSeconds the CLI reported", Label("Tool call contract"), func(ctx SpecContext) {
		sc := findScenario("tool-progress")
		g := golden.New(goldensDir, golden.WithUpdate(false))
		want, err := os.ReadFile(g.File(conform.GoldenName(sc, scenario.ProfileAir)))
		Expect(err).NotTo(HaveOccurred())
		// The scenario scripts 5 and 10; the golden keeps them.
		Expect(string(want)).To(ContainSubstring(`"elapsedTimeSeconds":5}`))

		o := runOptions(sc, scenario.ProfileAir)
		o.Agent = mutatingAgent("none", o.Agent)
		_, err = conform.Check(ctx, o, g, false)
		Expect(err).NotTo(HaveOccurred(), "the wrapper alone must change nothing")

		o.Agent = mutatingAgent(mutateScaleElapsed, runOptions(sc, scenario.ProfileAir).Agent)
		_, err = conform.Check(ctx, o, g, false)
		var mm *golden.MismatchError
		Expect(errors.As(err, &mm)).To(BeTrue(), "want a golden mismatch, got %v", err)
		AddReportEntry("first difference", mm.Error())
		Expect(mm.File).To(HaveSuffix(filepath.FromSlash("tool-progress/air.golden")))
		Expect(mm.Kind).To(Equal(golden.Changed))
		Expect(mm.Path).To(Equal("$.params.update._meta.claudeCode.toolResponse.elapsedTimeSeconds"))
		Expect(mm.Want).To(Equal("5"))
		Expect(mm.Got).To(Equal(`"<duration>"`), "5000 is no duration the CLI wrote")
	}, NodeTimeout(*timeoutFlag))

	It("fails session-list-paging/air when the adapter lists rows that differ only in id in reverse order", Label("Session index > List response"), func(ctx SpecContext) {
		sc := findScenario("session-list-paging")
		dir := GinkgoT().TempDir()
		copyCassette(sc, dir, nil)
		copyFile(filepath.Join(goldensDir, conform.KnownFindingsFile), filepath.Join(dir, conform.KnownFindingsFile))
		agent := runOptions(sc, scenario.ProfileAir).Agent

		// Record the run of an adapter whose listed rows differ only in
		// their ids (every other field as the first row's), then replay it.
		o := runOptions(sc, scenario.ProfileAir)
		o.Agent = mutatingAgent(mutateSameRows, agent)
		_, err := conform.Check(ctx, o, golden.New(dir, golden.WithUpdate(true)), false)
		Expect(err).NotTo(HaveOccurred())
		g := golden.New(dir, golden.WithUpdate(false))
		recorded, err := os.ReadFile(g.File(conform.GoldenName(sc, scenario.ProfileAir)))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(recorded)).To(ContainSubstring(`"sessionId":"<session-5>","title":"Fifth task"`))
		Expect(string(recorded)).To(ContainSubstring(`"sessionId":"<session-4>","title":"Fifth task"`))
		_, err = conform.Check(ctx, o, g, false)
		Expect(err).NotTo(HaveOccurred(), "the same adapter must match its own recording")

		// The same adapter listing each page's rows in reverse order.
		o.Agent = mutatingAgent(mutateSameRows+","+mutateReverseRows, agent)
		_, err = conform.Check(ctx, o, g, false)
		var mm *golden.MismatchError
		Expect(errors.As(err, &mm)).To(BeTrue(), "want a golden mismatch, got %v", err)
		AddReportEntry("first difference", mm.Error())
		Expect(mm.File).To(HaveSuffix(filepath.FromSlash("session-list-paging/air.golden")))
		Expect(mm.Kind).To(Equal(golden.Moved))
		Expect(mm.Path).To(HavePrefix("$.result.sessions["))
		Expect(mm.Error()).To(ContainSubstring("at JSON path $.result.sessions["))
		Expect(mm.Error()).To(ContainSubstring(": moved: "))
	}, NodeTimeout(*timeoutFlag))

	It("fails exit-plan-clear-context/air when the clear-context updates come in another order", Label("Permission presentation > Permission modes"), func(ctx SpecContext) {
		sc := findScenario("exit-plan-clear-context")
		g := golden.New(goldensDir, golden.WithUpdate(false))
		want, err := os.ReadFile(g.File(conform.GoldenName(sc, scenario.ProfileAir)))
		Expect(err).NotTo(HaveOccurred())
		// The fresh context's state, in the reference's order: the mode,
		// the config options, the empty context.
		Expect(string(want)).To(MatchRegexp(`"currentModeId":"auto","sessionUpdate":"current_mode_update"\}\}\}\n` +
			`client agent->editor [^\n]*"currentValue":"auto"[^\n]*"sessionUpdate":"config_option_update"[^\n]*\n` +
			`client agent->editor [^\n]*"sessionUpdate":"usage_update","size":1000000,"used":0\}`))

		o := runOptions(sc, scenario.ProfileAir)
		o.Agent = mutatingAgent("none", o.Agent)
		_, err = conform.Check(ctx, o, g, false)
		Expect(err).NotTo(HaveOccurred(), "the wrapper alone must change nothing")

		o.Agent = mutatingAgent(mutateModeLate, runOptions(sc, scenario.ProfileAir).Agent)
		_, err = conform.Check(ctx, o, g, false)
		var mm *golden.MismatchError
		Expect(errors.As(err, &mm)).To(BeTrue(), "want a golden mismatch, got %v", err)
		AddReportEntry("first difference", mm.Error())
		Expect(mm.File).To(HaveSuffix(filepath.FromSlash("exit-plan-clear-context/air.golden")))
		const modeUpdate = `"currentModeId":"auto","sessionUpdate":"current_mode_update"`
		modeLine := 1 + strings.Count(string(want)[:strings.Index(string(want), modeUpdate)], "\n")
		Expect(mm.Kind).To(Equal(golden.Moved))
		Expect(mm.Path).To(BeEmpty(), "the whole line moved: no JSON path inside it differs")
		Expect(mm.Tag).To(Equal("client agent->editor"))
		Expect(mm.Line).To(Equal(modeLine), "the mode update's golden line")
		Expect(mm.GotLine).To(Equal(modeLine+1), "it comes after the config options")
		Expect(mm.Want).To(ContainSubstring(modeUpdate))
		Expect(mm.Error()).To(ContainSubstring(fmt.Sprintf("first difference on line %d (client agent->editor): moved: it is line %d of the actual transcript", modeLine, modeLine+1)))
	}, NodeTimeout(*timeoutFlag))

	It("names the step that sent an async prompt whose response fails at awaitAll", Label("Tool call contract"), func(ctx SpecContext) {
		orig := findScenario("two-prompts-queued")
		sc := *orig
		sc.Client.Steps = slices.Clone(orig.Client.Steps)
		Expect(sc.Client.Steps[2].Prompt).NotTo(BeNil())
		Expect(sc.Client.Steps[3].AwaitAll).To(BeTrue())
		p := *sc.Client.Steps[2].Prompt
		p.StopReason = "max_tokens" // the recorded turn ends with end_turn
		sc.Client.Steps[2].Prompt = &p

		_, err := conform.Check(ctx, runOptions(&sc, scenario.ProfileAir), golden.New(goldensDir, golden.WithUpdate(false)), false)
		Expect(err).To(HaveOccurred())
		AddReportEntry("error", err.Error())
		Expect(err.Error()).To(ContainSubstring("client.steps[3] (awaitAll): client.steps[2] (async session/prompt"))
		Expect(err.Error()).To(ContainSubstring("max_tokens"))
	}, NodeTimeout(*timeoutFlag))
})

func copyFile(src, dst string) {
	b, err := os.ReadFile(src)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	Expect(err).NotTo(HaveOccurred())
	Expect(os.WriteFile(dst, b, 0o644)).To(Succeed())
}

// The regressions mutatingAgent injects (comma-separated).
const (
	// mutateScaleElapsed multiplies every elapsedTimeSeconds by 1000.
	mutateScaleElapsed = "scale-elapsed"
	// mutateSameRows gives every row of a listed page (result.sessions) the
	// fields of the page's first row, except its sessionId.
	mutateSameRows = "same-rows"
	// mutateReverseRows reverses every listed page.
	mutateReverseRows = "reverse-rows"
	// mutateModeLate sends each current_mode_update after the line that
	// follows it (for a clear-context restart: after the config options).
	mutateModeLate = "mode-late"
	// mutateArg makes this test binary the mutating wrapper.
	mutateArg = "--airwire-mutating-agent"
)

// mutatingAgent is the argv of a wrapper around agent that rewrites its
// stdout with the mutations named in modes.
func mutatingAgent(modes string, agent []string) []string {
	self, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	return append([]string{self, mutateArg, modes}, agent...)
}

func init() {
	if len(os.Args) > 3 && os.Args[1] == mutateArg {
		os.Exit(runMutating(strings.Split(os.Args[2], ","), os.Args[3:]))
	}
}

// runMutating runs agent with this process's stdin and stderr, and copies
// its stdout line by line, mutated; it returns the agent's exit code.
func runMutating(modes, agent []string) int {
	cmd := exec.Command(agent[0], agent[1:]...)
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		os.Stderr.WriteString("mutating agent: " + err.Error() + "\n")
		return 127
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	r := bufio.NewReader(out)
	var held []byte // a line sent after the next one (mutateModeLate)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			line = mutateLine(modes, line)
			if held == nil && slices.Contains(modes, mutateModeLate) && isUpdate(line, "current_mode_update") {
				held = line
				continue
			}
			_, _ = os.Stdout.Write(line)
			if held != nil {
				_, _ = os.Stdout.Write(held)
				held = nil
			}
		}
		if err != nil {
			break
		}
	}
	_, _ = os.Stdout.Write(held)
	var exit *exec.ExitError
	if err := cmd.Wait(); errors.As(err, &exit) {
		return exit.ExitCode()
	}
	return 0
}

// mutateLine applies modes to one JSON-RPC line; a line it does not change
// is returned as it is.
func mutateLine(modes []string, line []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return line
	}
	changed := false
	for _, mode := range modes {
		switch mode {
		case mutateScaleElapsed:
			changed = scaleElapsed(m) || changed
		case mutateSameRows, mutateReverseRows:
			changed = mutateRows(m, mode) || changed
		}
	}
	if !changed {
		return line
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(m) != nil {
		return line
	}
	return buf.Bytes()
}

// isUpdate reports whether line is a session/update of kind.
func isUpdate(line []byte, kind string) bool {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
			} `json:"update"`
		} `json:"params"`
	}
	return json.Unmarshal(line, &m) == nil && m.Method == "session/update" && m.Params.Update.SessionUpdate == kind
}

// scaleElapsed multiplies every number under an elapsedTimeSeconds key in v
// by 1000.
func scaleElapsed(v any) bool {
	changed := false
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if n, ok := e.(json.Number); ok && k == "elapsedTimeSeconds" {
				f, _ := strconv.ParseFloat(string(n), 64)
				t[k] = json.Number(strconv.FormatFloat(f*1000, 'f', -1, 64))
				changed = true
				continue
			}
			changed = scaleElapsed(e) || changed
		}
	case []any:
		for _, e := range t {
			changed = scaleElapsed(e) || changed
		}
	}
	return changed
}

// mutateRows applies a row mutation to a response's result.sessions.
func mutateRows(m map[string]any, mode string) bool {
	result, _ := m["result"].(map[string]any)
	rows, _ := result["sessions"].([]any)
	if len(rows) < 2 {
		return false
	}
	if mode == mutateReverseRows {
		slices.Reverse(rows)
		return true
	}
	first, _ := rows[0].(map[string]any)
	for i, r := range rows {
		row, _ := r.(map[string]any)
		same := make(map[string]any, len(first))
		for k, v := range first {
			same[k] = v
		}
		same["sessionId"] = row["sessionId"]
		rows[i] = same
	}
	return true
}
