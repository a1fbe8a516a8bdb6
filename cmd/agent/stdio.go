package agent

import (
	"io"
	"os"

	"github.com/airwire/airwire/internal/rawio"
)

// pollableIn is in read through the runtime's poller (pollableFile), with
// raw reads (internal/rawio), when it is a pipe or a socket; restore puts
// its descriptor back as it was.
func pollableIn(in io.Reader) (_ io.Reader, restore func()) {
	if f, ok := in.(*os.File); ok {
		if p, restore, ok := pollableFile(f); ok {
			return rawio.Reader(p), restore
		}
	}
	return in, func() {}
}

// pollableOut is out written through the poller with raw writes, when it
// is a pipe or a socket: the agent then streams a chunk to the editor
// without the scheduler's system-call bookkeeping (internal/rawio). Not
// when errOut is the same pipe (2>&1): a non-blocking descriptor is
// non-blocking for every process and file that shares it, and errOut's
// writes do not wait on the poller.
func pollableOut(out, errOut io.Writer) (_ io.Writer, restore func()) {
	f, ok := out.(*os.File)
	if !ok || sameFile(f, errOut) {
		return out, func() {}
	}
	if p, restore, ok := pollableFile(f); ok {
		return rawio.Writer(p), restore
	}
	return out, func() {}
}

// sameFile reports whether w is a file that is f (the same pipe, socket
// or file).
func sameFile(f *os.File, w io.Writer) bool {
	g, ok := w.(*os.File)
	if !ok {
		return false
	}
	a, err := f.Stat()
	if err != nil {
		return true // unknown: do not switch
	}
	b, err := g.Stat()
	return err == nil && os.SameFile(a, b)
}
