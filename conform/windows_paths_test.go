package conform

import (
	"testing"

	"github.com/airwire/airwire/conform/cassette"
)

// TestWindowsRunsFoldSeparators: a run on Windows writes its paths with
// backslashes (its own, JSON-escaped inside an argument, a relative path
// the agent shows) and the stand-in MCP server with its .exe; its
// canonical form is the one a run on Unix has, and a golden's own
// backslashes fold the same way on both sides. Elsewhere nothing folds.
func TestWindowsRunsFoldSeparators(t *testing.T) {
	defer func(w bool) { cassette.OnWindows = w }(cassette.OnWindows)
	cassette.OnWindows = true
	p := Paths{Cwd: `C:\u\run\work`, Home: `C:\u\run\home`, MCPServer: `C:\u\run\home\bin\mcp-server.exe`}
	line := `{"title":"Write docs\\plans\\a.md","file":"C:\\u\\run\\work\\src\\a.go",` +
		`"arg":"--mcp-config={\"command\":\"C:\\\\u\\\\run\\\\home\\\\bin\\\\mcp-server.exe\"}","code":"printf(\"a\\\\n\")","patch":"diff --git a/C:/u/run/work/N.md b/C:/u/run/work/N.md","rule":"/C:\\u\\run\\home/notes/**"}`
	got, err := NewNormalizer(p).Line([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"arg":"--mcp-config={\"command\":\"<home>/bin/mcp-server\"}","code":"printf(\"a/n\")","file":"<cwd>/src/a.go","patch":"diff --git a<cwd>/N.md b<cwd>/N.md","rule":"/<home>/notes/**","title":"Write docs/plans/<plan-file>.md"}`
	if string(got) != want {
		t.Errorf("canonical:\n got %s\nwant %s", got, want)
	}
	v2 := `{"text":"diff --git \"C:\\\\u\\\\run\\\\work\\\\a.ts\" \"C:\\\\u\\\\run\\\\work\\\\a.ts\"\n--- \"C:\\\\u\\\\run\\\\work\\\\a.ts\"\n-x \"C:\\\\q\"\n"}`
	if got, err := NewNormalizer(p).Line([]byte(v2)); err != nil || string(got) != `{"text":"diff --git <cwd>/a.ts <cwd>/a.ts\n--- <cwd>/a.ts\n-x \"C:/q\"\n"}` {
		t.Errorf("a v2 patch's header: %s (%v)", got, err)
	}
	golden := `{"code":"printf(\"a\\\\n\")","title":"Write docs/plans/a.md"}`
	if f := string(foldEscapedSeparators([]byte(golden))); f != `{"code":"printf(\"a/n\")","title":"Write docs/plans/a.md"}` {
		t.Errorf("golden folded: %s", f)
	}

	cassette.OnWindows = false
	if got, _ := NewNormalizer(p).Line([]byte(`{"title":"Write docs\\plans\\a.md"}`)); string(got) != `{"title":"Write docs\\plans\\a.md"}` {
		t.Errorf("folded off Windows: %s", got)
	}
}
