package conform

import (
	"bytes"
	"errors"
	"path"
)

// Comparing the editor lane only (Options.EditorLane, airwire conform
// --editor-lane) judges an adapter by what an editor sees: the client
// lines of the canonical transcript (TagEditorToAgent, TagAgentToEditor)
// against the golden's, with the masks and declared deviations that apply
// to those lines. The CLI lane, and whatever else a golden holds for the
// CLI and model lanes, is not compared, and the checks that read it are
// skipped: the CLI lane's presence (CheckLanes), a replayed cassette's
// applicability (CassetteError) and the declarations whose tag is a CLI
// lane's (they would mask nothing: ErrDeviationGone). What looks at the
// adapter's own process (its exit, the end of its process group) and the
// validation of its client-lane messages still hold. It serves `airwire
// play`, the stand-in agent that plays a scenario's CLI side itself, as
// the adapter under test.

// ErrEditorLaneUpdate means a golden update was asked for while comparing
// the editor lane only: a golden holds every lane.
var ErrEditorLaneUpdate = errors.New("goldens hold every lane: they are not recorded while comparing the editor lane only")

// EditorLane returns the client lines of a canonical transcript (tagged
// TagEditorToAgent or TagAgentToEditor), in order, each ending in a
// newline. The canonical form puts the client lane first, so a line of the
// result has the same number as in the whole transcript (a golden's line
// numbers still name the golden file's lines).
func EditorLane(canon []byte) []byte {
	var out bytes.Buffer
	for _, l := range bytes.SplitAfter(canon, []byte("\n")) {
		if isEditorLine(l) {
			out.Write(l)
			if !bytes.HasSuffix(l, []byte("\n")) {
				out.WriteByte('\n')
			}
		}
	}
	return out.Bytes()
}

// isEditorLine reports whether a canonical line is a client-lane line.
func isEditorLine(l []byte) bool {
	return bytes.HasPrefix(l, []byte(TagEditorToAgent+" ")) || bytes.HasPrefix(l, []byte(TagAgentToEditor+" "))
}

// EditorDeviations keeps the declarations that can select a client-lane
// line: those whose Tag pattern matches TagEditorToAgent or
// TagAgentToEditor. A declaration for a CLI lane ("cli:* agent->cli")
// has nothing to mask when only the editor lane is compared.
func EditorDeviations(devs []Deviation) []Deviation {
	var out []Deviation
	for _, d := range devs {
		for _, tag := range []string{TagEditorToAgent, TagAgentToEditor} {
			if ok, _ := path.Match(d.Tag, tag); ok {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// checkEditorLane requires at least one client line (CheckLanes for the
// editor lane only).
func checkEditorLane(canon []byte) error {
	if len(EditorLane(canon)) == 0 {
		return CheckLanes(canon) // says which lanes are missing
	}
	return nil
}
