package scenario

import (
	"bytes"
	"testing"
)

// TestWorkspaceFiles: files keep their text; a generated file is its
// base64 bytes (not UTF-8 here) followed by the repeated text.
func TestWorkspaceFiles(t *testing.T) {
	s := &Scenario{
		Files: map[string]string{"a.txt": "a\r\n"},
		GeneratedFiles: map[string]FileBytes{
			"latin1.txt": {Base64: "Y2Fm6Qo="},
			"big.txt":    {Base64: "b2xkCg==", Repeat: "ab\n", Times: 4},
		},
	}
	got, err := s.WorkspaceFiles()
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string][]byte{
		"a.txt":      []byte("a\r\n"),
		"latin1.txt": []byte("caf\xe9\n"),
		"big.txt":    []byte("old\nab\nab\nab\nab\n"),
	} {
		if !bytes.Equal(got[p], want) {
			t.Errorf("%s = %q, want %q", p, got[p], want)
		}
	}
	if len(got) != 3 {
		t.Errorf("%d files, want 3", len(got))
	}
}
