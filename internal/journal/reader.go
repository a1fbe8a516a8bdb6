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

// Reader reads a journal entry by entry.
type Reader struct {
	f      io.Closer
	fr     *jsonrpc.Framer
	header Header
	line   int
}

// Open opens path and reads its header. It fails with ErrNotJournal or
// ErrUnsupportedVersion (wrapped) for files it cannot read.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.f = f
	return r, nil
}

// NewReader reads a journal from r.
func NewReader(r io.Reader) (*Reader, error) {
	jr := &Reader{fr: jsonrpc.NewFramer(r, jsonrpc.WithMaxLine(1<<30))}
	line, err := jr.fr.Next()
	if err != nil && !errors.Is(err, jsonrpc.ErrTruncated) {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: empty file", ErrNotJournal)
		}
		return nil, err
	}
	jr.line = 1
	if err := json.Unmarshal(bytes.TrimSpace(line), &jr.header); err != nil || jr.header.Journal != "airwire" {
		return nil, fmt.Errorf("%w: the first line is not a journal header", ErrNotJournal)
	}
	if jr.header.Version != Version {
		return nil, fmt.Errorf("%w %d (this airwire reads version %d)", ErrUnsupportedVersion, jr.header.Version, Version)
	}
	return jr, nil
}

// Header returns the journal's header.
func (r *Reader) Header() Header { return r.header }

// Next returns the next entry, or io.EOF. A final line cut short (the
// recorder was killed mid-write) is reported as an error naming its line.
func (r *Reader) Next() (Entry, error) {
	for {
		line, err := r.fr.Next()
		if err != nil && !errors.Is(err, jsonrpc.ErrTruncated) {
			return Entry{}, err
		}
		r.line++
		if len(bytes.TrimSpace(line)) == 0 {
			if err != nil {
				return Entry{}, io.EOF
			}
			continue
		}
		var e Entry
		if uerr := json.Unmarshal(line, &e); uerr != nil {
			return Entry{}, fmt.Errorf("journal line %d: %v", r.line, uerr)
		}
		return e, nil
	}
}

// Close closes the underlying file.
func (r *Reader) Close() error {
	if r.f != nil {
		return r.f.Close()
	}
	return nil
}

// ReadAll reads a whole journal.
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
			return r.Header(), out, nil
		}
		if err != nil {
			return r.Header(), out, err
		}
		out = append(out, e)
	}
}
