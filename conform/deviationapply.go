package conform

import (
	"bytes"
	"cmp"
	"encoding/json"
	"path"
	"strings"
)

// ApplyDeviations returns actual as it compares with golden once the
// declarations for its adapter are applied, and every value they masked.
//
// The adapter is the agentInfo.name of actual's initialize response. When
// it has none, or the golden's is the same (the goldens' own adapter), or
// no declaration names it, actual comes back unchanged. Otherwise, for each
// declaration of that adapter, the k-th line it selects in actual is paired
// with the k-th it selects in golden, and each declared path of the actual
// line takes the golden's value (or loses its key where the golden has
// none). An Extra declaration instead leaves out the actual lines it
// selects past the golden's count. Nothing else changes: every other
// difference still fails.
func ApplyDeviations(devs []Deviation, golden, actual []byte) ([]byte, []AppliedDeviation) {
	at := newTranscript(actual)
	name := at.agentName()
	if name == "" || !declares(devs, name) {
		return actual, nil
	}
	gt := newTranscript(golden)
	if name == gt.agentName() {
		return actual, nil
	}
	var applied []AppliedDeviation
	for i := range devs {
		d := &devs[i]
		if d.Agent != name || d.Absent {
			continue
		}
		gs, as := gt.selected(d), at.selected(d)
		if d.Compare == CompareIdentity && !identityHolds(d, gt, gs, at, as) {
			continue
		}
		if d.Extra {
			for _, i := range as[min(len(gs), len(as)):] {
				at.dropped[i] = true
				applied = append(applied, AppliedDeviation{Entry: d.Entry, Line: i + 1, Path: ExtraLine})
			}
			continue
		}
		for k := range min(len(gs), len(as)) {
			for _, p := range at.mask(as[k], gt.value(gs[k]), d.steps) {
				applied = append(applied, AppliedDeviation{Entry: d.Entry, Line: as[k] + 1, Path: p})
			}
		}
	}
	if len(applied) == 0 {
		return actual, nil
	}
	return at.bytes(), applied
}

// ForRun keeps the declarations that apply to the run whose golden is
// name (<scenario>/<profile>): those without Runs, and those one of whose
// Runs patterns matches name.
func ForRun(devs []Deviation, name string) []Deviation {
	var out []Deviation
	for _, d := range devs {
		if d.namesRun(name) || len(d.Runs) == 0 {
			out = append(out, d)
		}
	}
	return out
}

// namesRun reports whether one of d's Runs patterns matches name.
func (d *Deviation) namesRun(name string) bool {
	for _, r := range d.Runs {
		if ok, _ := path.Match(r, name); ok {
			return true
		}
	}
	return false
}

// GoneDeviations returns the declarations of devs for actual's adapter
// that apply to the run name but mask nothing when actual is compared with
// golden (as LeaveOut leaves it), or, when Absent, leave nothing out of
// golden: the difference each declares is gone. A declaration applies to
// every run its Runs patterns match (every run without Runs), and, with a
// When path and not Absent, only where that path selects a line in the
// golden or in actual. The goldens' own adapter needs none.
func GoneDeviations(devs []Deviation, name string, golden, actual []byte) []Deviation {
	at, gt := newTranscript(actual), newTranscript(golden)
	agent := at.agentName()
	if agent == "" || agent == gt.agentName() {
		return nil
	}
	kept, _ := LeaveOut(devs, golden, actual)
	kt := newTranscript(kept)
	var gone []Deviation
	for i := range devs {
		d := &devs[i]
		if d.Agent != agent || !d.appliesTo(name, kt, at) {
			continue
		}
		if d.Absent {
			if _, left := LeaveOut([]Deviation{*d}, golden, actual); len(left) == 0 {
				gone = append(gone, *d)
			}
			continue
		}
		if _, applied := ApplyDeviations([]Deviation{*d}, kept, actual); len(applied) == 0 {
			gone = append(gone, *d)
		}
	}
	return gone
}

// appliesTo reports whether d applies to the run name whose golden and
// actual transcripts are gt and at: its Runs (if any) name the run, and its
// When (if any) selects a line in one of them; an Absent or Extra
// declaration applies to each run it names (the line it declares must be
// there).
func (d *Deviation) appliesTo(name string, gt, at *transcript) bool {
	if len(d.Runs) > 0 && !d.namesRun(name) {
		return false
	}
	return d.Absent || d.Extra || d.when == nil || len(gt.holding(d, d.when, true)) > 0 || len(at.holding(d, d.when, true)) > 0
}

// DeclaresFor reports whether devs has a declaration for the adapter that
// produced canon (by its initialize agentInfo.name).
func DeclaresFor(devs []Deviation, canon []byte) bool {
	name := newTranscript(canon).agentName()
	return name != "" && declares(devs, name)
}

func declares(devs []Deviation, agent string) bool {
	for _, d := range devs {
		if d.Agent == agent {
			return true
		}
	}
	return false
}

