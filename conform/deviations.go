package conform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/airwire/airwire/internal/lazyre"
)

// DeviationsFile, in the goldens directory, declares the differences from
// the goldens that an adapter other than the reference keeps on purpose
// (declared by JSON path, tied to its goldens/DEVIATIONS.md entry). The goldens stay as recorded from the reference; a run of the
// declared adapter compares as if the declared paths held the golden's
// values, and everything else must match.
const DeviationsFile = "agent-deviations.json"

// DeviationsDoc, in the goldens directory, holds the numbered entries a
// declaration stands for.
const DeviationsDoc = "DEVIATIONS.md"

// ErrBadDeviation means DeviationsFile is malformed: unknown or missing
// fields, a path conform cannot read, a selector that can select nothing,
// or an entry number DeviationsDoc does not have.
var ErrBadDeviation = errors.New("bad deviation declaration")

// ErrDeviatingUpdate means a golden update was asked for with an adapter
// that has declared deviations: goldens are recorded from the reference
// only.
var ErrDeviatingUpdate = errors.New("goldens are recorded from the reference adapter only, not from an adapter with declared deviations")

// ErrDeviationGone means a declaration masked nothing in a run it applies
// to (GoneDeviations): the adapter does not show the difference it declares
// there, so the declaration is too wide (scope it with Runs, When or
// narrower Paths) or stale (drop it and its DEVIATIONS.md entry).
var ErrDeviationGone = errors.New("a declared deviation masked nothing in a run it applies to")

// Deviation is one declared difference: in the runs of the adapter whose
// initialize result says agentInfo.name == Agent, on the canonical lines
// tagged Tag that Method or Response select, the values at Paths are
// compared as if they were the golden's.
type Deviation struct {
	// Entry is the number of the DEVIATIONS.md entry this stands for.
	Entry int `json:"entry"`
	// Agent is the adapter's agentInfo.name. A declaration never applies
	// to the adapter the goldens were recorded from (same name).
	Agent string `json:"agent"`
	// Tag is the canonical line tag ("client agent->editor", "cli:1
	// spawn"), a path.Match pattern ("cli:* spawn" for any CLI process).
	Tag string `json:"tag"`
	// Method selects requests and notifications by method; Response
	// selects the responses to requests of that method (client lane
	// only: the response is paired with its request by id). Neither
	// selects every line of Tag; both is an error.
	Method   string `json:"method,omitempty"`
	Response string `json:"response,omitempty"`
	// When, a JSON path, narrows the selection to the lines that hold a
	// value there (in each transcript on its own), so that a difference
	// of one kind of message does not mask the same path in all others:
	// "$.params.update._meta.is_mcp_tool_call" selects MCP tool calls.
	When string `json:"when,omitempty"`
	// PairOn, a JSON path, pairs the lines that hold a value there (in
	// each transcript on its own) in place of When's. When then decides
	// only the runs the declaration applies to (where it selects a line of
	// the golden or of the actual run). It serves a difference that
	// removes from the actual line what When looks for: When names the
	// golden's lines that differ, PairOn the lines both sides have.
	PairOn string `json:"pairOn,omitempty"`
	// Paths are JSON paths in the form mismatches print:
	// $.result.agentInfo.name, $.a["b-c"][0], with [*] for every element
	// of an array and, as the last step, [="v"] (any JSON value) for the
	// element equal to it: the actual array gets the golden's presence of
	// that element, in the golden's place, and every other element still
	// compares. A key inside an object only the golden has is masked by
	// giving the actual line that object with the masked keys only.
	Paths []string `json:"paths"`
	// Runs, when set, limits the declaration to the runs whose golden name
	// (<scenario>/<profile>) one of these path.Match patterns matches, for
	// a difference that only some runs show and that must not mask the
	// same path in every other run. Every declaration is required where
	// it applies (its Runs, its When): a run in which it masks nothing
	// fails (ErrDeviationGone), since the difference it declares is not
	// there.
	Runs []string `json:"runs,omitempty"`
	// Extra declares whole lines instead of Paths: the lines it selects in
	// actual beyond as many as it selects in the golden are left out of
	// the comparison, for a message the adapter sends where the reference
	// sends none. Each k-th selected line of actual still pairs with the
	// golden's k-th and must equal it. Paths and Compare stay empty, and
	// Runs names the runs, to each of which it applies whatever When
	// selects: a run without the line fails (ErrDeviationGone).
	Extra bool `json:"extra,omitempty"`
	// Compare is "" (the values at Paths take the golden's) or
	// CompareIdentity, for values random on both sides: they take the
	// golden's only where both sides share one identity pattern.
	Compare string `json:"compare,omitempty"`
	// Equals, with When, narrows the selection further to the lines whose
	// value at When is this JSON value ("turn" selects a task of
	// taskType "turn" when When is "$.params.update.taskType").
	Equals json.RawMessage `json:"equals,omitempty"`
	// Absent, in place of Paths, declares golden lines the adapter does
	// not send: the lines selected in the golden are left out of it before
	// the comparison (LeaveOut), with the lines that belong to them (With,
	// and the answer to each request left out). It needs Runs, and fails
	// each of them where it leaves out nothing (ErrDeviationGone).
	Absent bool `json:"absent,omitempty"`
	// With, for Absent only, are JSON paths that tie lines to a left-out
	// one: a golden line holding, at one of them, a value that a selected
	// line holds at one of them is left out too (a task's later updates
	// by its asyncTaskId).
	With []string `json:"with,omitempty"`
	// Reason says in one sentence why the difference is kept.
	Reason string `json:"reason"`

	steps  [][]step
	when   []step
	pairOn []step
	with   [][]step
	equals any
}

