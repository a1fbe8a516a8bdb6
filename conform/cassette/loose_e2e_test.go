package cassette_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"os/exec"

	"github.com/airwire/airwire/conform/cassette"
)

var _ = Describe("airwire agent on the loose player", func() {
	It("plays the recorded answer to a prompt of another text as agent_message_chunk", func() {
		if runtime.GOOS == "windows" {
			Skip("the CLI wrapper is a shell script")
		}
		cpath, err := filepath.Abs(filepath.Join("..", "..", "goldens", "two-prompts-queued", "zed.cassette"))
		Expect(err).NotTo(HaveOccurred())
		d := newRunDirs()
		wrapper := filepath.Join(d.root, "claude")
		Expect(os.WriteFile(wrapper, []byte("#!/bin/sh\nexec '"+airwireBin+"' fake-cli \"$@\"\n"), 0o755)).To(Succeed())
		cmd := exec.Command(airwireBin, "agent")
		cmd.Dir = d.cwd
		cmd.Env = d.env("CLAUDE_CODE_EXECUTABLE="+wrapper, cassette.EnvReplay+"="+cpath, cassette.EnvReplayLoose+"=1",
			cassette.EnvReplayState+"="+filepath.Join(d.root, "spawns"))
		c := startACP(cmd)
		c.call("initialize", map[string]any{"protocolVersion": 1, "clientInfo": map[string]any{"name": "airwire-test", "version": "0"},
			"clientCapabilities": map[string]any{"fs": map[string]any{"readTextFile": false, "writeTextFile": false}, "terminal": false}})
		sess := c.call("session/new", map[string]any{"cwd": d.cwd, "mcpServers": []any{}})
		sid, _ := sess["sessionId"].(string)
		res := c.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "Something the recording never saw"}}})
		Expect(res["stopReason"]).To(Equal("end_turn"))
		Expect(agentText(c.messages())).To(ContainSubstring("Listing: a.ts, b.ts."))
		c.closeAndWait()
	})
})

// agentText joins the text of every agent_message_chunk.
func agentText(msgs []map[string]any) string {
	var b strings.Builder
	for _, m := range msgs {
		params, _ := m["params"].(map[string]any)
		update, _ := params["update"].(map[string]any)
		if update["sessionUpdate"] != "agent_message_chunk" {
			continue
		}
		content, _ := update["content"].(map[string]any)
		text, _ := content["text"].(string)
		b.WriteString(text)
	}
	return b.String()
}
