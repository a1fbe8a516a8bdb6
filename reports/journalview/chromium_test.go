package journalview

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/cdptest"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/air"
	"github.com/airwire/airwire/schemas/validate"
)

// validated draws the recorded turn with the validator's findings, as
// airwire journal view does. Without the ACP schema the test fails under
// CI=true and is skipped elsewhere.
func validated(t *testing.T) *Builder {
	t.Helper()
	p, err := deps.Paths()
	var dir string
	if err == nil {
		dir, err = p.RequireACPSchemaDir()
	}
	if err != nil {
		deps.Unavailable(t, "the ACP schema is not installed (run make deps): %v", err)
	}
	a, err := acp.LoadDir(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	set, err := air.Load()
	if err != nil {
		t.Fatal(err)
	}
	b := readJournal(t, "testdata/bash-turn.jsonl", Options{Title: "bash-turn.jsonl"})
	rep, err := validate.Journal("testdata/bash-turn.jsonl", validate.New(a, set))
	if err != nil {
		t.Fatal(err)
	}
	var fs []Finding
	for _, f := range rep.Findings {
		fs = append(fs, Finding{Seq: f.Seq, Severity: f.Severity.String(), Rule: f.Rule, Section: f.Section, Pointer: f.Pointer, Message: f.Message})
	}
	b.SetFindings(fs)
	return b
}

// The view of a real turn opens in headless Chromium: the three lanes
// hold cards, a tool call card and the editor's answer with its inline
// finding are in the page, the lane and method filters hide what they
// should, and a screenshot shows it (saved in the test's temporary
// directory).
func TestViewInChromium(t *testing.T) {
	b := validated(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "view.html")
	var out bytes.Buffer
	if err := b.Write(&out); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	p := cdptest.Start(t, cdptest.Bin(t))
	p.Open((&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String())
	var got struct {
		Client, CLI, Model int
		Parties            string
		Tool, Finding      string
		Shown              string
	}
	p.Eval(`({client: document.querySelectorAll("#lanes .card.lane-client").length,
		cli: document.querySelectorAll("#lanes .card.lane-cli").length,
		model: document.querySelectorAll("#lanes .card.lane-model").length,
		parties: document.querySelector(".parties").innerText,
		tool: (document.querySelector(".card.tool-call .tool") || {}).textContent || "",
		finding: (document.querySelector(".card.has-finding .finding.error") || {}).textContent || "",
		shown: document.getElementById("shown").textContent})`, &got)
	if got.Client == 0 || got.CLI == 0 || got.Model == 0 {
		t.Errorf("cards per lane: client %d, cli %d, model %d", got.Client, got.CLI, got.Model)
	}
	if !strings.Contains(got.Parties, "editor") || !strings.Contains(got.Parties, "model") {
		t.Errorf("the swim lanes are headed %q", got.Parties)
	}
	if !strings.HasPrefix(got.Tool, "tool call: ") {
		t.Errorf("no tool call card (%q)", got.Tool)
	}
	if !strings.Contains(got.Finding, "was not offered") || !strings.Contains(got.Finding, "permission-answer-offered") {
		t.Errorf("the inline finding reads %q", got.Finding)
	}
	total := got.Client + got.CLI + got.Model + countSolo(t, p)
	checkViewFilters(t, p, total)
	p.Open((&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String())
	p.Eval(`document.querySelector(".card.has-finding").scrollIntoView({block: "center"}), true`, nil)
	shot := p.Screenshot()
	if err := os.WriteFile(filepath.Join(dir, "view.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if n := pixels(img, findingColour); n < 500 {
		t.Errorf("the screenshot shows %d pixels of the finding's background (#%06x): the finding is not on screen", n, findingColour)
	}
}

// findingColour is the background of an error finding (.finding.error).
const findingColour = 0xfbd5d5

// pixels counts the pixels of one colour.
func pixels(img image.Image, colour uint32) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8<<16|g>>8<<8|bl>>8 == colour {
				n++
			}
		}
	}
	return n
}

func countSolo(t *testing.T, p *cdptest.Page) int {
	var n int
	p.Eval(`document.querySelectorAll("#lanes .card.solo").length`, &n)
	return n
}

// checkViewFilters unticks the model lane with the mouse, then types a
// method prefix, and counts the cards left visible.
func checkViewFilters(t *testing.T, p *cdptest.Page, total int) {
	t.Helper()
	visible := func(sel string) int {
		var n int
		p.Eval(`Array.from(document.querySelectorAll("`+sel+`")).filter(function (e) { return !e.hidden; }).length`, &n)
		return n
	}
	if n := visible("#lanes .card"); n != total {
		t.Errorf("%d of %d cards visible before filtering", n, total)
	}
	p.Click(`.f-lane[value="model"]`)
	if n := visible("#lanes .card.lane-model"); n != 0 {
		t.Errorf("with the model lane unticked %d model cards are visible", n)
	}
	if visible("#lanes .card.lane-client") == 0 {
		t.Error("unticking the model lane hid the client lane")
	}
	p.Click(`.f-lane[value="model"]`)
	p.Click("#f-method")
	for _, r := range "session/prompt" {
		p.Call("Input.dispatchKeyEvent", map[string]any{"type": "keyDown", "key": string(r), "text": string(r)}, nil)
		p.Call("Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": string(r)}, nil)
	}
	var methods []string
	p.Eval(`Array.from(document.querySelectorAll("#lanes .card")).filter(function (e) { return !e.hidden; })
		.map(function (e) { return e.dataset.method; })`, &methods)
	if len(methods) != 2 {
		t.Errorf("the method filter session/prompt shows %q, want the request and its result", methods)
	}
	for _, m := range methods {
		if m != "session/prompt" {
			t.Errorf("the method filter session/prompt shows a %q card", m)
		}
	}
}

