package proxy

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/airwire/airwire/internal/journal"

	"github.com/airwire/airwire/internal/testmem"
)

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// Item 10 of issue 11: what the recorder (airwire record) holds for one
// long frame, as a multiple of its length L (docs/journal.md, "Memory").
func TestRecorderMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("records a 32 MiB frame")
	}
	const n = 32 << 20
	frame := append(append([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"image":"`), bytes.Repeat([]byte("A"), n)...), "\"}}\n"...)
	r, path := newTestRecorder(t, WithMaxLine(n+1<<20))
	c := r.NewConn(journal.LaneClient, "agent", journal.DirEditor, journal.DirAgent)
	peak, alloc := testmem.HeapUse(func() {
		writeInPieces(c.Down, frame, chunkSize)
		r.Sync()
	})
	p, a := float64(peak)/n, float64(alloc)/n
	t.Logf("a %d MiB frame: peak heap %.1f L, allocated %.1f L", n>>20, p, a)
	if p > 2.5 || a > 2.5 {
		t.Errorf("a %d MiB frame: peak heap %.1f L (bound 2.5 L), allocated %.1f L (bound 2.5 L)", n>>20, p, a)
	}
	entries := closeAndRead(t, r, path)
	if len(entries) != 1 || len(entries[0].Msg) != len(frame)-1 {
		t.Fatalf("%d entries", len(entries))
	}
}

// Item 10 of issue 11: a frame over the limit leaves no buffer of its size
// behind in the recorder.
func TestRecorderReleasesOversizedBuffer(t *testing.T) {
	piece := bytes.Repeat([]byte("A"), chunkSize)
	r, path := newTestRecorder(t, WithMaxLine(8<<20))
	c := r.NewConn(journal.LaneClient, "agent", journal.DirEditor, journal.DirAgent)
	c.Down.Write([]byte("{}\n"))
	r.Sync()
	before := liveHeap()
	for i := 0; i < 256; i++ { // 16 MiB, over the limit: journaled as its prefix
		c.Down.Write(piece)
	}
	c.Down.Write([]byte("\n{}\n"))
	r.Sync()
	kept := int64(liveHeap()) - int64(before)
	runtime.KeepAlive(c) // the stream lives on, as it does under its pump
	t.Logf("kept after a frame over the limit: %d KiB", kept>>10)
	if kept > 2<<20 {
		t.Errorf("after a frame over the limit the recorder keeps %d MiB", kept>>20)
	}
	if entries := closeAndRead(t, r, path); len(entries) != 3 || entries[1].Reason != journal.ReasonTooLong {
		t.Fatalf("entries %+v", entries)
	}
}
