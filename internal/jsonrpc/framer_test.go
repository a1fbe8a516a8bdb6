package jsonrpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readAll(t *testing.T, f *Framer) (frames []string, last error) {
	t.Helper()
	for {
		line, err := f.Next()
		if err != nil && !errors.Is(err, ErrTruncated) {
			return frames, err
		}
		frames = append(frames, string(line))
		if err != nil {
			return frames, err
		}
	}
}

func TestFramer(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		frames []string
		last   error
	}{
		{name: "two lines", in: "a\nb\n", frames: []string{"a\n", "b\n"}, last: io.EOF},
		{name: "empty lines kept", in: "\n\nx\n", frames: []string{"\n", "\n", "x\n"}, last: io.EOF},
		{name: "crlf kept", in: "{}\r\n", frames: []string{"{}\r\n"}, last: io.EOF},
		{name: "truncated tail", in: "a\nbc", frames: []string{"a\n", "bc"}, last: ErrTruncated},
		{name: "empty input", in: "", frames: nil, last: io.EOF},
	}
	for _, tt := range tests {
		for _, reader := range []struct {
			name string
			wrap func(io.Reader) io.Reader
		}{{"plain", func(r io.Reader) io.Reader { return r }}, {"one byte", iotest.OneByteReader}, {"half", iotest.HalfReader}} {
			t.Run(tt.name+"/"+reader.name, func(t *testing.T) {
				frames, last := readAll(t, NewFramer(reader.wrap(strings.NewReader(tt.in))))
				if !errors.Is(last, tt.last) || strings.Join(frames, "|") != strings.Join(tt.frames, "|") {
					t.Fatalf("got %q, %v; want %q, %v", frames, last, tt.frames, tt.last)
				}
			})
		}
	}
}

func TestFramerHugeLine(t *testing.T) {
	huge := bytes.Repeat([]byte("A"), 64<<20)
	in := append(append([]byte(`{"data":"`), huge...), []byte("\"}\nnext\n")...)
	f := NewFramer(bytes.NewReader(in))
	line, err := f.Next()
	if err != nil || len(line) != len(huge)+12 {
		t.Fatalf("64 MiB line: len %d err %v", len(line), err)
	}
	if _, err := Parse(line); err != nil {
		t.Fatalf("64 MiB line does not parse: %v", err)
	}
	if next, _ := f.Next(); string(next) != "next\n" {
		t.Fatalf("after the huge line got %q", next)
	}
}

func TestFramerLineTooLong(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 1000) + "\nafter\n"
	f := NewFramer(strings.NewReader(in), WithMaxLine(100))
	if l, _ := f.Next(); string(l) != "short\n" {
		t.Fatalf("first frame %q", l)
	}
	_, err := f.Next()
	var tl *LineTooLongError
	if !errors.As(err, &tl) || tl.Length != 1000 || tl.Limit != 100 {
		t.Fatalf("want LineTooLongError of 1000 bytes, got %v", err)
	}
	if l, _ := f.Next(); string(l) != "after\n" {
		t.Fatalf("frame after the long line %q", l)
	}
}

func TestWriterAddsNewlineOnce(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	_ = w.WriteFrame([]byte("{}\n"))
	_ = w.WriteFrame([]byte("{}"))
	if b.String() != "{}\n{}\n" {
		t.Fatalf("wrote %q", b.String())
	}
}

func TestCorrelator(t *testing.T) {
	c := NewCorrelator()
	c.Request(SideA, []byte("1"), Pending{Method: "initialize"})
	c.Request(SideB, []byte("1"), Pending{Method: "session/request_permission"})
	if _, ok := c.Reply(SideB, []byte(`"1"`)); ok {
		t.Fatal(`"1" matched id 1`)
	}
	if p, ok := c.Reply(SideB, []byte("1")); !ok || p.Method != "initialize" {
		t.Fatalf("reply from B should answer A's request: %+v %v", p, ok)
	}
	if p, ok := c.Reply(SideA, []byte("1")); !ok || p.Method != "session/request_permission" {
		t.Fatalf("reply from A should answer B's request: %+v %v", p, ok)
	}
	if c.Len() != 0 {
		t.Fatal("pending not forgotten")
	}
}

// Lines longer than longChunk are kept as a list of buffers and joined
// once; the buffer is not kept at their size (item 10 of issue 11).
func TestFramerLongLines(t *testing.T) {
	line := func(n int, c byte) string { return strings.Repeat(string(c), n) + "\n" }
	in := line(longChunk-1, 'a') + line(longChunk, 'b') + "x\n" + line(3*longChunk+5, 'c') + line(5*longChunk, 'd') + "y\n" + strings.Repeat("e", 2*longChunk+3)
	for _, wrap := range []func(io.Reader) io.Reader{func(r io.Reader) io.Reader { return r }, iotest.HalfReader} {
		f := NewFramer(wrap(strings.NewReader(in)), WithMaxLine(4*longChunk))
		var got []string
		for {
			b, err := f.Next()
			var tl *LineTooLongError
			if errors.As(err, &tl) {
				got = append(got, fmt.Sprintf("too long %d %q", tl.Length, tl.Prefix[:3]))
				continue
			}
			if b != nil {
				got = append(got, fmt.Sprintf("%d %c", len(b), b[0]))
			}
			if err != nil {
				got = append(got, err.Error())
				break
			}
		}
		want := fmt.Sprintf("%d a|%d b|2 x|%d c|too long %d \"ddd\"|2 y|%d e|%v", longChunk, longChunk+1, 3*longChunk+6, 5*longChunk, 2*longChunk+3, ErrTruncated)
		if strings.Join(got, "|") != want {
			t.Fatalf("got  %s\nwant %s", strings.Join(got, "|"), want)
		}
		if cap(f.buf) > longChunk {
			t.Fatalf("the framer keeps a %d-byte buffer after long lines", cap(f.buf))
		}
	}
}
