package proxy

import (
	"io"

	"github.com/airwire/airwire/internal/journal"
)

// Pump copies src to dst and tees every chunk to s, until src ends. Each
// chunk is queued to the journal before it is written on. When dst fails the
// pump keeps reading src, so the journal still gets everything the sender
// wrote; onDstError (if set) is called once. It closes s at the end and
// returns the bytes read and the read error other than io.EOF.
func Pump(dst io.Writer, src io.Reader, s *Stream, onDstError func(error)) (int64, error) {
	var total int64
	dstOK := dst != nil
	defer s.Close()
	for {
		buf := s.Buffer()
		n, rerr := src.Read(*buf)
		if n > 0 {
			total += int64(n)
			s.Submit(buf, n)
			if dstOK {
				if _, werr := dst.Write((*buf)[:n]); werr != nil {
					dstOK = false
					if onDstError != nil {
						onDstError(werr)
					}
				}
			}
		} else {
			s.release(buf)
		}
		if rerr == io.EOF {
			return total, nil
		}
		if rerr != nil {
			return total, rerr
		}
	}
}

// Note queues a recorder note (a fact the recorder observed) on lane.
func (r *Recorder) Note(lane journal.Lane, proc, text string) {
	r.Event(journal.Entry{Kind: journal.KindNote, Lane: lane, Proc: proc, Text: &text})
}
