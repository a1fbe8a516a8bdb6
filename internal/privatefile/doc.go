// Package privatefile creates the files airwire keeps private (journals,
// which hold whole conversations): a new file only, never reached through
// a symlink or another reparse point, readable and writable by its owner
// alone. On Unix that is O_CREAT|O_EXCL|O_NOFOLLOW with mode 0600; on
// Windows CreateFile with CREATE_NEW, FILE_FLAG_OPEN_REPARSE_POINT and a
// protected DACL that grants the current user only, so the file inherits
// nothing from its directory.
//
// It never opens a file that exists, and never changes a file it did not
// create.
package privatefile
