package journal

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/airwire/airwire/internal/privatefile"
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
	// size counts the bytes handed to bw; committed those known to be in
	// the file, whole entries only (up to committedSeq), after a Flush.
	size, committed int64
	committedSeq    uint64
	onErr           func(error)

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

// WithOnError has the Writer call f once, when a write first fails (a full
// disk), so the loss is reported when it happens and not only by Close.
// Appends fail from then on; Close cuts the file back to its last whole
// entry and tries to end it with a note saying what was lost.
func WithOnError(f func(error)) WriterOption { return func(w *Writer) { w.onErr = f } }

// Create creates path, which must not exist, private to its owner (mode
// 0600; an owner-only DACL on Windows) and writes the header. It never follows a symlink and never writes into an existing
// file: an existing path fails with an error that wraps fs.ErrExist when it
// is a regular file, and says what it is otherwise (a symlink, a device).
func Create(path string, h Header, opts ...WriterOption) (*Writer, error) {
	f, err := createNew(path)
	if err != nil {
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
	if err := w.writeHeader(); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	if w.interval > 0 {
		w.stopSync, w.syncDone = make(chan struct{}), make(chan struct{})
		go w.syncLoop()
	}
	return w, nil
}

// CreateFresh is Create, except that when path exists as a regular file it
// creates the first free name next to it (acp.jsonl: acp-2.jsonl,
// acp-3.jsonl, …) instead of failing. It returns the path it created. A
// path that exists as anything else (a symlink, a device) is refused.
func CreateFresh(path string, h Header, opts ...WriterOption) (*Writer, string, error) {
	ext := filepath.Ext(path)
	stem := strings.TrimSuffix(path, ext)
	try := path
	for n := 2; ; n++ {
		w, err := Create(try, h, opts...)
		if err == nil || !errors.Is(err, fs.ErrExist) || n > 10000 {
			return w, try, err
		}
		try = fmt.Sprintf("%s-%d%s", stem, n, ext)
	}
}

// createNew creates path, private to its owner, only if it does not exist
// yet (privatefile.CreateNew), so two recorders never share a file and a
// symlink, a reparse point or a device is never written through.
func createNew(path string) (*os.File, error) {
	f, err := privatefile.CreateNew(path)
	if err != nil {
		if st, lerr := os.Lstat(path); lerr == nil && !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a new regular file but %s: a journal is never written through a symlink or into a device", path, describeMode(st.Mode()))
		}
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return f, nil
}

// describeMode names a file type for an error message.
func describeMode(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// writeHeader writes the padded header line and counts it as committed.
func (w *Writer) writeHeader() error {
	line, err := encodeHeader(w.header, headerPad)
	if err != nil {
		return err
	}
	w.headerLen = len(line)
	if _, err := w.bw.Write(line); err != nil {
		return err
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	w.size, w.committed = int64(len(line)), int64(len(line))
	return nil
}

// Path returns the file's path.
func (w *Writer) Path() string { return w.f.Name() }

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
	first, err := w.appendLocked(e, flush)
	w.mu.Unlock()
	if first && w.onErr != nil {
		w.onErr(err)
	}
	return err
}

// appendLocked writes e; first is true when this call met the first write
// error.
func (w *Writer) appendLocked(e *Entry, flush bool) (first bool, err error) {
	if w.closed {
		return false, errors.New("journal: append after close")
	}
	if w.err != nil {
		return false, w.err
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
	msg := e.Msg
	// The head goes through w.buf; msg, the bulk, goes to the buffered
	// writer directly instead of being copied twice.
	w.buf = appendHead(w.buf[:0], e)
	if lineLen(w.buf, msg) > lineLimit { // what readers could not read is never written
		msg, w.buf = nil, appendHead(w.buf[:0], oversized(e))
	}
	if err := w.writeLine(msg); err != nil {
		return w.fail(err), err
	}
	if flush {
		return w.flushLocked()
	}
	return false, nil
}

// lineLen is the length of the line of an entry with this head and msg.
func lineLen(head, msg []byte) int {
	n := len(head) + len("}\n")
	if msg != nil {
		n += len(`,"msg":`) + len(msg)
	}
	return n
}

// writeLine writes the head in w.buf, msg and the line's end.
func (w *Writer) writeLine(msg []byte) error {
	n, err := w.bw.Write(w.buf)
	w.size += int64(n)
	if err == nil && msg != nil {
		if n, err = w.bw.WriteString(`,"msg":`); err == nil {
			w.size += int64(n)
			n, err = w.bw.Write(msg)
		}
		w.size += int64(n)
	}
	if err == nil {
		n, err = w.bw.WriteString("}\n")
		w.size += int64(n)
	}
	w.dirty.Store(true)
	return err
}

// oversized is what is written instead of an entry whose line would pass
// MaxLine: its envelope, Bytes and the first bytes of its text or msg.
func oversized(e *Entry) *Entry {
	o := *e
	o.Msg, o.B64, o.Reason, o.Lead, o.Trail = nil, nil, ReasonEntryTooLong, "", ""
	keep := e.TextOf()
	if e.Kind == KindMsg {
		o.Kind, keep = KindNonJSON, string(e.Msg[:min(len(e.Msg), 1024)])
	}
	keep = strings.ToValidUTF8(keep[:min(len(keep), 256)], "")
	o.Text = &keep
	return &o
}

// fail makes err sticky; it reports whether it is the first error.
func (w *Writer) fail(err error) bool {
	if w.err != nil {
		return false
	}
	w.err = err
	return true
}

// flushLocked flushes bw; on success everything written is committed.
func (w *Writer) flushLocked() (first bool, err error) {
	if err := w.bw.Flush(); err != nil {
		return w.fail(err), err
	}
	w.committed, w.committedSeq = w.size, w.seq
	return false, nil
}

// Flush writes buffered entries to the file.
func (w *Writer) Flush() error {
	w.mu.Lock()
	var first bool
	err := w.err
	if err == nil && !w.closed {
		first, err = w.flushLocked()
	}
	w.mu.Unlock()
	if first && w.onErr != nil {
		w.onErr(err)
	}
	return err
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

// Close flushes, fsyncs and closes the file. After a write error it cuts
// the file back to its last whole entry and appends a note saying from
// which seq on entries were lost (when there is room for it), then returns
// the error.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	first, err := false, w.err
	if err == nil {
		first, err = w.flushLocked()
	}
	w.closed = true
	w.mu.Unlock()
	if first && w.onErr != nil {
		w.onErr(err)
	}
	if w.stopSync != nil {
		close(w.stopSync)
		<-w.syncDone
	}
	if err != nil {
		w.endWithLoss(err)
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

// endWithLoss cuts a torn tail off the file and writes, best effort, a last
// entry stating the loss, so the journal itself says it is incomplete.
func (w *Writer) endWithLoss(cause error) {
	if w.f.Truncate(w.committed) != nil {
		return
	}
	text := fmt.Sprintf("airwire record cannot write the journal (%v): entries from seq %d on are lost", cause, w.committedSeq+1)
	e := Entry{Seq: w.committedSeq + 1, TNs: max(w.Now(), w.lastT), Kind: KindNote, Text: &text}
	line := append(appendHead(nil, &e), "}\n"...)
	_, _ = w.f.WriteAt(line, w.committed)
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
