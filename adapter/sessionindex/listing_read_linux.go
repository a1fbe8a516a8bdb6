//go:build linux && !airwire_portable

package sessionindex

import (
	"encoding/binary"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/airwire/airwire/adapter/parallel"
)

// A cold list stats every transcript of its scope (issue 10: 10,000 of
// them take most of a cold page). The kernel's part, getdents and one
// fstatat per transcript, is the floor; readListing adds little to it:
// the directory is read a large buffer at a time with no string per
// entry, each buffer's transcripts are stat'ed while the next is read,
// and the paths of a buffer's transcripts share one allocation.

// direntBufSize is the getdents buffer: about a thousand entries.
const direntBufSize = 64 << 10

// Offsets in a linux_dirent64 record: d_reclen, then d_name.
const (
	direntReclen = 16
	direntName   = 19
)

// statBatch is the transcripts of one getdents buffer and their stat.
type statBatch struct {
	dirents []byte      // what getdents read, until picked
	found   []candidate // path and session id set; the stat once stat'ed
	order   []int32     // the regular files of found, newest first
	mtimes  []int64     // their mtimes, in that order
	next    int         // the first of order not yet merged
	nameAt  int         // where the file name begins in each path
}

// readListing reads a directory and stats its transcripts, relative to
// the open directory, several at once: while the next buffer of entries
// is read, a worker picks the transcripts of each one out, stats and
// sorts them (parallel.Stream); the reading goroutine, which every stat
// waits on, only reads. The transcripts are newest first (newestFirst):
// the sorted batches merge.
func readListing(dir string) []candidate {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	var batches []*statBatch
	parallel.Stream(func(send func(*statBatch)) {
		for {
			buf := make([]byte, direntBufSize) // the batch's until it is picked
			n, err := unix.Getdents(fd, buf)
			if err == unix.EINTR {
				continue
			}
			if err != nil || n <= 0 {
				return
			}
			b := &statBatch{dirents: buf[:n]}
			batches = append(batches, b)
			send(b)
		}
	}, func(b *statBatch) {
		b.pick(dir)
		b.stat(fd)
	})
	total := 0
	for _, b := range batches {
		total += len(b.order)
	}
	return mergeNewest(batches, total)
}

// pick sets found to the transcripts b's dirents name (linux_dirent64
// records), and lets the dirents go. Their paths (dir/name) are one
// allocation; a session id is a part of its path.
func (b *statBatch) pick(dir string) {
	buf := b.dirents
	b.dirents = nil
	var names []string // in buf
	size := 0
	for off := 0; off+direntName < len(buf); {
		reclen := int(binary.NativeEndian.Uint16(buf[off+direntReclen:]))
		if reclen <= direntName || off+reclen > len(buf) {
			break
		}
		name := cString(buf[off+direntName : off+reclen])
		if _, ok := transcriptName(name); ok {
			names = append(names, name)
			size += len(dir) + 1 + len(name) + 1
		}
		off += reclen
	}
	b.found, b.nameAt = make([]candidate, len(names)), len(dir)+1
	arena := make([]byte, 0, size)
	for i, name := range names {
		from := len(arena)
		arena = append(append(append(arena, dir...), '/'), name...)
		path := unsafe.String(&arena[from], len(arena)-from) // arena is never written again
		arena = append(arena, 0)                             // the name is a C string for fstatat
		b.found[i] = candidate{path: path, sessionID: path[b.nameAt : len(path)-len(".jsonl")]}
	}
}

// cString is the NUL-terminated string at the start of b, sharing b.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			b = b[:i]
			break
		}
	}
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// stat stats each transcript of b relative to the open directory fd,
// following a symlink as a path stat does, and orders the regular files
// newest first.
func (b *statBatch) stat(fd int) {
	var st unix.Stat_t
	b.order = make([]int32, 0, len(b.found))
	for i := range b.found {
		c := &b.found[i]
		if fstatatName(fd, c.path[b.nameAt:], &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			continue
		}
		c.mtimeNs, c.size, c.ino = st.Mtim.Nano(), st.Size, st.Ino
		b.order = append(b.order, int32(i))
	}
	slices.SortFunc(b.order, func(x, y int32) int { return newestFirst(&b.found[x], &b.found[y]) })
	b.mtimes = make([]int64, len(b.order))
	for i, j := range b.order {
		b.mtimes[i] = b.found[j].mtimeNs
	}
}

// head is the batch's next transcript to merge.
func (b *statBatch) head() *candidate { return &b.found[b.order[b.next]] }

// before reports whether b's head comes before o's (newestFirst), on
// their mtimes first.
func (b *statBatch) before(o *statBatch) bool {
	if x, y := b.mtimes[b.next], o.mtimes[o.next]; x != y {
		return x > y
	}
	return newestFirst(b.head(), o.head()) < 0
}

// mergeNewest merges the sorted batches into one slice of total
// transcripts, newest first, through a heap of the batches by their head.
func mergeNewest(batches []*statBatch, total int) []candidate {
	h := make([]*statBatch, 0, len(batches))
	for _, b := range batches {
		if len(b.order) > 0 {
			h = append(h, b)
		}
	}
	down := func(i int) {
		for {
			first := 2*i + 1
			if first >= len(h) {
				return
			}
			if r := first + 1; r < len(h) && h[r].before(h[first]) {
				first = r
			}
			if !h[first].before(h[i]) {
				return
			}
			h[i], h[first] = h[first], h[i]
			i = first
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	out := make([]candidate, 0, total)
	for len(h) > 0 {
		b := h[0]
		out = append(out, *b.head())
		if b.next++; b.next == len(b.order) {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down(0)
	}
	return out
}
