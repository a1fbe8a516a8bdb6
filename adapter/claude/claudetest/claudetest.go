// Package claudetest makes the frames of CLI lines written in tests.
package claudetest

import (
	"strings"

	"github.com/airwire/airwire/adapter/claude"
)

// Frame is the frame of a CLI line as a Process hands it on; a line that
// names no type is a system line. A line that is not a JSON object
// panics: it is a mistake of the test.
func Frame[L ~string | ~[]byte](line L) *claude.Frame {
	s := string(line)
	if !strings.Contains(s, `"type":`) {
		s = `{"type":"system",` + strings.TrimPrefix(strings.TrimSpace(s), "{")
	}
	f, err := claude.DecodeFrame([]byte(s))
	if err != nil {
		panic(err)
	}
	return f
}
