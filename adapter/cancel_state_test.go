package adapter

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/internal/testroot"
)

// TestCancelDropsToolCallFields replays cancel-mid-permission: after the
// cancel (the agent's interrupt in the cassette) the rejected Bash call's
// final update goes out whole, repeating its terminal content, as the
// golden's does.
func TestCancelDropsToolCallFields(t *testing.T) {
	dir := filepath.Join(testroot.Root(t), "goldens", "cancel-mid-permission")
	initCaps, want := goldenTerminalExits(t, filepath.Join(dir, "zed.golden"))
	cas, err := cassette.Load(filepath.Join(dir, "zed.cassette"))
	if err != nil {
		t.Fatal(err)
	}
	tools := toolcall.NewSession(caps.Parse(initCaps), "<cwd>")
	var got []string
	for _, ev := range cas.Processes[0].Events {
		if ev.Dir == cassette.DirAgent && bytes.Contains(ev.Msg, []byte(`"subtype":"interrupt"`)) {
			tools.Cancelled()
		}
		if ev.Dir != cassette.DirCLI || ev.Msg == nil {
			continue
		}
		for _, u := range tools.Frame(ev.Msg) {
			if u.Meta != nil && u.Meta.TerminalExit != nil {
				got = append(got, canonical(t, u.JSON()))
			}
		}
	}
	if len(want) != 1 || !json.Valid([]byte(want[0])) || !slices.Equal(got, want) {
		t.Errorf("final updates\n got %q\nwant %q", got, want)
	}
}
