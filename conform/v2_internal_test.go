package conform

import (
	"strings"
	"testing"
)

// TestMaskSessionTimes: a v2 transcript's session_info_update times are
// masked on both sides of a comparison, other lines and v1 transcripts
// are left as they are.
func TestMaskSessionTimes(t *testing.T) {
	const initV2 = `client editor->agent {"id":0,"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":2}}`
	const initV1 = `client editor->agent {"id":0,"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":1}}`
	info := func(at string) string {
		return `client agent->editor {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"<session-1>","update":{"sessionUpdate":"session_info_update","title":"T","updatedAt":"` + at + `"}}}`
	}
	const list = `client agent->editor {"id":3,"jsonrpc":"2.0","result":{"sessions":[{"updatedAt":"2026-01-01T00:00:00.003Z"}]}}`
	live := strings.Join([]string{initV2, info("<timestamp>"), list}, "\n") + "\n"
	replay := strings.Join([]string{initV2, info("2026-01-01T00:00:00.003Z"), list}, "\n") + "\n"
	if !isV2([]byte(live)) || isV2([]byte(strings.Replace(live, initV2, initV1, 1))) {
		t.Fatal("isV2 does not tell the versions apart")
	}
	a, b := string(MaskSessionTimes([]byte(live))), string(MaskSessionTimes([]byte(replay)))
	if a != b || !strings.Contains(a, `"updatedAt":"<updated-at>"`) || !strings.Contains(a, list+"\n") {
		t.Errorf("masked:\n%s\n%s", a, b)
	}
}
