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
			if n-1 > f.max {
				e := &LineTooLongError{Limit: f.max, Length: int64(n - 1)}
				e.Prefix = append([]byte(nil), f.buf[f.start:f.start+min(f.prefix, n-1)]...)
				f.start += n
				return nil, e
			}
			line := f.buf[f.start : f.start+n]
			f.start += n
			return line, nil
		}
		scanned = f.end - f.start
		if scanned > f.max {
			return nil, f.skipLong()
		}
		if f.err != nil {
			if scanned == 0 {
				return nil, f.err
			}
			line := f.buf[f.start:f.end]
			f.start = f.end
			return line, ErrTruncated
		}
		f.fill()
	}
}

// fill reads more bytes, compacting or growing the buffer as needed.
func (f *Framer) fill() {
	if f.start > 0 && f.start == f.end {
		f.start, f.end = 0, 0
	}
	if f.end == len(f.buf) {
		if f.start > len(f.buf)/2 || (f.start > 0 && f.end-f.start < len(f.buf)/2) {
			n := copy(f.buf, f.buf[f.start:f.end])
			f.start, f.end = 0, n
		} else {
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
}

// skipLong consumes the rest of an oversized line without keeping it.
func (f *Framer) skipLong() error {
	e := &LineTooLongError{Limit: f.max}
	e.Prefix = append([]byte(nil), f.buf[f.start:f.start+min(f.prefix, f.end-f.start)]...)
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
		if len(f.buf) > 1<<20 {
			f.buf = make([]byte, 1<<20)
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
