package agentbench

import (
	"bufio"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/deps"
)

// frameKind names a stream frame by its type and its event's type.
func frameKind(f map[string]any) string {
	if ev, ok := f["event"].(map[string]any); ok {
		return f["type"].(string) + "/" + ev["type"].(string)
	}
	return f["type"].(string)
}

func TestStreamScriptStreamsTheDeltasOfOneTextBlock(t *testing.T) {
	const turns, deltas = 3, 50
	script, err := StreamScript(turns, deltas)
	if err != nil {
		t.Fatal(err)
	}
	if len(script.Turns) != turns {
		t.Fatalf("%d turns, want %d", len(script.Turns), turns)
	}
	for ti, turn := range script.Turns {
		var kinds []string
		var streamed, consolidated strings.Builder
		for _, st := range turn.Steps {
			if st.Emit == nil {
				t.Fatalf("turn %d: a step that is not emit: %+v", ti, st)
			}
			kinds = append(kinds, frameKind(st.Emit))
			if isTextDelta(st.Emit) {
				streamed.WriteString(st.Emit["event"].(map[string]any)["delta"].(map[string]any)["text"].(string))
			}
			if st.Emit["type"] == "assistant" {
				for _, blk := range st.Emit["message"].(map[string]any)["content"].([]any) {
					consolidated.WriteString(blk.(map[string]any)["text"].(string))
				}
			}
		}
		want := []string{"stream_event/message_start", "stream_event/content_block_start"}
		for range deltas {
			want = append(want, "stream_event/content_block_delta")
		}
		want = append(want, "assistant", "stream_event/content_block_stop", "stream_event/message_delta", "stream_event/message_stop")
		if !slices.Equal(kinds, want) {
			t.Errorf("turn %d frames:\n%v\nwant\n%v", ti, kinds, want)
		}
		if streamed.String() != consolidated.String() || !strings.HasPrefix(streamed.String(), Delta(0)+Delta(1)) {
			t.Errorf("turn %d: streamed %q, consolidated %q", ti, streamed.String(), consolidated.String())
		}
	}
}

// The text_delta frames have the fields of the real CLI's (a golden
// cassette recorded from Claude Code 2.1.318), but uuid and session_id,
// which the fake CLI adds to every emitted frame.
func TestStreamScriptDeltaFramesLookLikeTheRealCLIs(t *testing.T) {
	real := realTextDelta(t)
	script, err := StreamScript(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	var ours map[string]any
	for _, st := range script.Turns[0].Steps {
		if isTextDelta(st.Emit) {
			ours = st.Emit
			break
		}
	}
	got := slices.Sorted(maps.Keys(ours))
	want := slices.DeleteFunc(slices.Sorted(maps.Keys(real)), func(k string) bool { return k == "uuid" || k == "session_id" })
	if !slices.Equal(got, want) {
		t.Errorf("frame keys %v, the real CLI's (less uuid, session_id) %v", got, want)
	}
	gotEv := slices.Sorted(maps.Keys(ours["event"].(map[string]any)))
	wantEv := slices.Sorted(maps.Keys(real["event"].(map[string]any)))
	if !slices.Equal(gotEv, wantEv) {
		t.Errorf("event keys %v, the real CLI's %v", gotEv, wantEv)
	}
}

// realTextDelta returns the first text_delta frame the CLI wrote in a
// golden cassette.
func realTextDelta(t *testing.T) map[string]any {
	t.Helper()
	wd, _ := os.Getwd()
	root, err := deps.ModuleRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "goldens", "*", "plain.cassette"))
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var line struct {
				Dir string         `json:"dir"`
				Msg map[string]any `json:"msg"`
			}
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Dir == "cli" && isTextDelta(line.Msg) {
				f.Close()
				return line.Msg
			}
		}
		f.Close()
	}
	t.Fatal("no golden cassette holds a text_delta frame of the CLI")
	return nil
}
