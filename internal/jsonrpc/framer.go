package jsonrpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxLine is the largest frame a Framer returns whole: 256 MiB. Lines
// of at least 64 MiB (base64 images) must pass; the contract sets no limit.
const DefaultMaxLine = 256 << 20

// LineTooLongError is returned by Framer.Next for a line longer than the
// limit. The oversized line has been consumed up to and including its newline,
// so the next call reads the next frame. Prefix holds its first bytes.
type LineTooLongError struct {
	Limit  int
	Length int64 // bytes in the line, without the newline
	Prefix []byte
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line of %d bytes exceeds the %d-byte limit", e.Length, e.Limit)
}

// ErrTruncated is returned with the final bytes of a stream that ended without
// a newline. The frame returned alongside it holds those bytes.
var ErrTruncated = errors.New("final line has no newline")

// longChunk is the buffer size past which a line that does not fit is kept
// as a list of full buffers instead of in one growing buffer: joining them
// once costs one copy of the line, where doubling a buffer costs up to three
// (old and new buffer live together) and keeps the largest for good.
const longChunk = 1 << 20

// Framer reads newline-delimited frames as raw bytes. The zero value is not
// usable; call NewFramer.
type Framer struct {
	r      io.Reader
	buf    []byte
	start  int // first unread byte
	end    int // end of buffered bytes
	max    int
	err    error
	prefix int
	// long holds the full buffers of a line longer than longChunk, in
	// order, before buf[start:]; longLen is their total size.
	long    [][]byte
	longLen int
}

// FramerOption configures a Framer.
type FramerOption func(*Framer)

// WithMaxLine sets the largest frame returned whole.
func WithMaxLine(n int) FramerOption { return func(f *Framer) { f.max = n } }

// NewFramer returns a Framer reading from r.
func NewFramer(r io.Reader, opts ...FramerOption) *Framer {
	f := &Framer{r: r, buf: make([]byte, 64<<10), max: DefaultMaxLine, prefix: 256}
	for _, o := range opts {
		o(f)
	}
	return f
}

// Next returns the next frame including its trailing newline. The slice is
// valid until the next call. At the end of the stream it returns io.EOF; a
// final line without a newline comes back with ErrTruncated.
func (f *Framer) Next() ([]byte, error) {
	scanned := 0
	for {
		if i := bytes.IndexByte(f.buf[f.start+scanned:f.end], '\n'); i >= 0 {
			n := scanned + i + 1
			if f.longLen+n-1 > f.max {
				e := &LineTooLongError{Limit: f.max, Length: int64(f.longLen + n - 1), Prefix: f.head(n - 1)}
				f.start += n
				f.long, f.longLen = nil, 0
				return nil, e
			}
			return f.take(n), nil
		}
		scanned = f.end - f.start
		if f.longLen+scanned > f.max {
			return nil, f.skipLong()
		}
		if f.err != nil {
			if scanned == 0 && f.longLen == 0 {
				return nil, f.err
			}
			return f.take(scanned), ErrTruncated
		}
		if f.fill() {
			scanned = 0 // the line's bytes moved to f.long
		}
	}
}

// take returns the line that ends n bytes into buf[start:], joining the
// buffers in f.long before it, if any.
func (f *Framer) take(n int) []byte {
	line := f.buf[f.start : f.start+n]
	if f.longLen > 0 {
		joined := make([]byte, 0, f.longLen+n)
		for _, c := range f.long {
			joined = append(joined, c...)
		}
		line = append(joined, line...)
		f.long, f.longLen = nil, 0
	}
	f.start += n
	return line
}

// head returns a copy of the current line's first bytes (at most f.prefix,
// at most inBuf of them from buf).
func (f *Framer) head(inBuf int) []byte {
	if len(f.long) > 0 {
		return append([]byte(nil), f.long[0][:min(f.prefix, len(f.long[0]))]...)
	}
	return append([]byte(nil), f.buf[f.start:f.start+min(f.prefix, inBuf)]...)
}

// fill reads more bytes, compacting or growing the buffer as needed. It
// reports whether it moved the buffered part of the line to f.long.
func (f *Framer) fill() (moved bool) {
	if f.start > 0 && f.start == f.end {
		f.start, f.end = 0, 0
	}
	if f.end == len(f.buf) {
		switch {
		case f.start > 0 && (f.start > len(f.buf)/2 || f.end-f.start < len(f.buf)/2 || len(f.buf) >= longChunk):
			n := copy(f.buf, f.buf[f.start:f.end])
			f.start, f.end = 0, n
		case len(f.buf) >= longChunk:
			f.long = append(f.long, f.buf)
			f.longLen += len(f.buf)
			f.buf, f.start, f.end, moved = make([]byte, len(f.buf)), 0, 0, true
		default:
			// Double, but never past what the limit needs: one byte over it
			// tells an oversized line, so a buffer of max+1 is the largest.
			nb := make([]byte, min(2*len(f.buf), max(f.max+1, len(f.buf)+1)))
			n := copy(nb, f.buf[f.start:f.end])
			f.buf, f.start, f.end = nb, 0, n
		}
	}
	n, err := f.r.Read(f.buf[f.end:])
	f.end += n
	if err != nil {
		f.err = err
	}
	return moved
}

// skipLong consumes the rest of an oversized line without keeping it.
func (f *Framer) skipLong() error {
	e := &LineTooLongError{Limit: f.max, Prefix: f.head(f.end - f.start), Length: int64(f.longLen)}
	f.long, f.longLen = nil, 0
	for {
		if i := bytes.IndexByte(f.buf[f.start:f.end], '\n'); i >= 0 {
			e.Length += int64(i)
			f.start += i + 1
			return e
		}
		e.Length += int64(f.end - f.start)
		f.start, f.end = 0, 0
		if f.err != nil {
			return e
		}
		if len(f.buf) > longChunk {
			f.buf = make([]byte, longChunk)
		}
		f.fill()
	}
}

// Writer writes frames exactly as given, one Write per frame.
type Writer struct{ w io.Writer }

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// WriteFrame writes b and, when it does not end in a newline, one newline.
func (w *Writer) WriteFrame(b []byte) error {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		_, err := w.w.Write(b)
		return err
	}
	buf := make([]byte, len(b)+1)
	copy(buf, b)
	buf[len(b)] = '\n'
	_, err := w.w.Write(buf)
	return err
}
