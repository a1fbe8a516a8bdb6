package adapter

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// cliLogLine names a line the test CLI read: its type, and the subtype of
// a control request or response.
func cliLogLine(line []byte) string {
	var m struct {
		Type    string `json:"type"`
		Request struct {
			Subtype  string
			Settings json.RawMessage
		} `json:"request"`
		Response struct{ Subtype string } `json:"response"`
	}
	_ = json.Unmarshal(line, &m)
	s := strings.TrimRight(m.Type+" "+m.Request.Subtype+m.Response.Subtype, " ")
	if m.Request.Subtype == "apply_flag_settings" {
		s += " " + string(m.Request.Settings)
	}
	return s
}

// An editor that answers its open permission request cancelled in the same
// instant as it sends session/cancel (Zed's stop button): the CLI gets the
// answer ("Tool use aborted") before the interrupt, as from the reference,
// so it records the tool call as failed by the permission request rather
// than rejected by the user.
func TestCancelledAnswerReachesTheCLIBeforeTheInterrupt(t *testing.T) {
	for i := range 10 {
		log := fmt.Sprintf("%s/cli-%d.log", t.TempDir(), i)
		t.Setenv("ADAPTER_TEST_CLI_LOG", log)
		e := startAgent(t, "ask-then-wait") // its turn ends only at the interrupt
		sid := e.openSession()
		e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, sid))
		e.replyAfter(2, func(m map[string]any) {
			if m["method"] == "session/request_permission" {
				e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"outcome":{"outcome":"cancelled"}}}`+"\n"+
					`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":%q}}`, m["id"], sid))
			}
		})
		var lines []string
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			b, _ := os.ReadFile(log)
			if lines = strings.Split(strings.TrimSpace(string(b)), "\n"); slices.Contains(lines, "control_request interrupt") {
				break
			}
		}
		answer := slices.Index(lines, "control_response error")
		interrupt := slices.Index(lines, "control_request interrupt")
		if answer < 0 || interrupt < 0 || answer > interrupt {
			t.Fatalf("run %d: the CLI read %q; want the aborted answer before the interrupt", i, lines)
		}
	}
}

// An editor that closes the session with a permission open, settling it
// cancelled in the same instant (closing the tab): the CLI's tool result
// for the aborted answer comes while the close is under way and reaches
// no one, so the tool call ends as the close reports it, as from the
// reference (close-with-permission-open, live).
func TestCloseWithPermissionOpenIgnoresTheCLIsLateResult(t *testing.T) {
	e := startAgent(t, "ask-then-result")
	sid := e.openSession()
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, sid))
	var updates []string
	keep := func(m map[string]any) {
		if b, _ := json.Marshal(m); strings.Contains(string(b), "tool_call_update") {
			updates = append(updates, string(b))
		}
	}
	e.replyAfter(2, func(m map[string]any) {
		keep(m)
		if m["method"] == "session/request_permission" {
			e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"session/close","params":{"sessionId":%q}}`+"\n"+
				`{"jsonrpc":"2.0","id":%v,"result":{"outcome":{"outcome":"cancelled"}}}`, sid, m["id"]))
		}
	})
	e.replyAfter(3, keep)
	for _, u := range updates {
		if strings.Contains(u, "Tool permission request failed") {
			t.Errorf("the CLI's result after the close reached the editor: %s", u)
		}
	}
}
