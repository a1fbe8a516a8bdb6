package conform

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/journal"
)

// loadGoldenCassette reads goldens/<name> from the repository.
func loadGoldenCassette(t *testing.T, name string) *cassette.Cassette {
	t.Helper()
	root, err := deps.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	c, err := cassette.Load(filepath.Join(root, "goldens", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// playedJournal is the CLI lane of a replay of c's first process up to
// (not including) its first agent frame of type/subtype stop, behind the
// cassette's one-document runs (`auth status`), as the recorder journals it.
func playedJournal(t *testing.T, c *cassette.Cassette, stop string) []journal.Entry {
	t.Helper()
	var out []journal.Entry
	for _, r := range c.Runs {
		out = append(out, journal.Entry{Lane: journal.LaneCLI, Kind: journal.KindSpawn, Proc: "run", Argv: append([]string{"claude"}, r.Argv...)})
	}
	out = append(out, journal.Entry{Lane: journal.LaneCLI, Kind: journal.KindSpawn, Proc: "cli-2", Argv: append([]string{"claude"}, c.Processes[0].Argv...)})
	for _, e := range c.Processes[0].Events {
		if e.Dir == cassette.DirStderr {
			continue
		}
		if e.Dir == cassette.DirAgent && agentFrameType(e.Msg) == stop {
			return out
		}
		out = append(out, journal.Entry{Lane: journal.LaneCLI, Kind: journal.KindMsg, Dir: journal.Dir(e.Dir), Proc: "cli-2", Msg: e.Msg})
	}
	t.Fatalf("no agent frame %s in the cassette", stop)
	return nil
}

// agentFrameType is an agent frame's type/subtype, a control request's by
// its request's subtype.
func agentFrameType(m json.RawMessage) string {
	var f struct {
		Type    string `json:"type"`
		Request struct {
			Subtype string `json:"subtype"`
		} `json:"request"`
	}
	_ = json.Unmarshal(m, &f)
	return f.Type + "/" + f.Request.Subtype
}

func TestReplayComingEndsWaitsTheCassetteCannotEnd(t *testing.T) {
	// set-config-option's CLI ended its turn with a success but sent no
	// prompt_suggestion before the shutdown interrupt: a live run waits
	// PostTurnWait for it, a replay knows it never comes.
	c := loadGoldenCassette(t, "set-config-option/zed.cassette")
	played := playedJournal(t, c, "control_request/interrupt")
	if !cliBusy(played, true, nil) {
		t.Fatal("a success without its suggestion must be busy for a live run")
	}
	if cliBusy(played, true, followReplay(c, played).coming) {
		t.Error("replay: the cassette holds no suggestion, the wait must end")
	}
}

func TestReplayComingKeepsWaitsTheCassetteEnds(t *testing.T) {
	// prompt-suggestion's CLI sends the suggestion after the idle state:
	// with the frames up to the idle state played, the replay waits for it,
	// and not once it came.
	c := loadGoldenCassette(t, "prompt-suggestion/zed.cassette")
	all := playedJournal(t, c, "control_request/interrupt")
	last := len(all) - 1
	if frameType(all[last].Msg) != "prompt_suggestion/" {
		t.Fatalf("the cassette's last frame before the interrupt is %s, want the suggestion", frameType(all[last].Msg))
	}
	before := all[:last]
	if !cliBusy(before, true, followReplay(c, before).coming) {
		t.Error("replay: the suggestion is still to come, the wait must go on")
	}
	if cliBusy(all, true, followReplay(c, all).coming) {
		t.Error("replay: the suggestion came, the wait must end")
	}
}

func TestReplayComingWaitsWhenTheJournalDisagrees(t *testing.T) {
	c := loadGoldenCassette(t, "set-config-option/zed.cassette")
	played := playedJournal(t, c, "control_request/interrupt")
	// A frame the recording does not have at that place: the player did
	// not play this process, so nothing is known of what is to come.
	odd := journal.Entry{Lane: journal.LaneCLI, Kind: journal.KindMsg, Dir: journal.DirCLI, Proc: "cli-2", Msg: json.RawMessage(`{"type":"prompt_suggestion_x"}`)}
	mixed := append(append([]journal.Entry(nil), played[:3]...), odd)
	mixed = append(mixed, played[3:]...)
	if !cliBusy(mixed, true, followReplay(c, mixed).coming) {
		t.Error("a journal out of line with the cassette must wait as a live run does")
	}
	// A stream-json spawn the cassette has no process for.
	extra := append(append([]journal.Entry(nil), played...),
		journal.Entry{Lane: journal.LaneCLI, Kind: journal.KindSpawn, Proc: "cli-3", Argv: append([]string{"claude"}, c.Processes[0].Argv...)},
		journal.Entry{Lane: journal.LaneCLI, Kind: journal.KindMsg, Dir: journal.DirCLI, Proc: "cli-3", Msg: json.RawMessage(`{"type":"result","subtype":"success","is_error":false}`)})
	if !cliBusy(extra, true, followReplay(c, extra).coming) {
		t.Error("a process the cassette did not record must wait as a live run does")
	}
}

func TestReplayComingSuggestionStopsAtTheNextResult(t *testing.T) {
	// compaction-legacy: no suggestion after the first turn's result, but
	// the second turn ends with another result; the first turn's wait must
	// not look past it.
	c := loadGoldenCassette(t, "compaction-legacy/zed.cassette")
	var firstTurn []journal.Entry
	users := 0
	for _, e := range playedJournal(t, c, "control_request/interrupt") {
		if e.Dir == journal.DirAgent && agentFrameType(e.Msg) == "user/" {
			if users++; users == 2 {
				break
			}
		}
		firstTurn = append(firstTurn, e)
	}
	if !cliBusy(firstTurn, false, nil) {
		t.Fatal("the first turn's success must be busy for a live run")
	}
	if cliBusy(firstTurn, false, followReplay(c, firstTurn).coming) {
		t.Error("replay: no suggestion before the next result, the wait must end")
	}
}

func TestPostTurnBusyWaitsForTheAdapterFramesTheRecordingHas(t *testing.T) {
	// local-command-output: after the turn's idle state the reference asks
	// the CLI for a title (generate_session_title), and the transcript
	// shows the answer. The recording holds no suggestion, but the final
	// wait must go on until the adapter sent that request, its answer came
	// and the journal was still for ReplayQuiet.
	c := loadGoldenCassette(t, "local-command-output/plain.cassette")
	d := &driver{replay: c}
	upToTitle := playedJournal(t, c, "control_request/generate_session_title")
	if !d.postTurnBusy(upToTitle, true, time.Second) {
		t.Error("the title request the recording has is still to come: busy")
	}
	all := playedJournal(t, c, "control_request/interrupt")
	if got := frameType(all[len(all)-1].Msg); got != "control_response/" {
		t.Fatalf("the last frame before the interrupt is %s, want the title's answer", got)
	}
	if d.postTurnBusy(all, true, ReplayQuiet) {
		t.Error("every recorded frame came and the journal is still: not busy")
	}
	if !d.postTurnBusy(all, true, ReplayQuiet/2) {
		t.Error("the journal moved less than ReplayQuiet ago: busy")
	}
	if !(&driver{}).postTurnBusy(all, true, time.Second) {
		t.Error("a live run waits for the suggestion whatever the cassette says")
	}
}

func TestSettleCountsFromTheLastCLIFrame(t *testing.T) {
	// The post-turn wait saw a CLI frame 5 ms after the journal's start;
	// the adapter gets Settle from then, even though it has written nothing
	// to the editor since long before.
	start := time.Now().Add(-5 * time.Millisecond)
	hdr := journal.Header{Start: start}
	entries := []journal.Entry{
		{Lane: journal.LaneCLI, Kind: journal.KindMsg, Dir: journal.DirCLI, TNs: int64(5 * time.Millisecond), Msg: json.RawMessage(`{"type":"prompt_suggestion"}`)},
		{Lane: journal.LaneCLI, Kind: journal.KindMsg, Dir: journal.DirAgent, TNs: int64(6 * time.Millisecond), Msg: json.RawMessage(`{"type":"control_request"}`)},
	}
	from := lastCLIFrame(hdr, entries)
	if want := start.Add(5 * time.Millisecond); !from.Equal(want) {
		t.Fatalf("lastCLIFrame = %s, want %s", from, want)
	}
	const settle = 40 * time.Millisecond
	d := &driver{o: Options{Settle: settle, WaitTimeout: time.Second}, c: newClient(io.Discard)}
	t0 := time.Now()
	if err := d.settle(context.Background()); err != nil || time.Since(t0) >= settle {
		t.Fatalf("an agent silent from the start settled in %s (err %v), want at once", time.Since(t0), err)
	}
	d.settleFrom = from
	if err := d.settle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := time.Since(from); got < settle {
		t.Errorf("settled %s after the last CLI frame, want >= %s", got, settle)
	}
}

func TestReplayWaitsForAToolHookAfterTheIdleState(t *testing.T) {
	// budget-exceeded's CLI stops the turn on its budget while Read runs,
	// goes idle, then sends Read's PostToolUse callbacks (hook_4, hook_5),
	// which the adapter answers: a run that ended at the idle state would
	// miss those answers.
	c := loadGoldenCassette(t, "budget-exceeded/air.cassette")
	all := playedJournal(t, c, "control_request/interrupt")
	cut := -1
	for i, e := range all {
		var f cliFrame
		_ = json.Unmarshal(e.Msg, &f)
		if _, _, post := f.toolHook(); post && cut < 0 {
			cut = i
		}
	}
	if cut < 0 || !cliBusy(all[:cut], true, nil) {
		t.Fatalf("the cassette must show a PostToolUse callback that a live run waits for (cut %d)", cut)
	}
	if !cliBusy(all[:cut], true, followReplay(c, all[:cut]).coming) {
		t.Error("replay: the PostToolUse callback is still to come, the wait must go on")
	}
	if cliBusy(all, true, followReplay(c, all).coming) {
		t.Error("replay: every Post* callback came, the wait must end")
	}
}

func TestReplayEndWaitsForTheSpawnsTheCassetteHolds(t *testing.T) {
	// session-hooks: after the session/load with new hooks the adapter
	// probes `auth status` with the new settings (the cassette's third
	// run). Where a process starts slowly that probe can come after the
	// last turn: the end of the run waits for it, and only at the end.
	c := loadGoldenCassette(t, "session-hooks/air.cassette")
	if len(c.Runs) != 3 || len(c.Processes) != 2 {
		t.Fatalf("the cassette has %d runs and %d processes, want 3 and 2", len(c.Runs), len(c.Processes))
	}
	spawn := func(proc string, argv []string) journal.Entry {
		return journal.Entry{Lane: journal.LaneCLI, Kind: journal.KindSpawn, Proc: proc, Argv: append([]string{"claude"}, argv...)}
	}
	entries := []journal.Entry{spawn("cli-1", c.Runs[0].Argv), spawn("cli-2", c.Processes[0].Argv), spawn("cli-3", c.Runs[1].Argv),
		spawn("cli-4", c.Processes[1].Argv)}
	d := &driver{replay: c}
	if !d.postTurnBusy(entries, true, time.Second) {
		t.Error("the third run is still to start: busy at the end")
	}
	if d.postTurnBusy(entries, false, time.Second) {
		t.Error("after a turn that is not the last, an owed start does not hold the run")
	}
	if (&driver{}).postTurnBusy(entries, true, time.Second) {
		t.Error("a live run has no cassette to owe starts")
	}
	entries = append(entries, spawn("cli-5", c.Runs[2].Argv))
	if d.postTurnBusy(entries, true, time.Second) {
		t.Error("every start the cassette holds is in the journal: not busy")
	}
	// background-mcp-call: the reference probed `auth status` three times,
	// the agent once; the same probe again is not waited for.
	c = loadGoldenCassette(t, "background-mcp-call/plain.cassette")
	if len(c.Runs) != 3 || len(c.Processes) != 1 {
		t.Fatalf("the cassette has %d runs and %d processes, want 3 and 1", len(c.Runs), len(c.Processes))
	}
	once := []journal.Entry{spawn("cli-1", c.Runs[0].Argv), spawn("cli-2", c.Processes[0].Argv)}
	if (&driver{replay: c}).postTurnBusy(once, true, time.Second) {
		t.Error("one auth status probe of three identical ones: not busy")
	}
}
