package adapter

import (
	"context"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
)

// fakeTitleHost collects what the titles publish.
type fakeTitleHost struct{ updates chan any }

func (h fakeTitleHost) notify(update any)  { h.updates <- update }
func (fakeTitleHost) cli() *claude.Process { return nil }
func (fakeTitleHost) editorClosed() bool   { return false }
func newFakeTitleHost() fakeTitleHost      { return fakeTitleHost{make(chan any, 4)} }
func (h fakeTitleHost) next() (any, bool) {
	select {
	case u := <-h.updates:
		return u, true
	case <-time.After(2 * time.Second):
		return nil, false
	}
}

// A first prompt whose title generation yielded nothing, then cancelled:
// the turn end publishes the session's stored summary (its first prompt),
// as the reference does.
func TestCancelledTurnPublishesSummaryWhenUntitled(t *testing.T) {
	h := newFakeTitleHost()
	tl := &titles{host: h, stat: func() (history.Info, bool) {
		return history.Info{Summary: "Count to one hundred.", Modified: time.Unix(0, 0)}, true
	}}
	tl.askedAtPrompt = true // the prompt asked, and its generation failed (settled released)
	tl.atTurnEnd(context.Background(), true)
	u, ok := h.next()
	if !ok {
		t.Fatal("no title after the cancelled turn")
	}
	if m, _ := u.(map[string]any); m["title"] != "Count to one hundred." {
		t.Errorf("update = %v, want the first prompt as title", u)
	}
}

// While a generation is in flight (settled), the turn end publishes no
// summary: it could overwrite the generated title.
func TestTurnEndPublishesNoSummaryWhileTitleSettled(t *testing.T) {
	h := newFakeTitleHost()
	tl := &titles{host: h, stat: func() (history.Info, bool) {
		return history.Info{Summary: "Count to one hundred."}, true
	}}
	tl.settled, tl.askedAtPrompt = true, true
	tl.atTurnEnd(context.Background(), true)
	if u, ok := h.next(); ok {
		t.Errorf("published %v while a title was settled", u)
	}
}

// A generation that yields no title publishes the session file's summary
// as it is when the answer comes: the file the CLI has written the prompt
// to since the request, not the one read before it (a new session's first
// prompt had no file then).
func TestNoTitlePublishesTheSummaryOfTheFileAsItIsNow(t *testing.T) {
	h := newFakeTitleHost()
	written := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	tl := &titles{host: h, index: &indexState{}, stat: func() (history.Info, bool) {
		return history.Info{Summary: "Create a.txt with hi.", Modified: written}, true
	}}
	tl.answered(nil, nil, history.Info{})
	u, ok := h.next()
	if !ok {
		t.Fatal("no title published")
	}
	m, _ := u.(map[string]any)
	if m["title"] != "Create a.txt with hi." || m["updatedAt"] != "2026-12-07T10:00:00.000Z" {
		t.Errorf("update = %v, want the file's summary and time now", u)
	}
}
