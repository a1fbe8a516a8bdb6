package journal

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Item 1 of issue 11: an existing journal is never truncated.
func TestCreateNeverClobbers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	if err := os.WriteFile(path, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(path, Header{}); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Create over an existing file: %v, want ErrExist", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "precious\n" {
		t.Fatalf("existing file changed: %q", b)
	}
}

// Item 2 of issue 11: a symlink or a device is refused and left alone.
func TestCreateRefusesSymlinksAndDevices(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious.txt")
	os.WriteFile(target, []byte("keep me"), 0o644)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("no symlinks here: %v", err) // Windows without the privilege
	}
	dangling := filepath.Join(dir, "dangling.jsonl")
	os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	paths := []string{link, dangling}
	if dev, ok := nullDevice(dir); ok {
		paths = append(paths, dev)
	}
	for _, p := range paths {
		if _, err := Create(p, Header{}); err == nil {
			t.Errorf("Create(%s) accepted a path that is not a new regular file", filepath.Base(p))
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Fatalf("symlink target overwritten: %.40q", b)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o644 {
		t.Fatalf("symlink target chmodded to %v", st.Mode().Perm())
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); err == nil {
		t.Fatal("a dangling symlink's target was created")
	}
	if len(paths) == 3 {
		if st, _ := os.Stat(paths[2]); st.Mode().Perm() != 0o666 {
			t.Fatalf("device chmodded to %v", st.Mode().Perm())
		}
	}
}

// Item 3 of issue 11: a message nested as deep as a frame may be (10,000,
// encoding/json's limit) is read back, although its entry adds a level.
func TestReadsMessageAtMaxDepth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	w, err := Create(path, Header{})
	if err != nil {
		t.Fatal(err)
	}
	msg := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	if err := w.Append(&Entry{Kind: KindMsg, Lane: LaneClient, Dir: DirEditor, Msg: []byte(msg)}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	_, got, err := ReadAll(path)
	if err != nil {
		t.Fatalf("the reader refuses what the writer wrote: %v", err)
	}
	if len(got) != 1 || string(got[0].Msg) != msg {
		t.Fatalf("read %d entries", len(got))
	}
}

// Item 10 of issue 11: the writer and the reader share one line limit, and
// the writer never writes a line the reader would refuse: an entry that
// would not fit keeps its envelope and first bytes.
func TestWriterKeepsEveryLineReadable(t *testing.T) {
	defer func(n int) { lineLimit = n }(lineLimit)
	lineLimit = 12 << 10 // the header is padded to 8 KiB
	path := filepath.Join(t.TempDir(), "j.jsonl")
	w, err := Create(path, Header{})
	if err != nil {
		t.Fatal(err)
	}
	ctl := strings.Repeat("\x01", 3<<10) // 3 KiB that escape to 18 KiB
	fits := `{"a":"` + strings.Repeat("x", 11<<10) + `"}`
	big := `{"a":"` + strings.Repeat("y", 13<<10) + `"}`
	for _, e := range []Entry{
		{Kind: KindStderr, Lane: LaneClient, Proc: "agent", Text: &ctl, Bytes: len(ctl)},
		{Kind: KindMsg, Lane: LaneClient, Dir: DirEditor, Msg: []byte(fits)},
		{Kind: KindMsg, Lane: LaneClient, Dir: DirAgent, Method: "m", Msg: []byte(big), Bytes: len(big)},
	} {
		if err := w.Append(&e); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	_, got, err := ReadAll(path)
	if err != nil {
		t.Fatalf("the reader refuses what the writer wrote: %v", err)
	}
	if got[0].Kind != KindStderr || got[0].Reason != ReasonEntryTooLong || got[0].TextOf() != ctl[:256] || got[0].Bytes != 3<<10 {
		t.Errorf("oversized stderr line: %+v", got[0])
	}
	if string(got[1].Msg) != fits {
		t.Errorf("a msg that fits was changed")
	}
	if got[2].Kind != KindNonJSON || got[2].Reason != ReasonEntryTooLong || got[2].Method != "m" || got[2].Bytes != len(big) || !strings.HasPrefix(big, got[2].TextOf()) {
		t.Errorf("oversized msg: %+v", got[2])
	}
}

// Item 10 of issue 11: a line with no end is read only up to the one line
// limit (writer and reader share it) and refused with its number, in
// memory bounded by that limit, not by the file.
func TestReaderRefusesAnEndlessLineInBoundedMemory(t *testing.T) {
	defer func(n int) { lineLimit = n }(lineLimit)
	lineLimit = 4 << 20
	path := filepath.Join(t.TempDir(), "j.jsonl")
	f, _ := os.Create(path)
	f.WriteString(`{"journal":"airwire","version":1}` + "\n")
	block := []byte(strings.Repeat("x", 1<<20))
	for i := 0; i < 40; i++ {
		f.Write(block)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := ReadAll(path)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "journal line 2") || !strings.Contains(err.Error(), "over the 4194304-byte limit") {
		t.Fatalf("an endless line: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*uint64(lineLimit) {
		t.Fatalf("allocated %d MiB to refuse a line over a %d MiB limit", alloc>>20, lineLimit>>20)
	}
}
