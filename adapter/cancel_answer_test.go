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
		Type     string                   `json:"type"`
		Request  struct{ Subtype string } `json:"request"`
		Response struct{ Subtype string } `json:"response"`
	}
	_ = json.Unmarshal(line, &m)
	return strings.TrimRight(m.Type+" "+m.Request.Subtype+m.Response.Subtype, " ")
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
