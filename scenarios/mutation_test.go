package scenarios_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/execwrap"
)

// The mutation checks prove that the comparison catches what it must: a
// changed golden field, an adapter → CLI exchange that did not happen, and a
// validator error on the agent's side that no known deviation covers.
// They never write goldens.
var _ = Describe("Mutation", Label("mutation", "profile:air", "lane:client", "lane:cli"), func() {
	BeforeEach(func() {
		if golden.UpdateRequested() {
			Skip("goldens are being recorded (-update)")
		}
	})

	It("fails a scenario whose golden has one field changed, naming its JSON path", Label("Tool call contract"), func(ctx SpecContext) {
		sc := findScenario("bash-foreground")
		want, err := os.ReadFile(golden.New(goldensDir).File(conform.GoldenName(sc, scenario.ProfileAir)))
		Expect(err).NotTo(HaveOccurred())
		const from, to = `"stopReason":"end_turn"`, `"stopReason":"max_tokens"`
		Expect(string(want)).To(ContainSubstring(from))
		dir := GinkgoT().TempDir()
		g := golden.New(dir, golden.WithUpdate(false))
		file := g.File(conform.GoldenName(sc, scenario.ProfileAir))
		Expect(os.MkdirAll(filepath.Dir(file), 0o755)).To(Succeed())
		Expect(os.WriteFile(file, []byte(strings.Replace(string(want), from, to, 1)), 0o644)).To(Succeed())
		copyCassette(sc, dir, nil)

		_, err = conform.Check(ctx, runOptions(sc, scenario.ProfileAir), g, false)
		var mm *golden.MismatchError
		Expect(errors.As(err, &mm)).To(BeTrue(), "want a golden mismatch, got %v", err)
		Expect(mm.Path).To(Equal("$.result.stopReason"))
		Expect(mm.Want).To(Equal(`"max_tokens"`))
		Expect(mm.Got).To(Equal(`"end_turn"`))
		Expect(err.Error()).To(ContainSubstring("at JSON path $.result.stopReason"))
		Expect(err.Error()).To(ContainSubstring("--- Expected"))
	}, NodeTimeout(*timeoutFlag))

	It("fails a diff-patch scenario when the CLI side skips the PostToolUse hook", Label("Diff patch"), func(ctx SpecContext) {
		sc := findScenario("write-existing")
		dir := GinkgoT().TempDir()
		name := conform.GoldenName(sc, scenario.ProfileAir)
		want, err := os.ReadFile(golden.New(goldensDir).File(name))
		Expect(err).NotTo(HaveOccurred())
		g := golden.New(dir, golden.WithUpdate(false))
		Expect(os.MkdirAll(filepath.Dir(g.File(name)), 0o755)).To(Succeed())
		Expect(os.WriteFile(g.File(name), want, 0o644)).To(Succeed())
		Expect(copyCassette(sc, dir, withoutPostToolUse())).To(BeNumerically(">", 0), "the cassette has no PostToolUse callback to drop")
		_, err = conform.Check(ctx, runOptions(sc, scenario.ProfileAir), g, false)
		Expect(err).To(MatchError(golden.ErrMismatch))
		var mm *golden.MismatchError
		Expect(errors.As(err, &mm)).To(BeTrue())
		AddReportEntry("first difference", mm.Error())
		// The adapter's answer to the hook is gone from the adapter → CLI lane.
		Expect(mm.Diff).To(ContainSubstring(`-cli:1 agent->cli {"response":{"request_id":`))
	}, NodeTimeout(*timeoutFlag))

	It("fails a run whose agent error is not a known deviation", Label("AIR metadata keys"), func(ctx SpecContext) {
		sc := findScenario("mcp-tool")
		name := conform.GoldenName(sc, scenario.ProfileAir)
		want, err := os.ReadFile(golden.New(goldensDir).File(name))
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir() // the same golden, but no known-findings.json
		g := golden.New(dir, golden.WithUpdate(false))
		Expect(os.MkdirAll(filepath.Dir(g.File(name)), 0o755)).To(Succeed())
		Expect(os.WriteFile(g.File(name), want, 0o644)).To(Succeed())

		_, err = conform.Check(ctx, runOptions(sc, scenario.ProfileAir), g, false)
		Expect(err).To(MatchError(conform.ErrAgentInvalid))
		Expect(err.Error()).To(ContainSubstring("air-unknown-key"))
		Expect(err.Error()).To(ContainSubstring("/params/update/_meta/jetbrains/air/mcp"))
	}, NodeTimeout(*timeoutFlag))
})

