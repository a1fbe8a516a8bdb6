package adapter

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// Claude Code writes hook callbacks right behind its set_model answer. The
// reference's continuation of the answer runs before it reads them, so
// its get_context_usage goes out before their answers; so does ours.
func TestAModelSwitchAsksForContextUsageBeforeAnsweringLaterHooks(t *testing.T) {
	t.Setenv("ADAPTER_TEST_CLI_INIT", `{"models":[{"value":"default","displayName":"Default","description":"Opus"},`+
		`{"value":"sonnet","displayName":"Sonnet","description":"Sonnet"}]}`)
	t.Setenv("ADAPTER_TEST_SWITCH_HOOKS", "1")
	log := t.TempDir() + "/cli.log"
	t.Setenv("ADAPTER_TEST_CLI_LOG", log)
	e := startAgent(t, "plain")
	sid := e.openSession()
	const switches = 4 // each one a chance for the hooks' answers to go first
	var b []byte
	for i := range switches {
		model := []string{"sonnet", "default"}[i%2]
		e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/set_config_option","params":{"sessionId":%q,"configId":"model","value":%q}}`, 2+i, sid, model))
		if r := e.reply(float64(2 + i)); r["result"] == nil {
			t.Fatalf("set model %s = %v", model, r)
		}
		// the next switch comes once this one's hooks are answered
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if b, _ = os.ReadFile(log); strings.Count(string(b), "control_response error") == 2*(i+1) && strings.Count(string(b), "get_context_usage") == 2+i {
				break
			}
		}
	}
	segments := strings.Split(string(b), "control_request set_model\n")
	if len(segments) != 1+switches {
		t.Fatalf("%d set_model requests, want %d:\n%s", len(segments)-1, switches, b)
	}
	for i, seg := range segments[1:] {
		lines := strings.Split(seg, "\n")
		usage, hook := indexOf(lines, "control_request get_context_usage"), indexOf(lines, "control_response error")
		if usage < 0 || hook < 0 || usage > hook {
			t.Fatalf("after set_model %d, get_context_usage is line %d and the first hook answer line %d; want the request first:\n%s", i+1, usage, hook, b)
		}
	}
}

// indexOf is the index of the first of lines that is line, or -1.
func indexOf(lines []string, line string) int {
	for i, l := range lines {
		if l == line {
			return i
		}
	}
	return -1
}
