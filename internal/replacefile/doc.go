// Package replacefile renames a file or directory into place in one step,
// as the session index writes a sidecar (a temporary file renamed over
// custom-title.json) and the suite data is unpacked (a temporary directory
// renamed to its final name).
//
// On Unix that is rename(2). On Windows os.Rename is MoveFileEx with
// MOVEFILE_REPLACE_EXISTING, which replaces the target in one step on the
// same volume (both names here are in one directory); without
// MOVEFILE_WRITE_THROUGH, which only makes a move across volumes (a copy
// and a delete) wait for the disk, and the Unix rename does not fsync
// either. What Windows adds is a transient failure: a name another process
// holds open without FILE_SHARE_DELETE (a reader, a virus scanner, the
// search indexer looking at a file just written) cannot be renamed over or
// away, and MoveFileEx fails with ERROR_ACCESS_DENIED or
// ERROR_SHARING_VIOLATION. Rename retries those for a while.
//
// The caller closes the source before renaming it: Windows cannot rename
// a file this process still has open without FILE_SHARE_DELETE, which
// os.Create does not ask for.
package replacefile
