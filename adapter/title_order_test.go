package adapter

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// The title request of a prompt is written before the editor's next
// message is handled, as the reference's is: a cancel right behind the
// prompt reaches the CLI after it.
func TestAPromptsTitleRequestGoesBeforeACancelRightBehindIt(t *testing.T) {
	for i := range 30 { // each session a chance for the cancel to go first
		log := fmt.Sprintf("%s/cli-%d.log", t.TempDir(), i)
		t.Setenv("ADAPTER_TEST_CLI_LOG", log)
		e := startAgent(t, "interruptible")
		sid := e.openSession()
		e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"Count to one hundred, slowly."}]}}`, sid))
		e.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":%q}}`, sid))
		if r := e.reply(2); r["result"] == nil {
			t.Fatalf("prompt = %v", r)
		}
		var b []byte
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if b, _ = os.ReadFile(log); strings.Contains(string(b), "generate_session_title") && strings.Contains(string(b), "cancel_async_message") {
				break
			}
		}
		lines := strings.Split(string(b), "\n")
		title, cancel := indexOf(lines, "control_request generate_session_title"), indexOf(lines, "control_request cancel_async_message")
		if title < 0 || cancel < 0 || title > cancel {
			t.Fatalf("session %d: the title request is line %d and the cancel line %d; want the title first:\n%s", i, title, cancel, b)
		}
	}
}
