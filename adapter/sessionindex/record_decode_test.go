package sessionindex

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// recordSeeds are record lines of every form: what the CLI writes, and
// what encoding/json treats specially (case-folded keys, escapes, nulls,
// wrong types, duplicates, invalid text).
var recordSeeds = []string{
	`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w/p","sessionId":"s","version":"2.1.318","type":"user","message":{"role":"user","content":"hello"},"uuid":"u","timestamp":"2026-05-01T10:00:00.000Z"}`,
	`{"type":"assistant","message":{"model":"claude-sonnet-4-5","stop_reason":"end_turn","content":[{"type":"text","text":"hi"}]},"timestamp":"2026-05-01T10:00:01.000Z"}`,
	`{"type":"assistant","message":{"model":"m","stop_reason":null,"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls -1e+5"}}]}}`,
	`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"a\nb \"q\" \u00e9 \ud83d\ude00"}]},"isMeta":true}`,
	`{"type":"system","subtype":"turn_duration","durationMs":1234.5e-3,"isCompactSummary":false,"isApiErrorMessage":true}`,
	`  {"type" : "user" , "cwd" : "/a\/b" , "message" : null }  `,
	`{"type":"user","Type":"assistant"}`,
	`{"TYPE":"x"}`,
	`{"typ\u0065":"x"}`,
	`{"ſubtype":"x"}`,
	`{"type":"a","type":"b","type":null}`,
	`{"message":{"model":"a"},"message":{"content":1}}`,
	`{"message":{"model":"a"},"message":null}`,
	`{"message":"text"}`,
	`{"message":[1,2]}`,
	`{"message":{"model":5}}`,
	`{"message":{"stop_reason":"x","stop_reason":null}}`,
	`{"message":{"Model":"a"}}`,
	`{"type":5}`,
	`{"isMeta":"true"}`,
	`{"isMeta":null,"isSidechain":true}`,
	`{"cwd":"caf\xc3\xa9 \xff"}`,
	`{"cwd":"a\u0000b"}`,
	`{"a":[],"b":{},"c":[{}],"d":-0.5,"e":0,"f":-1E+2,"g":true,"h":false}`,
	`{"type":"user"}x`,
	`{"type":"user"`,
	`{"type":"user",}`,
	`{"type":"us` + "\x01" + `er"}`,
	`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":.5}`, `{"a":1e}`, `{"a":tru}`, `{"a":nul}`, `{"a":"\x"}`, `{"a":"\u12"}`,
	`{"a" "b"}`, `{"a":1 "b":2}`, `{,}`, `{}`, `[]`, `null`, `"x"`, `1`, ``, `   `, `{`, `}`,
	`{"a":[1,]}`, `{"a":[,1]}`, `{"a":[1 2]}`,
	`{"a":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
	`{"a":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `,"type":"deep"}`,
}

// checkRecord fails when parseEntry and encoding/json disagree on line.
func checkRecord(t *testing.T, line string) {
	t.Helper()
	e, m, ok := parseEntry(line)
	we, wm, wok := parseEntryJSON(line)
	if ok != wok || e != we || m.Model != wm.Model || !bytes.Equal(m.Content, wm.Content) ||
		(m.StopReason == nil) != (wm.StopReason == nil) || (m.StopReason != nil && *m.StopReason != *wm.StopReason) {
		t.Fatalf("line %q:\n got %v %+v %+v\nwant %v %+v %+v", line, ok, e, m, wok, we, wm)
	}
}

func TestDecodeRecordAgreesWithEncodingJSON(t *testing.T) {
	for _, line := range recordSeeds {
		checkRecord(t, line)
	}
}

// TestDecodeRecordAgreesOnDamagedRecords cuts and corrupts real record
// lines everywhere: each cut and each changed byte is decided the same.
func TestDecodeRecordAgreesOnDamagedRecords(t *testing.T) {
	data, err := os.ReadFile("../history/testdata/replay-tools/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := append(strings.Split(strings.TrimSpace(string(data)), "\n"), recordSeeds[:6]...)
	for _, line := range lines {
		checkRecord(t, line)
		for i := 0; i < len(line); i += max(1, len(line)/97) {
			checkRecord(t, line[:i])
			for _, b := range []byte{'"', '\\', '{', '}', ',', ':', ' ', 'x', 0x01, 0xff} {
				checkRecord(t, line[:i]+string(b)+line[i+1:])
			}
		}
	}
}

// TestDecodeRecordDecodesTheCommonFormItself guards the fast path: a line
// of the form the CLI writes is not left to encoding/json.
func TestDecodeRecordDecodesTheCommonFormItself(t *testing.T) {
	for _, line := range recordSeeds[:6] {
		if _, _, valid, handled := decodeRecord(line); !handled || !valid {
			t.Errorf("decodeRecord(%q): handled %v, valid %v", line, handled, valid)
		}
	}
}

func FuzzDecodeRecord(f *testing.F) {
	for _, line := range recordSeeds {
		f.Add(line)
	}
	f.Fuzz(checkRecord)
}

// lastNewline agrees with strings.LastIndexByte at every length and
// position, next to every other byte value.
func TestLastNewline(t *testing.T) {
	for n := 0; n < 40; n++ {
		for at := -1; at < n; at++ {
			for _, fill := range []byte{0, 'a', 0x0b, 0x8a, 0xff} {
				b := bytes.Repeat([]byte{fill}, n)
				if at >= 0 {
					b[at] = '\n'
				}
				if at > 3 {
					b[at-3] = '\n'
				}
				if got, want := lastNewline(string(b)), strings.LastIndexByte(string(b), '\n'); got != want {
					t.Fatalf("lastNewline(%q) = %d, want %d", b, got, want)
				}
			}
		}
	}
}
