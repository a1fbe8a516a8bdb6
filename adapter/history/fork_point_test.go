package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseForkPoint(t *testing.T) {
	cases := []struct {
		meta string
		ok   bool
		want ForkPoint
	}{
		{`{"jetbrains":{"air":{"fork":{"version":1,"messageId":" msg-1 "}}}}`, true, ForkPoint{MessageID: "msg-1"}},
		{`{"jetbrains":{"air":{"fork":{"version":1,"messageId":"m","messageFingerprint":"sha256:ab","messageOccurrence":2}}}}`, true,
			ForkPoint{MessageID: "m", Fingerprint: "sha256:ab", Occurrence: 2}},
		{`{"jetbrains":{"air":{"fork":{"version":1,"messageId":"m","messageOccurrence":1.5}}}}`, true, ForkPoint{MessageID: "m"}},
		{`{"jetbrains":{"air":{"fork":{"version":1,"messageId":"m","messageOccurrence":0}}}}`, true, ForkPoint{MessageID: "m"}},
		{`{"jetbrains":{"air":{"fork":{"version":2,"messageId":"m"}}}}`, false, ForkPoint{}},
		{`{"jetbrains":{"air":{"fork":{"version":"1","messageId":"m"}}}}`, false, ForkPoint{}},
		{`{"jetbrains":{"air":{"fork":{"version":1,"messageId":"  "}}}}`, false, ForkPoint{}},
		{`{"jetbrains":{"air":{}}}`, false, ForkPoint{}},
		{`not json`, false, ForkPoint{}},
	}
	for _, c := range cases {
		got, ok := ParseForkPoint(json.RawMessage(c.meta))
		if ok != c.ok || got != c.want {
			t.Errorf("ParseForkPoint(%s) = %+v, %v; want %+v, %v", c.meta, got, ok, c.want, c.ok)
		}
	}
}

// forkPointTranscript has two branches from the first answer: the active
// one (u2 → a2 "Same.") and an older one (u3 → a3 "Same."), so the text
// "Same." occurs once on each branch; a1 "Hi." is shared.
func forkPointTranscript(t *testing.T) string {
	t.Helper()
	rows := []string{
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"S","message":{"role":"user","content":"Hello."}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"S","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"Hi."}]}}`,
		`{"type":"user","uuid":"u3","parentUuid":"a1","sessionId":"S","message":{"role":"user","content":"Old question."}}`,
		`{"type":"assistant","uuid":"a3","parentUuid":"u3","sessionId":"S","message":{"id":"msg_old","role":"assistant","content":[{"type":"text","text":"Same."}]}}`,
		`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"S","message":{"role":"user","content":"New question."}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"u2","sessionId":"S","message":{"id":"msg_2","role":"assistant","content":[{"type":"text","text":"Same."}]}}`,
		`{"type":"assistant","uuid":"side","parentUuid":"u2","sessionId":"S","isSidechain":true,"message":{"id":"msg_side","role":"assistant","content":[{"type":"text","text":"Side."}]}}`,
	}
	p := filepath.Join(t.TempDir(), "S.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(rows, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestResolveForkPointOrder(t *testing.T) {
	path := forkPointTranscript(t)
	live := func(id string) string {
		if id == "msg_2" {
			return "live-row"
		}
		return ""
	}
	same := fingerprint("Same.")
	cases := []struct {
		name string
		p    ForkPoint
		live func(string) string
		want string
		ok   bool
	}{
		{"live first", ForkPoint{MessageID: "msg_2"}, live, "live-row", true},
		{"active history", ForkPoint{MessageID: "msg_2"}, nil, "a2", true},
		{"segment suffix", ForkPoint{MessageID: "msg_1:segment:3"}, nil, "a1", true},
		{"other branch by id", ForkPoint{MessageID: "msg_old"}, nil, "a3", true},
		{"sidechain never", ForkPoint{MessageID: "msg_side"}, nil, "", false},
		{"unique fingerprint", ForkPoint{MessageID: "gone", Fingerprint: fingerprint("Hi."), Occurrence: 7}, nil, "a1", true},
		{"fingerprint needs occurrence", ForkPoint{MessageID: "gone", Fingerprint: fingerprint("Hi.")}, nil, "", false},
		{"ambiguous occurrence", ForkPoint{MessageID: "gone", Fingerprint: same, Occurrence: 1}, nil, "", false},
		{"no match", ForkPoint{MessageID: "gone", Fingerprint: same, Occurrence: 2}, nil, "", false},
	}
	for _, c := range cases {
		got, ok, err := ResolveForkPoint(path, c.p, c.live)
		if err != nil || got != c.want || ok != c.ok {
			t.Errorf("%s: ResolveForkPoint = %q, %v, %v; want %q, %v", c.name, got, ok, err, c.want, c.ok)
		}
	}
}

func TestForkAtKeepsTheBranchUpToThePoint(t *testing.T) {
	src := forkPointTranscript(t)
	config := t.TempDir()
	dir := filepath.Join(config, "projects", "-p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(src)
	id := "11111111-2222-4333-8444-555555555555"
	data = []byte(strings.ReplaceAll(string(data), `"sessionId":"S"`, `"sessionId":"`+id+`"`))
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	newID, err := ForkAt(config, id, "a3", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(filepath.Join(dir, newID+".jsonl"))
	var kept []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			Type       string `json:"type"`
			ForkedFrom struct {
				MessageUUID string `json:"messageUuid"`
			} `json:"forkedFrom"`
		}
		_ = json.Unmarshal([]byte(line), &r)
		if r.ForkedFrom.MessageUUID != "" {
			kept = append(kept, r.ForkedFrom.MessageUUID)
		}
	}
	if strings.Join(kept, ",") != "u1,a1,u3,a3" {
		t.Fatalf("fork at a3 kept rows %v, want u1,a1,u3,a3", kept)
	}
}
