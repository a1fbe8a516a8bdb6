package journal

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// headerPad is the minimum size of the header line, so cli_cmd can be filled
// in later without moving any entry.
const headerPad = 8 << 10

// DefaultSyncInterval is the longest time appended entries wait for fsync
// while traffic flows.
const DefaultSyncInterval = 200 * time.Millisecond

// Writer appends entries to a journal file. It is safe for concurrent use;
// Seq order is the order in which Append calls take the lock.
type Writer struct {
	mu        sync.Mutex
	f         *os.File
	bw        *bufio.Writer
	seq       uint64
	start     time.Time
	lastT     int64
	header    Header
	headerLen int
	buf       []byte
	err       error
	closed    bool

	dirty    atomic.Bool
	stopSync chan struct{}
	syncDone chan struct{}
	interval time.Duration
}

// WriterOption configures Create.
type WriterOption func(*Writer)

// WithSyncInterval changes how often dirty data is fsynced (0 disables the
// background fsync; Close still syncs).
func WithSyncInterval(d time.Duration) WriterOption { return func(w *Writer) { w.interval = d } }

// Create creates (or truncates) path with mode 0600 and writes the header.
func Create(path string, h Header, opts ...WriterOption) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(0o600); err != nil { // an existing file keeps its mode otherwise
		f.Close()
		return nil, err
	}
	w := &Writer{f: f, bw: bufio.NewWriterSize(f, 256<<10), start: time.Now(), interval: DefaultSyncInterval}
	for _, o := range opts {
		o(w)
	}
	h.Journal, h.Version = "airwire", Version
	if h.Start.IsZero() {
		h.Start = time.Now()
	}
	w.header = h
	line, err := encodeHeader(h, headerPad)
	if err != nil {
		f.Close()
		return nil, err
	}
	w.headerLen = len(line)
	if _, err := w.bw.Write(line); err == nil {
		err = w.bw.Flush()
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	if w.interval > 0 {
		w.stopSync, w.syncDone = make(chan struct{}), make(chan struct{})
		go w.syncLoop()
	}
	return w, nil
}

func encodeHeader(h Header, size int) ([]byte, error) {
	b, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	for len(b) < size-1 {
		b = append(b, ' ')
	}
	return append(b, '\n'), nil
}

// SetCLICmd records the argv of the first CLI spawn in the header, in place.
// It does nothing when the header already has one or when it would not fit.
func (w *Writer) SetCLICmd(argv []string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || len(w.header.CLICmd) > 0 {
		return nil
	}
	h := w.header
	h.CLICmd = argv
	line, err := encodeHeader(h, w.headerLen)
	if err != nil || len(line) != w.headerLen {
		return err // does not fit: the spawn entry still has the argv
	}
	if _, err := w.f.WriteAt(line, 0); err != nil {
		return err
	}
	w.header = h
	w.dirty.Store(true)
	return nil
}

// Now returns nanoseconds since the journal's start on the monotonic clock.
func (w *Writer) Now() int64 { return int64(time.Since(w.start)) }

// Append numbers e (Seq), stamps it (TNs, if zero) and writes it, then
// flushes. It returns the sticky write error, if any.
func (w *Writer) Append(e *Entry) error {
	return w.append(e, true)
}

// AppendBuffered is Append without the flush; call Flush when no further
// entry is waiting.
func (w *Writer) AppendBuffered(e *Entry) error {
	return w.append(e, false)
}

func (w *Writer) append(e *Entry, flush bool) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errors.New("journal: append after close")
	}
	if w.err != nil {
		return w.err
	}
	if e.TNs == 0 {
		e.TNs = w.Now()
	}
	if e.TNs < w.lastT { // t_ns never runs backwards along seq
		e.TNs = w.lastT
	}
	w.lastT = e.TNs
	w.seq++
	e.Seq = w.seq
	// The head goes through w.buf; msg, the bulk, goes to the buffered
	// writer directly instead of being copied twice.
	w.buf = appendHead(w.buf[:0], e)
	_, err := w.bw.Write(w.buf)
	if err == nil && e.Msg != nil {
		if _, err = w.bw.WriteString(`,"msg":`); err == nil {
			_, err = w.bw.Write(e.Msg)
		}
	}
	if err == nil {
		_, err = w.bw.WriteString("}\n")
	}
	if err != nil {
		w.err = err
		return err
	}
	if flush {
		if err := w.bw.Flush(); err != nil {
			w.err = err
			return err
		}
	}
	w.dirty.Store(true)
	return nil
}

// Flush writes buffered entries to the file.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || w.closed {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = err
	}
	return w.err
}

// Seq is the number of entries appended so far.
func (w *Writer) Seq() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seq
}

func (w *Writer) syncLoop() {
	defer close(w.syncDone)
	t := time.NewTicker(w.interval)
	defer t.Stop()
	for {
		select {
		case <-w.stopSync:
			return
		case <-t.C:
			if w.dirty.Swap(false) {
				_ = w.f.Sync()
			}
		}
	}
}

// Close flushes, fsyncs and closes the file.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	err := w.err
	if ferr := w.bw.Flush(); err == nil {
		err = ferr
	}
	w.mu.Unlock()
	if w.stopSync != nil {
		close(w.stopSync)
		<-w.syncDone
	}
	if serr := w.f.Sync(); err == nil {
		err = serr
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// appendHead encodes every field of e but msg, without the closing brace:
// message entries, the hot path, are written by hand so msg is embedded as
// it came, never re-encoded.
func appendHead(b []byte, e *Entry) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendUint(b, e.Seq, 10)
	b = append(b, `,"t_ns":`...)
	b = strconv.AppendInt(b, e.TNs, 10)
	b = appendField(b, "kind", string(e.Kind))
	b = appendField(b, "lane", string(e.Lane))
	b = appendField(b, "dir", string(e.Dir))
	b = appendField(b, "proc", e.Proc)
	b = appendField(b, "session", e.Session)
	b = appendField(b, "method", e.Method)
	if len(e.ID) > 0 {
		b = append(b, `,"id":`...)
		b = append(b, e.ID...)
	}
	if e.Bytes > 0 {
		b = append(b, `,"bytes":`...)
		b = strconv.AppendInt(b, int64(e.Bytes), 10)
	}
	if e.Redacted > 0 {
		b = append(b, `,"redacted":`...)
		b = strconv.AppendInt(b, int64(e.Redacted), 10)
	}
	b = appendField(b, "lead", e.Lead)
	b = appendField(b, "trail", e.Trail)
	b = appendField(b, "reason", e.Reason)
	if e.Text != nil {
		b = append(b, `,"text":`...)
		b = AppendString(b, *e.Text)
	}
	if e.B64 != nil {
		v, _ := json.Marshal(e.B64)
		b = append(b, `,"b64":`...)
		b = append(b, v...)
	}
	if e.Argv != nil {
		v, _ := json.Marshal(e.Argv)
		b = append(b, `,"argv":`...)
		b = append(b, v...)
	}
	if e.Pid != 0 {
		b = append(b, `,"pid":`...)
		b = strconv.AppendInt(b, int64(e.Pid), 10)
	}
	if e.Exit != nil {
		v, _ := json.Marshal(e.Exit)
		b = append(b, `,"exit":`...)
		b = append(b, v...)
	}
	return b
}

func appendField(b []byte, k, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, k...)
	b = append(b, '"', ':')
	return AppendString(b, v)
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// in encoding/json.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
