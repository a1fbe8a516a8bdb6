package cmdutil

import (
	"context"

	"github.com/airwire/airwire/internal/journal"
)

// Journal is a journal opened by a verb that reads it to the end (journal
// cat, journal stats, validate), bound to the command's context: once the
// context ends (SIGINT, SIGTERM), Next returns the context's error and the
// file is closed, so that a read blocked on a pipe returns at once.
type Journal struct {
	*journal.Reader
	ctx  context.Context
	stop func() bool
}

// OpenJournal opens the journal at path (journal.Open) for ctx.
func OpenJournal(ctx context.Context, path string) (*Journal, error) {
	r, err := journal.Open(path)
	if err != nil {
		return nil, err
	}
	return &Journal{Reader: r, ctx: ctx, stop: context.AfterFunc(ctx, func() { r.Close() })}, nil
}

// Next returns the next entry, io.EOF at the end, or the context's error
// once it ended.
func (j *Journal) Next() (journal.Entry, error) {
	if err := j.ctx.Err(); err != nil {
		return journal.Entry{}, err
	}
	e, err := j.Reader.Next()
	if err != nil && j.ctx.Err() != nil {
		return journal.Entry{}, j.ctx.Err()
	}
	return e, err
}

// Close closes the file.
func (j *Journal) Close() error {
	j.stop()
	return j.Reader.Close()
}
