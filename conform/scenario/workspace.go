package scenario

import (
	"bytes"
	"encoding/base64"
	"fmt"
)

// MaxGeneratedFileBytes bounds one generated workspace file, so that a
// typo in times cannot fill the disk.
const MaxGeneratedFileBytes = 4 << 20

// FileBytes is the content of a generated workspace file: the bytes that
// Base64 (standard encoding) decodes to, then Repeat Times times.
//
//	generatedFiles:
//	  latin1.txt: {base64: "Y2Fm6Qo="}                      # "caf\xe9\n"
//	  big.txt: {base64: "b2xkCg==", repeat: "filler\n", times: 150000}
type FileBytes struct {
	Base64 string `yaml:"base64,omitempty" json:"base64,omitempty"`
	Repeat string `yaml:"repeat,omitempty" json:"repeat,omitempty"`
	Times  int    `yaml:"times,omitempty" json:"times,omitempty"`
}

// Bytes is the file's content. It fails on Base64 that does not decode, a
// negative Times, Times without Repeat (or Repeat without Times), and a
// content over MaxGeneratedFileBytes.
func (f FileBytes) Bytes() ([]byte, error) {
	head, err := base64.StdEncoding.DecodeString(f.Base64)
	if err != nil {
		return nil, fmt.Errorf("base64: %w", err)
	}
	if f.Times < 0 || (f.Times > 0) != (f.Repeat != "") {
		return nil, fmt.Errorf("repeat %q times %d: give both, times at least 1", f.Repeat, f.Times)
	}
	if size := len(head) + len(f.Repeat)*f.Times; size > MaxGeneratedFileBytes {
		return nil, fmt.Errorf("%d bytes, more than %d", size, MaxGeneratedFileBytes)
	}
	return append(head, bytes.Repeat([]byte(f.Repeat), f.Times)...), nil
}

// WorkspaceFiles is the workspace fixture: Files and GeneratedFiles,
// relative path → content.
func (s *Scenario) WorkspaceFiles() (map[string][]byte, error) {
	out := make(map[string][]byte, len(s.Files)+len(s.GeneratedFiles))
	for p, text := range s.Files {
		out[p] = []byte(text)
	}
	for p, f := range s.GeneratedFiles {
		b, err := f.Bytes()
		if err != nil {
			return nil, fmt.Errorf("generatedFiles: %s: %w", p, err)
		}
		out[p] = b
	}
	return out, nil
}