// transcript is a canonical text cut into lines; each line's JSON is
// decoded when needed.
type transcript struct {
	lines []string
	tags  []string
	heads map[int]*lineHead
	// values holds the decoded lines that mask changed; dropped the lines
	// an Extra declaration left out.
	values  map[int]any
	dropped map[int]bool
}

// lineHead is what selects a line besides its tag.
type lineHead struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func newTranscript(b []byte) *transcript {
	t := &transcript{lines: strings.Split(string(b), "\n"), heads: map[int]*lineHead{}, values: map[int]any{}, dropped: map[int]bool{}}
	for _, l := range t.lines {
		tag := ""
		if i := strings.IndexAny(l, "{["); i >= 0 {
			tag = strings.TrimSpace(l[:i])
		}
		t.tags = append(t.tags, tag)
	}
	return t
}

// jsonOf is the JSON part of line i ("" when it has none).
func (t *transcript) jsonOf(i int) string {
	if j := strings.IndexAny(t.lines[i], "{["); j >= 0 {
		return t.lines[i][j:]
	}
	return ""
}

func (t *transcript) head(i int) *lineHead {
	if h, ok := t.heads[i]; ok {
		return h
	}
	h := &lineHead{}
	_ = json.Unmarshal([]byte(t.jsonOf(i)), h) // a line that is not a message selects nothing
	t.heads[i] = h
	return h
}

// answers returns the method of the request that the client-lane response
// at line i answers: the nearest earlier request of the other direction
// with the same id ("" when i is no response).
func (t *transcript) answers(i int) string {
	other := map[string]string{TagAgentToEditor: TagEditorToAgent, TagEditorToAgent: TagAgentToEditor}[t.tags[i]]
	h := t.head(i)
	if other == "" || h.Method != "" || len(h.ID) == 0 || h.Result == nil && h.Error == nil {
		return ""
	}
	for j := i - 1; j >= 0; j-- {
		if t.tags[j] != other {
			continue
		}
		if r := t.head(j); r.Method != "" && bytes.Equal(r.ID, h.ID) {
			return r.Method
		}
	}
	return ""
}

// selected lists the lines d selects, in order, to pair them: those that
// hold a value at PairOn if d has one, else at When.
func (t *transcript) selected(d *Deviation) []int {
	if d.pairOn != nil {
		return t.holding(d, d.pairOn, false)
	}
	return t.holding(d, d.when, true)
}

// holding lists the lines of d's tag, method or response that hold a value
// at when (all of them for nil), in order; with equals, d's Equals value
// there if d has one.
func (t *transcript) holding(d *Deviation, when []step, equals bool) []int {
	var out []int
	for i, tag := range t.tags {
		if ok, _ := path.Match(d.Tag, tag); !ok || tag == "" {
			continue
		}
		switch {
		case d.Method != "" && t.head(i).Method != d.Method:
		case d.Response != "" && t.answers(i) != d.Response:
		case when != nil && !hasPath(t.value(i), when):
		case equals && len(d.Equals) > 0 && indexOf(valuesAt(t.value(i), when), d.equals) < 0:
		default:
			out = append(out, i)
		}
	}
	return out
}

// agentName is the agent's name in the initialize response: agentInfo.name
// in ACP v1, info.name in ACP v2 ("" if none).
func (t *transcript) agentName() string {
	for i, tag := range t.tags {
		if tag != TagAgentToEditor || t.answers(i) != "initialize" {
			continue
		}
		type named struct {
			Name string `json:"name"`
		}
		var r struct {
			Result struct {
				AgentInfo named `json:"agentInfo"`
				Info      named `json:"info"`
			} `json:"result"`
		}
		_ = json.Unmarshal([]byte(t.jsonOf(i)), &r)
		return cmp.Or(r.Result.AgentInfo.Name, r.Result.Info.Name)
	}
	return ""
}

// value decodes line i afresh (numbers kept as written).
func (t *transcript) value(i int) any {
	dec := json.NewDecoder(strings.NewReader(t.jsonOf(i)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// mask sets the values at each of steps in line i to golden's and returns
// the concrete paths it changed.
func (t *transcript) mask(i int, golden any, steps [][]step) []string {
	v, ok := t.values[i]
	if !ok {
		v = t.value(i)
	}
	var hits []string
	for _, s := range steps {
		v = maskPath(golden, v, s, "$", func(p string) { hits = append(hits, p) })
	}
	if len(hits) > 0 {
		t.values[i] = v
	}
	return hits
}

// bytes is the text again without the dropped lines, the masked lines
// encoded the canonical way (Normalizer.Line: sorted keys, no HTML
// escaping).
func (t *transcript) bytes() []byte {
	var b strings.Builder
	first := true
	for i, l := range t.lines {
		if t.dropped[i] {
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		v, ok := t.values[i]
		if !ok {
			b.WriteString(l)
			continue
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v) // decoded JSON always encodes
		b.WriteString(l[:len(l)-len(t.jsonOf(i))])
		b.Write(bytes.TrimRight(buf.Bytes(), "\n"))
	}
	return []byte(b.String())
}
