package claude

import (
	"bytes"
	"context"
	"errors"
	"sync"
)

// recorder is a Handler that keeps what it got, in order.
type recorder struct {
	mu      sync.Mutex
	events  []string
	msgs    []*Frame
	exit    error
	exits   int
	control func(ctx context.Context, req *IncomingRequest, reply Reply)
}

func (r *recorder) HandleMessage(f *Frame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "message "+f.Type)
	r.msgs = append(r.msgs, f)
}

func (r *recorder) HandleControl(ctx context.Context, req *IncomingRequest, reply Reply) {
	r.mu.Lock()
	r.events = append(r.events, "control "+req.Subtype)
	r.mu.Unlock()
	if r.control != nil {
		r.control(ctx, req, reply)
		return
	}
	reply(nil, errors.New("no handler"))
}

func (r *recorder) HandleExit(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "exit")
	r.exit = err
	r.exits++
}

func (r *recorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

// syncBuffer is a log sink safe for the process's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
