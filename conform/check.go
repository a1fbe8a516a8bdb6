package conform

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/air"
	"github.com/airwire/airwire/schemas/validate"
)

// ErrLaneMissing means a canonical transcript lacks the client or the CLI
// lane; every golden must hold both.
var ErrLaneMissing = errors.New("canonical transcript lacks a lane")

// ErrNoValidation means the schemas to validate a run with cannot be
// loaded; Check fails with it before the run starts, unless
// Options.NoValidate turns validation off.
var ErrNoValidation = errors.New("cannot validate the run's messages")

// ErrEditorInvalid means the driver itself generated a message the
// validator rejects (initialize, the session opening, an answer to an agent
// request): a bug of the suite, never of the adapter.
var ErrEditorInvalid = errors.New("the conformance client sent an invalid message")

// GoldenName is the golden of a scenario and profile: <scenario>/<profile>.
func GoldenName(sc *scenario.Scenario, p scenario.Profile) string {
	return sc.Name + "/" + string(p)
}

// Outcome is what Check observed besides the verdict.
type Outcome struct {
	// Canon is the canonical transcript (nil when the run failed).
	Canon []byte
	// Dir is the run directory (removed unless keep).
	Dir string
	// AgentFindings are the validator's findings on the agent's messages
	// (schemas/validate). An error among them fails the check unless
	// goldens/known-findings.json lists it as a known deviation
	// (goldens/DEVIATIONS.md) of the agent that ran (its initialize
	// agentInfo name and version); warnings never fail.
	AgentFindings []validate.Finding
	// Agent is the agentInfo name and version the agent's initialize
	// response gave (zero before it answered).
	Agent AgentID
	// ScriptedFindings are findings on editor messages whose content the
	// scenario wrote; some are deliberate (a malformed request the agent
	// must refuse or ignore), so they do not fail the check either.
	ScriptedFindings []validate.Finding
	// ValidationSkipped says why no validation ran ("" when it ran): only
	// Options.NoValidate turns it off.
	ValidationSkipped string
	// Deviations are the values of the run that declared deviations
	// (goldens/agent-deviations.json) masked before the comparison: each
	// one is a difference from the golden that the adapter keeps on
	// purpose. Canon is the transcript before masking.
	Deviations []AppliedDeviation
	// LeftOut are the golden lines that declared deviations (Absent: lines
	// the adapter does not send) left out of the golden before the
	// comparison.
	LeftOut []LeftOut
	// Expected is the golden as it was compared with Compared: the lines
	// LeftOut names left out; with EditorLane, its client lines only (nil
	// when no comparison ran). Its line numbers are those the comparison's
	// differences give.
	Expected []byte
	// Compared is the transcript as it was compared with the golden: Canon
	// with the declared deviations masked (nil when no comparison ran);
	// with EditorLane, its client lines only. A live run's durations, which
	// the comparison masks on both sides, are kept as measured.
	Compared []byte
	// EditorLane says the run was compared on the editor lane only
	// (Options.EditorLane): Compared holds the client lines, and so did the
	// golden as compared (EditorLane).
	EditorLane bool
}

