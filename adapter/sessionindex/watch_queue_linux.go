//go:build linux && !airwire_portable

package sessionindex

import (
	"bytes"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchQueue is an inotify instance read without waiting (listing.go).
type watchQueue struct {
	fd  int
	buf []byte
}

// watchEvent is one event: the file it names ("" for the directory), or
// gone when the directory's watch ended.
type watchEvent struct {
	wd   int
	name string
	gone bool
}

const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM |
	unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

func newWatchQueue() (*watchQueue, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return &watchQueue{fd: fd, buf: make([]byte, 64<<10)}, nil
}

func (q *watchQueue) add(dir string) (int, error) { return unix.InotifyAddWatch(q.fd, dir, watchMask) }

func (q *watchQueue) remove(wd int) { _, _ = unix.InotifyRmWatch(q.fd, uint32(wd)) }

func (q *watchQueue) close() { unix.Close(q.fd) }

// statFd stats name in the open directory fd (following a symlink, as a
// path stat does); only a regular file is a candidate.
func statFd(fd int, dir, name string) (candidate, bool) {
	var st unix.Stat_t
	if unix.Fstatat(fd, name, &st, 0) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return candidate{}, false
	}
	// dir is clean and name one plain element: no filepath.Join (10,000
	// of them a cold list).
	return candidate{path: dir + string(filepath.Separator) + name, mtimeNs: st.Mtim.Nano(), size: st.Size, ino: st.Ino}, true
}

// read returns the queued events, and whether the kernel dropped some.
func (q *watchQueue) read() (evs []watchEvent, overflow bool) {
	for {
		n, err := unix.Read(q.fd, q.buf)
		if err != nil || n <= 0 {
			return evs, overflow
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			raw := (*unix.InotifyEvent)(unsafe.Pointer(&q.buf[off]))
			nameBytes := q.buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(raw.Len)]
			off += unix.SizeofInotifyEvent + int(raw.Len)
			switch {
			case raw.Mask&unix.IN_Q_OVERFLOW != 0:
				overflow = true
			case raw.Mask&(unix.IN_IGNORED|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
				evs = append(evs, watchEvent{wd: int(raw.Wd), gone: true})
			default:
				evs = append(evs, watchEvent{wd: int(raw.Wd), name: string(bytes.TrimRight(nameBytes, "\x00"))})
			}
		}
	}
}