// A page of many cards draws the first 300 and says how many are left;
// the link to a finding draws down to its card and scrolls it into view;
// scrolling to the end draws the rest.
func TestViewDrawsOnScroll(t *testing.T) {
	var es []journal.Entry
	for i := range 1000 {
		es = append(es, toolCall("S1", fmt.Sprint("t", i)))
	}
	b := build(Options{Title: "many"}, entries(es...)...)
	b.SetFindings([]Finding{{Seq: 900, Severity: "error", Rule: "r", Message: "far down"}})
	page := filepath.Join(t.TempDir(), "many.html")
	var out bytes.Buffer
	if err := b.Write(&out); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	p := cdptest.Start(t, cdptest.Bin(t))
	p.Open((&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String())
	var drawn struct {
		N    int
		More string
	}
	count := `({n: document.querySelectorAll("#lanes .card").length, more: document.getElementById("more").textContent})`
	p.Eval(count, &drawn)
	if drawn.N != 300 || !strings.HasPrefix(drawn.More, "700 more cards") {
		t.Errorf("on load: %d cards drawn, %q", drawn.N, drawn.More)
	}
	p.Click(".findings-summary a")
	inView := false
	for end := time.Now().Add(5 * time.Second); !inView && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		p.Eval(`(function () { var e = document.getElementById("s900"); if (!e) return false;
			var r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()`, &inView)
	}
	if !inView {
		t.Error("the link to the finding does not show its card")
	}
	deadline := time.Now().Add(10 * time.Second)
	for drawn.N < 1000 && time.Now().Before(deadline) {
		p.Eval(`window.scrollTo(0, document.body.scrollHeight), true`, nil)
		time.Sleep(100 * time.Millisecond)
		p.Eval(count, &drawn)
	}
	if drawn.N != 1000 || drawn.More != "" {
		t.Errorf("scrolled to the end: %d cards drawn, %q", drawn.N, drawn.More)
	}
}