// Check runs o in a fresh temporary directory (o.Dir is ignored), validates
// the client lane, renders the canonical transcript and matches it with its
// golden in g, as ApplyDeviations leaves it for the declarations in g's
// directory. The error is the run's (*RunError), a *CassetteError (a
// replayed run whose cassette does not apply), ErrEditorInvalid, a lane
// error, a declaration error (ErrBadDeviation, ErrDeviatingUpdate,
// ErrDeviationGone), or the golden's (*golden.MismatchError,
// golden.ErrMissing). With o.EditorLane only the client lines are
// compared, and the checks of the CLI lane are skipped (editorlane.go);
// it refuses to update (ErrEditorLaneUpdate). The directory is removed
// unless keep is true.
func Check(ctx context.Context, o Options, g *golden.Golden, keep bool) (*Outcome, error) {
	out := &Outcome{EditorLane: o.EditorLane}
	if o.EditorLane && g.Updating() {
		return out, ErrEditorLaneUpdate
	}
	dir, err := runDir()
	if err != nil {
		return out, err
	}
	out.Dir = dir
	if !keep {
		defer os.RemoveAll(dir)
	}
	o.Dir = dir
	v, err := o.validator()
	if err != nil {
		return out, err
	}
	if v == nil {
		out.ValidationSkipped = "validation turned off (--no-validate)"
	}
	if o.Scenario.Live() {
		// The replaying CLI runs in the run's workspace: the path must not
		// be relative.
		if o.Cassette, err = filepath.Abs(CassetteFile(g.Dir(), o.Scenario, o.Profile)); err != nil {
			return out, err
		}
	}
	res, err := Run(ctx, o)
	if cerr := cassetteVerdict(o, res); cerr != nil && !o.EditorLane {
		return out, cerr
	}
	if err != nil {
		return out, err
	}
	if err := out.validate(res, v); err != nil {
		return out, err
	}
	known, err := LoadKnownFindings(g.Dir())
	if err != nil {
		return out, err
	}
	out.Agent = RunAgent(res.Entries)
	if bad := unknownAgentErrors(GoldenName(o.Scenario, o.Profile), out.Agent, out.AgentFindings, known); len(bad) > 0 {
		return out, fmt.Errorf("%w (not in %s):\n%s", ErrAgentInvalid, KnownFindingsFile, strings.Join(bad, "\n"))
	}
	canon, err := Canonical(res)
	if err != nil {
		return out, err
	}
	out.Canon = canon
	lanes := CheckLanes
	if o.EditorLane {
		lanes = checkEditorLane
	}
	if err := lanes(canon); err != nil {
		return out, err
	}
	devs, err := LoadDeviations(g.Dir())
	if err != nil {
		return out, err
	}
	if g.Updating() && DeclaresFor(devs, canon) {
		return out, ErrDeviatingUpdate
	}
	if o.Live && o.Scenario.Live() && g.Updating() {
		if err := WriteCassette(res, o.Cassette); err != nil {
			return out, fmt.Errorf("writing the cassette: %w", err)
		}
	}
	measured := o.Live && o.Scenario.Live()
	return out, out.match(g, GoldenName(o.Scenario, o.Profile), canon, devs, measured)
}

// match compares canon with its golden after applying the declared
// deviations of its adapter (DeviationsFile) for the run name: the golden
// lines it does not send are left out of the golden (LeaveOut, recorded
// in out.LeftOut), then the declared values masked (ApplyDeviations,
// recorded in out.Deviations); a declaration that applies to the run
// (GoneDeviations) and leaves out or masks nothing there is
// ErrDeviationGone. Updating writes canon as it is. When measured (a live
// run: the real CLI measured its durations anew), both sides are compared
// with their durations masked (MaskMeasured). With out.EditorLane, both
// sides are their client lines (EditorLane), compared with their durations
// masked, and only the declarations for those lines apply
// (EditorDeviations).
func (out *Outcome) match(g *golden.Golden, name string, canon []byte, devs []Deviation, measured bool) error {
	if g.Updating() {
		return g.Match(name, canon)
	}
	want, err := os.ReadFile(g.File(name))
	if err != nil {
		return g.Match(name, canon) // the golden's own error
	}
	if cassette.OnWindows {
		want = foldEscapedSeparators(want) // the run's own are folded (Normalizer)
	}
	devs = ForRun(devs, name)
	if out.EditorLane {
		devs = EditorDeviations(devs)
	}
	if gone := GoneDeviations(devs, name, want, canon); len(gone) > 0 {
		return goneError(gone[0], name)
	}
	// Lines are left out of the whole golden, whose numbering the
	// renumbered placeholders follow, before its client lines are cut out.
	want, out.LeftOut = LeaveOut(devs, want, canon)
	if out.EditorLane {
		want, canon = EditorLane(want), EditorLane(canon)
	}
	canon, out.Deviations = ApplyDeviations(devs, want, canon)
	out.Expected, out.Compared = want, canon
	if out.EditorLane || measured {
		// A live run's CLI measured its durations anew; the durations a
		// scripted or recorded CLI fixed are known from the CLI lane
		// (FixDurations), which an editor-lane run does not see: both
		// sides are compared with their durations masked.
		want, canon = MaskMeasured(want), MaskMeasured(canon)
	}
	if isV2(want) {
		want, canon = MaskSessionTimes(want), MaskSessionTimes(canon)
	}
	if !bytes.Equal(want, canon) {
		return golden.Compare(g.File(name), want, canon)
	}
	return nil
}

