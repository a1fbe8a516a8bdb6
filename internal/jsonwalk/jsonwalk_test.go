package jsonwalk

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// edgeStrings cover every escaping rule of encoding/json.
var edgeStrings = []string{
	"", "plain", `quote " and back \ slash`, "<b>&amp;</b>", "\b\f\n\r\t\x00\x01\x1f\x7f",
	"\u2028\u2029", "héllo 世界 🎉", "bad \xff utf8 \xc3", "\xed\xa0\x80", "/slash/",
}

func TestAppendStringIsEncodingJSON(t *testing.T) {
	check := func(s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, encoding/json %s", s, got, want)
		}
		if got := AppendString([]byte("x"), []byte(s)); !bytes.Equal(got[1:], want) {
			t.Fatalf("AppendString([]byte %q) = %s, encoding/json %s", s, got[1:], want)
		}
	}
	for _, s := range edgeStrings {
		check(s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		check(randomString(r))
	}
}

func TestTextIsEncodingJSON(t *testing.T) {
	var scratch []byte // reused across calls, as a caller would
	check := func(raw []byte) {
		var want string
		wantErr := json.Unmarshal(raw, &want)
		for _, sp := range []*[]byte{nil, &scratch} {
			got, ok := Text(raw, sp)
			if ok != (wantErr == nil) || (ok && string(got) != want) {
				t.Fatalf("Text(%s) = %q %v, encoding/json %q %v", raw, got, ok, want, wantErr)
			}
		}
	}
	for _, s := range edgeStrings {
		raw, _ := json.Marshal(s)
		check(raw)
	}
	for _, raw := range []string{`"\ud83c\udf89"`, `"\ud83c"`, `"\ud83cx"`, `"\udf89\ud83c"`, `"\u00e9\/\""`,
		`"\uD83C\uDF89"`, `"\u12"`, `"\q"`, "\"a\x01\"", `"\ud83c\u0041"`, `"trail\\"`, `"x"`, `x`, `"`} {
		check([]byte(raw))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		raw, _ := json.Marshal(randomString(r))
		check(raw)
		check(jsStyle(raw))
	}
}

// jsStyle rewrites encoding/json's \u003c-style escapes the way
// JSON.stringify leaves them (raw), and escapes one more slash.
func jsStyle(raw []byte) []byte {
	s := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&", `/`, `\/`).Replace(string(raw))
	return []byte(s)
}

func randomString(r *rand.Rand) string {
	pool := []rune{'a', ' ', '"', '\\', '<', '>', '&', '\n', '\t', 0, 0x1f, 'é', '世', '🎉', 0x2028, 0x2029, 0xfffd}
	var b strings.Builder
	for range r.IntN(12) {
		if r.IntN(10) == 0 {
			b.WriteByte(byte(0x80 + r.IntN(0x80))) // a stray byte: invalid UTF-8
			continue
		}
		b.WriteRune(pool[r.IntN(len(pool))])
	}
	return b.String()
}

func TestObjectWalksEveryMember(t *testing.T) {
	lines := cassetteLines(t)
	if len(lines) < 100 {
		t.Fatalf("only %d cassette lines found", len(lines))
	}
	for _, line := range lines {
		var want map[string]json.RawMessage
		if json.Unmarshal(line, &want) != nil {
			continue
		}
		got := map[string]json.RawMessage{}
		var o Object
		o.Reset(line)
		for k, v, ok := o.Next(); ok; k, v, ok = o.Next() {
			got[string(k)] = append(json.RawMessage(nil), v...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("walk of %s\n got %v\nwant %v", line, got, want)
		}
	}
}

func TestObjectStopsOnBadInput(t *testing.T) {
	for _, in := range []string{"", "[1]", `{"a":`, `{"a" 1}`, `{"a":"x`, `{"a":{"b":[1,2}`, `{1:2}`, `null`} {
		var o Object
		o.Reset([]byte(in))
		n := 0
		for _, _, ok := o.Next(); ok; _, _, ok = o.Next() {
			n++
		}
		if n > 0 && !json.Valid([]byte(in)) && strings.Count(in, ":") <= n {
			t.Errorf("%q: walked %d members of a broken object", in, n)
		}
	}
	var o Object
	o.Reset([]byte(` { "a" : 1 , "b":"}" ,"c":[{"d":"]"}], "e":null}`))
	var keys []string
	for k, _, ok := o.Next(); ok; k, _, ok = o.Next() {
		keys = append(keys, string(k))
	}
	if strings.Join(keys, ",") != "a,b,c,e" {
		t.Errorf("keys %v, want a,b,c,e", keys)
	}
}

// cassetteLines are the CLI frames of every golden cassette.
func cassetteLines(t *testing.T) [][]byte {
	t.Helper()
	root, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatal("no go.mod above the test")
		}
		root = parent
	}
	files, _ := filepath.Glob(filepath.Join(root, "goldens", "*", "*.cassette"))
	var out [][]byte
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var rec struct {
				Dir string          `json:"dir"`
				Msg json.RawMessage `json:"msg"`
			}
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Dir == "cli" && len(rec.Msg) > 0 {
				out = append(out, rec.Msg)
			}
		}
		fh.Close()
	}
	return out
}

// TestLongStringsAndEscapes walks members whose strings are long (past the
// step-by-step scan), full of escaped quotes and backslashes.
func TestLongStringsAndEscapes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		want := map[string]string{}
		for i := range 1 + r.IntN(4) {
			var b strings.Builder
			for range r.IntN(200) {
				b.WriteString([]string{"a", `"`, `\`, `\\"`, "}", "é"}[r.IntN(6)])
			}
			want[strings.Repeat("k", i+1)+b.String()] = b.String()
		}
		line, _ := json.Marshal(want)
		got := map[string]string{}
		var o Object
		o.Reset(line)
		for k, v, ok := o.Next(); ok; k, v, ok = o.Next() {
			var key, val string
			if json.Unmarshal(append(append([]byte{'"'}, k...), '"'), &key) != nil || json.Unmarshal(v, &val) != nil {
				t.Fatalf("walk of %s: bad member %s: %s", line, k, v)
			}
			got[key] = val
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("walk of %s: got %v", line, got)
		}
	}
}