// AppliedDeviation is one value a declaration masked in a run.
type AppliedDeviation struct {
	// Entry is the DEVIATIONS.md entry.
	Entry int
	// Line is the 1-based line of the canonical transcript.
	Line int
	// Path is the concrete JSON path ([*] resolved), or ExtraLine.
	Path string
}

// ExtraLine is the Path of an AppliedDeviation that left a whole line out
// (Deviation.Extra).
const ExtraLine = "(the whole line, which the golden lacks)"

// describe names what d declares, for an error.
func (d *Deviation) describe() string {
	if d.Extra {
		return "extra " + d.Tag + " " + d.Method + " lines"
	}
	return strings.Join(d.Paths, ", ")
}

var deviationsCache sync.Map // goldens dir → []Deviation or error

// LoadDeviations reads and checks dir/agent-deviations.json (a missing
// file declares nothing): strict JSON, every field of each entry filled,
// paths readable, and each entry number present in dir/DEVIATIONS.md.
func LoadDeviations(dir string) ([]Deviation, error) {
	if v, ok := deviationsCache.Load(dir); ok {
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		return v.([]Deviation), nil
	}
	devs, err := loadDeviations(dir)
	if err != nil {
		deviationsCache.Store(dir, err)
		return nil, err
	}
	deviationsCache.Store(dir, devs)
	return devs, nil
}

func loadDeviations(dir string) ([]Deviation, error) {
	b, err := os.ReadFile(filepath.Join(dir, DeviationsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	doc, err := os.ReadFile(filepath.Join(dir, DeviationsDoc))
	if err != nil {
		return nil, fmt.Errorf("%w: %s needs %s: %v", ErrBadDeviation, DeviationsFile, DeviationsDoc, err)
	}
	devs, err := ParseDeviations(b, DeviationEntries(doc))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", DeviationsFile, err)
	}
	return devs, nil
}

// ParseDeviations decodes a declaration file strictly and checks each
// entry; entries maps the DEVIATIONS.md numbers to their titles.
func ParseDeviations(b []byte, entries map[int]string) ([]Deviation, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var devs []Deviation
	if err := dec.Decode(&devs); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadDeviation, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the list", ErrBadDeviation)
	}
	for i := range devs {
		if err := devs[i].check(entries); err != nil {
			return nil, fmt.Errorf("%w: entry %d: %v", ErrBadDeviation, i, err)
		}
	}
	return devs, nil
}

