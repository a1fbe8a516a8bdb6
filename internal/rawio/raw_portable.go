//go:build !linux || airwire_portable

package rawio

import (
	"io"
	"os"
)

// Reader is f: only Linux has the raw calls (raw_linux.go).
func Reader(f *os.File) io.Reader { return f }

// Writer is f: only Linux has the raw calls (raw_linux.go).
func Writer(f *os.File) io.Writer { return f }
