package rawio

import (
	"os"
	"testing"
)

// A read and a write on the hot path (every frame the agent reads from the
// CLI and every chunk it writes to the editor) allocate nothing.
func TestReadAndWriteAllocateNothing(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	rd, wr := Reader(r), Writer(w)
	line, buf := []byte("{\"type\":\"stream_event\"}\n"), make([]byte, 64)
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := wr.Write(line); err != nil {
			t.Fatal(err)
		}
		if _, err := rd.Read(buf); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a write and a read allocate %v times, want 0", allocs)
	}
}