var _ = Describe("A cassette that does not apply", Label("mutation", "profile:air", "lane:cli"), func() {
	BeforeEach(func() {
		if golden.UpdateRequested() || *liveFlag {
			Skip("only a replayed run plays a cassette")
		}
	})

	It("refuses a replay whose CLI is started with another argument, naming it, and is no golden mismatch", func(ctx SpecContext) {
		sc := findScenario("bash-foreground")
		name := conform.GoldenName(sc, scenario.ProfileAir)
		want, err := os.ReadFile(golden.New(goldensDir).File(name))
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		g := golden.New(dir, golden.WithUpdate(false))
		Expect(os.MkdirAll(filepath.Dir(g.File(name)), 0o755)).To(Succeed())
		Expect(os.WriteFile(g.File(name), want, 0o644)).To(Succeed())
		copyCassette(sc, dir, nil)
		// The CLI the adapter starts gets one more argument than the
		// recording has: the replaying fake CLI behind a wrapper that adds it.
		cli := filepath.Join(GinkgoT().TempDir(), execwrap.Name("claude"))
		Expect(execwrap.Write(cli, airwireBin, "fake-cli", "--permission-mode=default")).To(Succeed())
		o := runOptions(sc, scenario.ProfileAir)
		o.Env = append(o.Env, "CLAUDE_CODE_EXECUTABLE="+cli)

		_, err = conform.Check(ctx, o, g, false)
		Expect(err).To(MatchError(conform.ErrCassetteNotApplicable))
		var ce *conform.CassetteError
		Expect(errors.As(err, &ce)).To(BeTrue())
		Expect(errors.Is(err, golden.ErrMismatch)).To(BeFalse(), "not a golden mismatch: %v", err)
		Expect(err.Error()).To(ContainSubstring("--permission-mode=default"))
		Expect(err.Error()).To(ContainSubstring("--live"))
	}, NodeTimeout(*timeoutFlag))
})

// copyCassette copies the air cassette of sc into the goldens directory dir,
// leaving out the lines drop selects; it returns how many it left out.
func copyCassette(sc *scenario.Scenario, dir string, drop func(cassetteLine) bool) int {
	src := conform.CassetteFile(goldensDir, sc, scenario.ProfileAir)
	data, err := os.ReadFile(src)
	Expect(err).NotTo(HaveOccurred())
	var out []byte
	dropped := 0
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		var cl cassetteLine
		if drop != nil && json.Unmarshal(l, &cl) == nil && drop(cl) {
			dropped++
			continue
		}
		out = append(out, l...)
	}
	dst := conform.CassetteFile(dir, sc, scenario.ProfileAir)
	Expect(os.MkdirAll(filepath.Dir(dst), 0o755)).To(Succeed())
	Expect(os.WriteFile(dst, out, 0o644)).To(Succeed())
	return dropped
}

// cassetteLine is what the mutations read of a cassette line.
type cassetteLine struct {
	Dir string `json:"dir"`
	Msg struct {
		RequestID string `json:"request_id"`
		Request   struct {
			Subtype string `json:"subtype"`
			Input   struct {
				HookEventName string `json:"hook_event_name"`
			} `json:"input"`
		} `json:"request"`
		Response struct {
			RequestID string `json:"request_id"`
		} `json:"response"`
	} `json:"msg"`
}

// withoutPostToolUse drops the CLI's PostToolUse hook callbacks, the
// adapter's answers to them and the CLI's echoes of those answers: a CLI
// that never calls the hook.
func withoutPostToolUse() func(cassetteLine) bool {
	ids := map[string]bool{}
	return func(l cassetteLine) bool {
		if l.Dir == "cli" && l.Msg.Request.Subtype == "hook_callback" && l.Msg.Request.Input.HookEventName == scenario.HookPostToolUse {
			ids[l.Msg.RequestID] = true
			return true
		}
		return l.Msg.Response.RequestID != "" && ids[l.Msg.Response.RequestID]
	}
}

// findScenario is the loaded scenario of that name; the spec is skipped
// when scenarios/ has none.
func findScenario(name string) *scenario.Scenario {
	for _, sc := range loaded {
		if sc.Name == name {
			return sc
		}
	}
	Skip("scenario " + name + " is not in scenarios/")
	return nil
}
