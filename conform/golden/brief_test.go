package golden_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/golden"
)

// One changed character in a transcript of 15 KB JSON lines prints the
// JSON path and a short window of the value around the change, never the
// whole lines: the error stays under 2 KB however long the lines are.
func TestMismatchDiffIsBounded(t *testing.T) {
	big := func(mid string) string {
		b, _ := json.Marshal(map[string]any{"id": 1, "result": map[string]any{
			"text": strings.Repeat("a", 7000) + mid + strings.Repeat("z", 7000)}})
		return "client agent->editor " + string(b)
	}
	ctx := "cli:1 agent->cli " + `{"type":"user","pad":"` + strings.Repeat("p", 9000) + `"}`
	want := ctx + "\n" + big("MIDDLE") + "\n" + ctx + "\n"
	got := ctx + "\n" + big("MUDDLE") + "\n" + ctx + "\n"
	e := golden.Compare("x.golden", []byte(want), []byte(got))
	text := e.Error()
	if len(text) > 2048 {
		t.Fatalf("the error is %d bytes, want at most 2048:\n%.3000s", len(text), text)
	}
	for _, s := range []string{"JSON path $.result.text", "aMIDDLEz", "aMUDDLEz", "\n-client agent->editor", "\n+client agent->editor", "@@ golden line 2, actual line 2 @@"} {
		if !strings.Contains(text, s) {
			t.Errorf("the error lacks %q:\n%s", s, text)
		}
	}
}

// Clip keeps a short value whole and cuts a long one to Window bytes on
// each side of the offset, saying how much it cut.
func TestClip(t *testing.T) {
	if got := golden.Clip("short", 2); got != "short" {
		t.Errorf("Clip(short) = %q", got)
	}
	long := strings.Repeat("x", 1000) + "Y" + strings.Repeat("x", 1000)
	got := golden.Clip(long, 1000)
	if !strings.HasPrefix(got, "…(880 bytes)") || !strings.HasSuffix(got, "…(881 more bytes)") || !strings.Contains(got, "xYx") {
		t.Errorf("Clip(long) = %q", got)
	}
	if len(got) > 2*golden.Window+40 {
		t.Errorf("Clip(long) is %d bytes", len(got))
	}
}
