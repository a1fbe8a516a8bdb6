// Package notdir tells the error of a path that goes through a file as if
// it were a directory (ENOTDIR on Unix, ERROR_DIRECTORY on Windows): the
// path does not exist either. It owns nothing else.
package notdir
