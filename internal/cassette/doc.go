// Package cassette stores the CLI side of a recorded run and plays it back.
package cassette
