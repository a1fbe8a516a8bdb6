package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzScan checks the framer and scanner against encoding/json: the scanner
// accepts exactly what json.Valid accepts (for valid UTF-8), never panics,
// and the framer returns every input byte exactly once.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"", "\n", "\n\n", "\r\n", "{}\r\n", `{"id":1,"method":"m"}` + "\n",
		`{"id":1e999999,"method":"m"}`, `{"id":-0.0E+00}`, `{"a":1,"a":2}`,
		`{"params":{"_meta":{"jetbrains":{"air":{"version":1,"_meta":{"x":[{"_meta":{}}]}}}}}}`,
		"{\"a\":\"\\ud800\"}", "[", "\"\\u00e9\"", "nul", "{\"a\":\"\xff\"}",
		`{"type":"control_request","request_id":"r","request":{"subtype":"initialize"}}`,
		strings.Repeat(`[`, 50) + strings.Repeat(`]`, 50),
		"{\"a\":1}\n{\"b\":2", // truncated last line
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Scanner agrees with encoding/json; it is stricter only on UTF-8.
		_, err := Parse(data)
		valid := json.Valid(data)
		if valid && err != nil {
			if se, ok := err.(*ScanError); !ok || se.Reason != "invalid UTF-8" {
				t.Fatalf("Parse(%q) rejected valid JSON: %v", data, err)
			}
		}
		if !valid && err == nil {
			t.Fatalf("Parse(%q) accepted what json.Valid rejects", data)
		}
		// Framer is lossless: every byte comes back once, in order, and an
		// oversized line is accounted for by its length.
		fr := NewFramer(bytes.NewReader(data), WithMaxLine(64))
		pos := 0
		for {
			line, err := fr.Next()
			if tl, ok := err.(*LineTooLongError); ok {
				end := pos + int(tl.Length)
				if end > len(data) || bytes.IndexByte(data[pos:end], '\n') >= 0 || !bytes.HasPrefix(data[pos:], tl.Prefix) {
					t.Fatalf("oversized line at %d: bad length %d or prefix", pos, tl.Length)
				}
				pos = end
				if pos < len(data) {
					pos++ // its newline
				}
				continue
			}
			if !bytes.Equal(line, data[pos:pos+len(line)]) {
				t.Fatalf("frame at %d differs from input", pos)
			}
			pos += len(line)
			if err == ErrTruncated && pos != len(data) {
				t.Fatalf("truncated frame is not the tail")
			}
			if err != nil {
				break
			}
		}
		if pos != len(data) {
			t.Fatalf("framer returned %d of %d bytes", pos, len(data))
		}
	})
}
