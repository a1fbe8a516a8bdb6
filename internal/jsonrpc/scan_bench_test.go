package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// BenchmarkScan compares the one-pass scanner with encoding/json.Valid (the
// baseline: validation only, no envelope) on typical frames.
func BenchmarkScan(b *testing.B) {
	text4k := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + strings.Repeat("lorem ipsum ", 340) + `"}}}}` + "\n"
	escapes := `{"jsonrpc":"2.0","id":3,"result":{"content":"` + strings.Repeat(`line \"q\"\n`, 100000) + `"}}` + "\n"
	image := `{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"image","data":"` + strings.Repeat("QUJD", 1<<20) + `"}]}}` + "\n"
	small := `{"jsonrpc":"2.0","id":1,"method":"session/cancel","params":{"sessionId":"0190a1b2-c3d4"}}` + "\n"
	for _, c := range []struct{ name, frame string }{{"small", small}, {"text-4KiB", text4k}, {"escapes-1MiB", escapes}, {"image-4MiB", image}} {
		frame := []byte(c.frame)
		b.Run(c.name+"/baseline-json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			for i := 0; i < b.N; i++ {
				if !json.Valid(frame) {
					b.Fatal("invalid")
				}
			}
		})
		b.Run(c.name+"/scan", func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			for i := 0; i < b.N; i++ {
				if _, err := Scan(frame, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	_ = bytes.MinRead
}