// escapedBackslashesRE is a run of backslashes as JSON text writes them.
var escapedBackslashesRE = lazyre.New(`(?:\\\\)+`)

// foldEscapedSeparators folds, in a canonical transcript, what
// cassette.FoldSeparators folds in its strings: each run of escaped
// backslashes becomes one slash.
func foldEscapedSeparators(canon []byte) []byte {
	return escapedBackslashesRE.ReplaceAll(canon, []byte("/"))
}

// goneError is the ErrDeviationGone of declaration d in the run name.
func goneError(d Deviation, name string) error {
	if d.Absent {
		return fmt.Errorf("%w: %s entry %d (absent lines) is declared for %s, but its golden has no line it selects",
			ErrDeviationGone, DeviationsFile, d.Entry, name)
	}
	return fmt.Errorf("%w: %s entry %d (%s) is declared for %s, but %s's run now matches the golden there",
		ErrDeviationGone, DeviationsFile, d.Entry, d.describe(), name, d.Agent)
}

// validator loads the schemas of o (ACPSchemaDir, else the checkout's);
// it is nil with NoValidate.
func (o Options) validator() (*validate.Validator, error) {
	if o.NoValidate {
		return nil, nil
	}
	load := validate.Load
	if o.ACPSchemaDir != "" {
		load = func() (*acp.Schema, *air.Set, error) { return validate.LoadDir(o.ACPSchemaDir) }
	}
	a, s, err := load()
	if err != nil {
		return nil, fmt.Errorf("%w: %v; pass --no-validate to compare without validating", ErrNoValidation, err)
	}
	return validate.New(a, s), nil
}

// validate runs every client-lane message through v (nothing when v is
// nil). Errors on the editor's side fail; the agent's findings are kept in
// the outcome.
func (out *Outcome) validate(res *Result, v *validate.Validator) error {
	if v == nil {
		return nil
	}
	i := 0
	next := func() (journal.Entry, error) {
		if i >= len(res.Entries) {
			return journal.Entry{}, io.EOF
		}
		i++
		return res.Entries[i-1], nil
	}
	rep, err := validate.Entries(next, v)
	if err != nil {
		return err
	}
	scripted := map[uint64]bool{}
	k := 0
	for _, e := range res.Entries {
		if e.Lane == journal.LaneClient && e.Dir == journal.DirEditor && (e.Kind == journal.KindMsg || e.Kind == journal.KindNonJSON) {
			if k < len(res.Scripted) && res.Scripted[k] {
				scripted[e.Seq] = true
			}
			k++
		}
	}
	var editor []string
	for _, f := range rep.Findings {
		switch {
		case f.Dir == validate.DirAgent:
			out.AgentFindings = append(out.AgentFindings, f)
		case scripted[f.Seq]:
			out.ScriptedFindings = append(out.ScriptedFindings, f)
		case f.Severity == validate.SeverityError:
			editor = append(editor, f.String())
		}
	}
	if len(editor) > 0 {
		return fmt.Errorf("%w:\n%s", ErrEditorInvalid, strings.Join(editor, "\n"))
	}
	return nil
}

// CheckLanes requires at least one client line and one cli line.
func CheckLanes(canon []byte) error {
	var client, cli bool
	for _, l := range bytes.Split(canon, []byte("\n")) {
		client = client || bytes.HasPrefix(l, []byte("client "))
		cli = cli || bytes.HasPrefix(l, []byte("cli:"))
	}
	if !client || !cli {
		return fmt.Errorf("%w (client %v, cli %v)", ErrLaneMissing, client, cli)
	}
	return nil
}

// runDir makes a fresh run directory whose path has the same length in every
// run: the real CLI counts the run's paths into its token estimates, which
// a compaction scenario shows.
func runDir() (string, error) {
	for range 100 {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("aw-%010d", rand.Uint32()))
		err := os.Mkdir(dir, 0o700)
		if err == nil || !errors.Is(err, os.ErrExist) {
			return dir, err
		}
	}
	return "", errors.New("no free run directory name")
}
