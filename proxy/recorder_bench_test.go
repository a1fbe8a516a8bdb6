package proxy

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/proxy/redact"
)

func benchLines() []byte {
	line := bytes.Repeat([]byte("x"), 4096)
	copy(line, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","text":"`)
	copy(line[4096-4:], "\"}}\n")
	return bytes.Repeat(line, 16) // 64 KiB: one chunk
}

// BenchmarkRecorder measures the journal side alone: 4 KiB lines cut,
// scanned, redaction-checked and appended. The baseline is a plain copy of
// the same bytes to the same kind of file.
func BenchmarkRecorder(b *testing.B) {
	chunk := benchLines()
	b.Run("baseline-copy-to-file", func(b *testing.B) {
		w, err := journal.Create(filepath.Join(b.TempDir(), "j"), journal.Header{}, journal.WithSyncInterval(0))
		if err != nil {
			b.Fatal(err)
		}
		defer w.Close()
		b.SetBytes(int64(len(chunk)))
		for i := 0; i < b.N; i++ {
			_ = w.AppendBuffered(&journal.Entry{Kind: journal.KindMsg, Msg: chunk[:len(chunk)-1]})
		}
	})
	for _, red := range []bool{false, true} {
		name := "record"
		if red {
			name = "record-redact"
		}
		b.Run(name, func(b *testing.B) {
			w, err := journal.Create(filepath.Join(b.TempDir(), "j"), journal.Header{}, journal.WithSyncInterval(0))
			if err != nil {
				b.Fatal(err)
			}
			var opts []RecorderOption
			if red {
				opts = append(opts, WithRedactor(redact.New(redact.WithValues("sk-test-123456"))))
			}
			r := NewRecorder(w, opts...)
			c := r.NewConn(journal.LaneClient, "agent", journal.DirEditor, journal.DirAgent)
			b.SetBytes(int64(len(chunk)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf := c.Up.Buffer()
				copy(*buf, chunk)
				c.Up.Submit(buf, len(chunk))
			}
			r.Sync()
			b.StopTimer()
			r.Close()
			w.Close()
		})
	}
}

var _ = io.Discard
