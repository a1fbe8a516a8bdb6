package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/airwire/airwire/internal/jsonrpc"
)

// MaxLine is the longest journal line, header included: Writer never
// writes a longer one and Reader reads any line up to it. It leaves room
// for a frame of the recorder's limit (jsonrpc.DefaultMaxLine) plus its
// entry's fields.
const MaxLine = jsonrpc.DefaultMaxLine + 1<<20

// lineLimit is MaxLine; tests lower it.
var lineLimit = MaxLine

// TornError describes a last line cut short (the recorder was killed
// mid-write, or the disk filled up). It is a warning: every entry before it
// was read.
type TornError struct {
	Line  int   // 1-based line number in the file
	Bytes int   // how much of it is there
	Err   error // why it does not parse
}

func (e *TornError) Error() string {
	return fmt.Sprintf("journal line %d is torn (%d bytes and no newline: %v); it is skipped, the entries before it are read", e.Line, e.Bytes, e.Err)
}

// Reader reads a journal entry by entry.
type Reader struct {
	f       io.Closer
	fr      *jsonrpc.Framer
	header  Header
	hline   []byte
	line    int
	raw     []byte
	torn    *TornError
	keepMsg bool
}

// ReaderOption configures Open and NewReader.
type ReaderOption func(*Reader)

// WithoutBodies makes Next check each entry's msg, text and b64 but keep
// none of them (they stay nil), for readers that only count: a huge line
// then costs only the reading of it.
func WithoutBodies() ReaderOption { return func(r *Reader) { r.keepMsg = false } }

// Open opens path and reads its header. It fails with ErrNotJournal or
// ErrUnsupportedVersion (wrapped) for files it cannot read.
func Open(path string, opts ...ReaderOption) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, opts...)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.f = f
	return r, nil
}

// NewReader reads a journal from r.
func NewReader(r io.Reader, opts ...ReaderOption) (*Reader, error) {
	jr := &Reader{fr: jsonrpc.NewFramer(r, jsonrpc.WithMaxLine(lineLimit)), keepMsg: true}
	for _, o := range opts {
		o(jr)
	}
	line, err := jr.fr.Next()
	jr.line = 1
	if err != nil && !errors.Is(err, jsonrpc.ErrTruncated) {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: empty file", ErrNotJournal)
		}
		return nil, jr.lineError(err)
	}
	if err := json.Unmarshal(bytes.TrimSpace(line), &jr.header); err != nil || jr.header.Journal != "airwire" {
		return nil, fmt.Errorf("%w: the first line is not a journal header", ErrNotJournal)
	}
	if jr.header.Version != Version {
		return nil, fmt.Errorf("%w %d (this airwire reads version %d)", ErrUnsupportedVersion, jr.header.Version, Version)
	}
	jr.hline = bytes.Clone(line)
	return jr, nil
}

// Header returns the journal's header.
func (r *Reader) Header() Header { return r.header }

// HeaderLine returns the header's line as it is in the file.
func (r *Reader) HeaderLine() []byte { return r.hline }

// Line returns the bytes of the line the last Next decoded, as they are in
// the file, newline included. It is valid until the next call to Next.
func (r *Reader) Line() []byte { return r.raw }

// Torn returns the torn last line Next skipped, or nil. Check it once Next
// has returned io.EOF.
func (r *Reader) Torn() *TornError { return r.torn }

// Next returns the next entry, or io.EOF. A line that is not an entry is an
// error naming it, except a last line cut short: Next then ends with io.EOF
// and Torn reports it.
func (r *Reader) Next() (Entry, error) {
	for {
		line, err := r.fr.Next()
		if errors.Is(err, io.EOF) {
			return Entry{}, io.EOF
		}
		r.line++
		last := errors.Is(err, jsonrpc.ErrTruncated)
		if err != nil && !last {
			return Entry{}, r.lineError(err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if last {
				return Entry{}, io.EOF
			}
			continue
		}
		e, derr := decodeEntry(line, r.keepMsg)
		if derr != nil && last {
			r.torn = &TornError{Line: r.line, Bytes: len(line), Err: derr}
			return Entry{}, io.EOF
		}
		if derr != nil {
			return Entry{}, fmt.Errorf("journal line %d: not an entry: %v", r.line, derr)
		}
		r.raw = line
		return e, nil
	}
}

// lineError names the current line in a framing error.
func (r *Reader) lineError(err error) error {
	var tl *jsonrpc.LineTooLongError
	if errors.As(err, &tl) {
		return fmt.Errorf("journal line %d: %d bytes, over the %d-byte limit of a journal line", r.line, tl.Length, tl.Limit)
	}
	return fmt.Errorf("journal line %d: %w", r.line, err)
}

// Close closes the underlying file.
func (r *Reader) Close() error {
	if r.f != nil {
		return r.f.Close()
	}
	return nil
}

// ReadAll reads a whole journal. A torn last line comes back as a
// *TornError together with every entry before it.
func ReadAll(path string) (Header, []Entry, error) {
	r, err := Open(path)
	if err != nil {
		return Header{}, nil, err
	}
	defer r.Close()
	var out []Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			if t := r.Torn(); t != nil {
				return r.Header(), out, t
			}
			return r.Header(), out, nil
		}
		if err != nil {
			return r.Header(), out, err
		}
		out = append(out, e)
	}
}