// check fills steps and reports the first problem of d.
func (d *Deviation) check(entries map[int]string) error {
	switch {
	case d.Agent == "" || d.Tag == "" || d.Reason == "":
		return errors.New("agent, tag and reason are required")
	case d.Absent && d.Extra:
		return errors.New("a declaration is absent (golden lines it leaves out) or extra (lines the adapter adds), not both")
	case (d.Absent || d.Extra) && (len(d.Paths) > 0 || d.Compare != "" || len(d.Runs) == 0):
		return errors.New("absent and extra declare whole lines of the runs they name: runs, no paths, no compare")
	case !d.Absent && !d.Extra && len(d.Paths) == 0:
		return errors.New("paths are required (or absent, or extra)")
	case !d.Absent && len(d.With) > 0:
		return errors.New("with ties lines to the lines an absent declaration leaves out")
	case len(d.Equals) > 0 && d.When == "":
		return errors.New("equals needs when")
	case d.Method != "" && d.Response != "":
		return errors.New("method and response exclude each other")
	case d.Response != "" && d.Tag != TagAgentToEditor && d.Tag != TagEditorToAgent:
		return fmt.Errorf("response selects client-lane lines only (%q or %q)", TagAgentToEditor, TagEditorToAgent)
	}
	if err := d.checkCompare(); err != nil {
		return err
	}
	if _, ok := entries[d.Entry]; !ok {
		return fmt.Errorf("%s has no entry %d", DeviationsDoc, d.Entry)
	}
	if _, err := path.Match(d.Tag, ""); err != nil {
		return fmt.Errorf("tag %q: %v", d.Tag, err)
	}
	for _, r := range d.Runs {
		if _, err := path.Match(r, ""); err != nil || r == "" {
			return fmt.Errorf("runs: bad pattern %q", r)
		}
	}
	return d.parsePaths()
}

// parsePaths fills steps, when, pairOn, with and equals from d's fields.
func (d *Deviation) parsePaths() error {
	d.steps, d.when, d.pairOn, d.with, d.equals = nil, nil, nil, nil, nil
	for _, w := range []struct {
		name string
		text string
		to   *[]step
	}{{"when", d.When, &d.when}, {"pairOn", d.PairOn, &d.pairOn}} {
		if w.text == "" {
			continue
		}
		steps, err := parsePath(w.text)
		if err != nil {
			return fmt.Errorf("%s: %v", w.name, err)
		}
		*w.to = steps
	}
	if d.PairOn != "" && d.When == "" {
		return errors.New("pairOn needs a when")
	}
	if len(d.Equals) > 0 {
		dec := json.NewDecoder(bytes.NewReader(d.Equals))
		dec.UseNumber() // as transcript.value decodes the lines
		if err := dec.Decode(&d.equals); err != nil {
			return fmt.Errorf("equals: %v", err)
		}
	}
	for _, p := range d.Paths {
		s, err := parsePath(p)
		if err != nil {
			return err
		}
		d.steps = append(d.steps, s)
	}
	for _, p := range d.With {
		s, err := parsePath(p)
		if err != nil {
			return fmt.Errorf("with: %v", err)
		}
		d.with = append(d.with, s)
	}
	return nil
}

// entryRE is a numbered entry of DEVIATIONS.md: "7. **Title.**", the
// title possibly over several lines.
var entryRE = lazyre.New(`(?ms)^(\d+)\. \*\*(.+?)\*\*`)

// DeviationEntries returns the numbered entries of a DEVIATIONS.md text,
// number → title (white space folded).
func DeviationEntries(doc []byte) map[int]string {
	out := map[int]string{}
	for _, m := range entryRE.FindAllSubmatch(doc, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		out[n] = strings.Join(strings.Fields(string(m[2])), " ")
	}
	return out
}
