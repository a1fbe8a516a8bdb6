package history

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// Resumed is what a resume reads from the end of a stored transcript.
type Resumed struct {
	// Model is the model of the last real assistant response ("" when
	// unknown): the CLI restores a resumed session with it.
	Model string
	// PermissionMode is the mode of the last prompt ("" when unknown).
	PermissionMode string
}

var placeholderModelRE = lazyre.New(`^<[^>]+>$`)

// concreteModel is a model name; "" for a missing or a synthetic `<…>` one.
func concreteModel(m string) string {
	m = strings.TrimSpace(m)
	if m == "" || placeholderModelRE.MatchString(m) {
		return ""
	}
	return m
}

// Model is the model of the last real assistant message of msgs, as
// `session/load` passes it to the CLI ("" when none).
func Model(msgs []Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Type != "assistant" {
			continue
		}
		var api apiMessage
		if json.Unmarshal(msgs[i].Message, &api) != nil {
			continue
		}
		if m := concreteModel(api.Model); m != "" {
			return m
		}
	}
	return ""
}

// tailChunk is the size of one backward read.
const tailChunk = 64 << 10

// ReadTail reads the model and the permission mode of a resumed session
// from the end of its transcript, backwards until both are known, so the
// cost does not grow with the session (the reference's readResumedTail).
// With withModel false it looks for the mode only. The mode search stops
// at the first prompt row with a mode, or at the last human prompt; a
// plan mode recorded before a later plan exit is not current.
func ReadTail(path string, withModel bool) (Resumed, error) {
	f, err := os.Open(path)
	if err != nil {
		return Resumed{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Resumed{}, err
	}
	scan := tailScan{withModel: withModel}
	err = eachLineBackwards(f, st.Size(), scan.visit)
	return scan.tail, err
}

// eachLineBackwards calls visit with each line of r (size bytes), last
// first, until visit returns true.
func eachLineBackwards(r io.ReaderAt, size int64, visit func([]byte) bool) error {
	var pending []byte // the start of the line after the chunk, in file order
	for end := size; end > 0; {
		start := max(0, end-tailChunk)
		chunk := make([]byte, end-start)
		if _, err := r.ReadAt(chunk, start); err != nil && err != io.EOF {
			return err
		}
		for at := bytes.LastIndexByte(chunk, '\n'); at >= 0; at = bytes.LastIndexByte(chunk, '\n') {
			if visit(append(chunk[at+1:len(chunk):len(chunk)], pending...)) {
				return nil
			}
			pending = nil
			chunk = chunk[:at]
		}
		pending = append(chunk, pending...)
		end = start
	}
	visit(pending)
	return nil
}

// tailScan keeps what a resume needs while lines are visited backwards.
type tailScan struct {
	withModel  bool
	tail       Resumed
	modeDone   bool
	planExited bool
}

// tailRecord is the part of a row the tail scan reads.
type tailRecord struct {
	Type           string `json:"type"`
	IsSidechain    bool   `json:"isSidechain"`
	PermissionMode any    `json:"permissionMode"`
	Message        struct {
		Model any `json:"model"`
	} `json:"message"`
	Attachment struct {
		Type string `json:"type"`
	} `json:"attachment"`
	Origin struct {
		Kind string `json:"kind"`
	} `json:"origin"`
}

func (s *tailScan) visit(line []byte) bool {
	var rec *tailRecord
	parsed := false
	// Most lines have no marker of interest; the check skips their parse.
	record := func(marker string) *tailRecord {
		if !bytes.Contains(line, []byte(marker)) {
			return nil
		}
		if !parsed {
			parsed = true
			var r tailRecord
			if json.Unmarshal(line, &r) == nil && !r.IsSidechain {
				rec = &r
			}
		}
		return rec
	}
	if s.withModel && s.tail.Model == "" {
		if r := record(`"assistant"`); r != nil && r.Type == "assistant" {
			m, _ := r.Message.Model.(string)
			s.tail.Model = concreteModel(m)
		}
	}
	if !s.modeDone {
		s.visitForMode(record)
	}
	return (!s.withModel || s.tail.Model != "") && s.modeDone
}

func (s *tailScan) visitForMode(record func(string) *tailRecord) {
	if r := record(`"permissionMode"`); r != nil && r.Type == "user" {
		if mode, ok := r.PermissionMode.(string); ok && strings.TrimSpace(mode) != "" {
			mode = strings.TrimSpace(mode)
			s.modeDone = true
			if !(s.planExited && mode == "plan") {
				s.tail.PermissionMode = mode
			}
			return
		}
	}
	if r := record(`"plan_mode_exit"`); r != nil && r.Attachment.Type == "plan_mode_exit" {
		s.planExited = true
		return
	}
	if r := record(`"human"`); r != nil && r.Type == "user" && r.Origin.Kind == "human" {
		s.modeDone = true
	}
}
