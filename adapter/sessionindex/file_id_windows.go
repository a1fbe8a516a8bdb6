package sessionindex

import "io/fs"

// inodeKnown is false on Windows: a path stat (GetFileAttributesEx) has no
// file index, and reading it means opening each of 10,000 transcripts. A
// transcript replaced by another is told by its size and its mtime, which
// NTFS keeps to 100 ns; only a replacement of the same size written in
// the same 100 ns would be missed.
const inodeKnown = false

// fileIno is 0: see inodeKnown.
func fileIno(fs.FileInfo) uint64 { return 0 }
