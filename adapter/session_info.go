package adapter

import (
	"cmp"
	"context"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
)

// What a session_info_update tells of a session besides the index and
// the AIR sections: its title and the prompt the CLI predicts next.

// Session titles: the agent asks the CLI for a title (generate_session_title,
// persisted to the session file) as soon as a prompt with enough text is
// sent, once per session, and publishes it as a session_info_update. A
// prompt too short to title from (a slash command, "hi") leaves it to the
// end of the turn (session_state_changed idle), when the title comes from
// the session's text so far: its prompts and the assistant's answers.
const (
	maxTitleLength     = 256  // UTF-16 units, as the reference counts
	minTitleTextLength = 10   // below this the CLI generates nothing
	maxTitleContext    = 1000 // UTF-16 units of session text a title is made from
)

// titles is one session's title state; it reaches the session through
// titleHost.
type titles struct {
	host  titleHost
	index *indexState // a rename or an archive titles it explicitly
	// stat reads the session file's record of the session.
	stat func() (history.Info, bool)
	// gen is held while a title generation runs, so an explicit title (a
	// rename) waits for it (contract: "Rename").
	gen sync.Mutex

	mu      sync.Mutex
	settled bool   // a title was asked for or adopted
	last    string // the title last published
	// context is the rolling tail of the session's prompts and answers,
	// collected until a title settles.
	context []uint16
	// askedAtPrompt: the latest prompt asked for a title, so its turn end
	// does not ask again.
	askedAtPrompt bool
}

// titleHost is what the titles reach of their session.
type titleHost interface {
	notify(update any)
	cli() *claude.Process
	// editorClosed reports whether the editor closed the session.
	editorClosed() bool
}

// reset forgets the title: a fresh Claude context is titled again.
func (t *titles) reset() {
	t.mu.Lock()
	t.settled, t.last, t.context, t.askedAtPrompt = false, "", nil, false
	t.mu.Unlock()
}

// appendContext adds text to the rolling title context (no-op once the
// title settled). The caller holds t.mu.
func (t *titles) appendContext(text string) {
	if t.settled {
		return
	}
	ctx := t.context
	for _, r := range text { // as utf16.Encode([]rune(text)), without copies
		ctx = utf16.AppendRune(ctx, r)
	}
	if n := len(ctx); n > maxTitleContext {
		// The tail moves down in place: every streamed chunk comes here.
		ctx = ctx[:copy(ctx, ctx[n-maxTitleContext:])]
	}
	t.context = ctx
}

// prompt collects a prompt's text for a later title.
func (t *titles) prompt(text string) {
	t.mu.Lock()
	t.appendContext("\n" + text + "\n")
	t.mu.Unlock()
}

// answer collects the assistant's text for a later title.
func (t *titles) answer(text string) {
	t.mu.Lock()
	t.appendContext(text)
	t.mu.Unlock()
}

// fromPrompt asks for a title from the prompt's text. The request is
// written before fromPrompt returns, so it reaches the CLI before the
// editor's next message (a cancel right behind the prompt), as the
// reference's does; its answer is awaited in the background. When a
// generation is still in flight, the request waits for it there.
func (t *titles) fromPrompt(ctx context.Context, text string) {
	t.mu.Lock()
	t.askedAtPrompt = false
	if t.settled || len(utf16.Encode([]rune(strings.TrimSpace(text)))) < minTitleTextLength {
		t.mu.Unlock()
		return
	}
	t.settled, t.askedAtPrompt = true, true
	t.mu.Unlock()
	description := strings.TrimSpace(text)
	if t.gen.TryLock() {
		finish := t.beginFromPrompt(description)
		go func() {
			defer t.gen.Unlock()
			finish(ctx)
		}()
		return
	}
	go func() {
		t.gen.Lock()
		defer t.gen.Unlock()
		t.beginFromPrompt(description)(ctx)
	}()
}

// beginFromPrompt writes the request for a title from description unless
// the session file holds one; t.gen is held. It returns what adopts the
// stored title, or waits for the answer.
func (t *titles) beginFromPrompt(description string) func(context.Context) {
	info, _ := t.stat()
	if info.CustomTitle != "" {
		return func(context.Context) { t.adopt(info) }
	}
	return t.begin(description, info)
}

// atTurnEnd adopts the title the session file holds, else asks for one
// from the session's text when the latest prompt did not, the turn was not
// cancelled and there is enough text. Otherwise, while the session has no
// title of its own, it publishes the stored summary (for a session without
// a generated title, its first prompt), cancelled turns included.
func (t *titles) atTurnEnd(ctx context.Context, cancelled bool) {
	go func() {
		info, ok := t.stored()
		if ok {
			return
		}
		closed := t.host.editorClosed()
		t.mu.Lock()
		description := strings.TrimSpace(string(utf16.Decode(t.context)))
		if !t.askedAtPrompt && !t.settled && !cancelled && !closed &&
			len(utf16.Encode([]rune(description))) >= minTitleTextLength {
			t.settled = true
			t.mu.Unlock()
			t.generate(ctx, description, info)
			return
		}
		settled := t.settled
		t.mu.Unlock()
		if !settled && info.Summary != "" {
			t.publish(info.Summary, info.Modified)
		}
	}()
}

// stored publishes the title the session file holds (a rename, a fork's),
// which wins over a generated one: the CLI checks only the titles it holds
// in memory before generating. It returns what the session file holds
// (zero when there is none) and whether it held a title.
func (t *titles) stored() (history.Info, bool) {
	info, ok := t.stat()
	if !ok || info.CustomTitle == "" {
		return info, false
	}
	t.adopt(info)
	return info, true
}

// adopt publishes the title the session file holds and latches it.
func (t *titles) adopt(info history.Info) {
	t.mu.Lock()
	t.settled, t.context = true, nil
	t.mu.Unlock()
	t.publish(info.CustomTitle, info.Modified)
}

// generate asks the CLI for a title and publishes it; no title releases
// the latch so a later prompt or turn end tries again, and publishes the
// summary the session file held before (fallback), if any.
func (t *titles) generate(ctx context.Context, description string, fallback history.Info) {
	t.gen.Lock()
	defer t.gen.Unlock()
	t.begin(description, fallback)(ctx)
}

// begin writes generate's request now; t.gen is held. It returns what
// waits for the answer and publishes it.
func (t *titles) begin(description string, fallback history.Info) func(context.Context) {
	if t.index.explicitTitle() {
		return func(context.Context) {}
	}
	wait, err := t.host.cli().Begin(claude.GenerateSessionTitle{Description: description, Persist: true})
	return func(ctx context.Context) {
		var r struct {
			Title *string `json:"title"`
		}
		if err == nil {
			err = wait(context.WithoutCancel(ctx), &r)
		}
		t.answered(r.Title, err, fallback)
	}
}

// answered publishes a generated title, or releases the latch and
// publishes the stored summary when there is none: the session file's as
// it is now, which holds the prompt the CLI has taken meanwhile, else
// fallback, read before the request.
func (t *titles) answered(title *string, err error, fallback history.Info) {
	if err != nil || title == nil || *title == "" {
		t.mu.Lock()
		t.settled = false
		t.mu.Unlock()
		if now, ok := t.stat(); ok && now.Summary != "" {
			fallback = now
		}
		if fallback.Summary != "" && !t.index.explicitTitle() {
			t.publish(fallback.Summary, fallback.Modified)
		}
		return
	}
	t.mu.Lock()
	t.context = nil
	t.mu.Unlock()
	if t.index.explicitTitle() {
		return // a rename or an archive came first
	}
	t.publish(*title, time.Now())
}

// publish sends a title unless it is the one last sent.
func (t *titles) publish(raw string, modified time.Time) {
	title := sanitizeTitle(raw)
	t.mu.Lock()
	same := title == t.last
	t.last = title
	t.mu.Unlock()
	if same {
		return
	}
	t.host.notify(map[string]any{"sessionUpdate": "session_info_update", "title": title,
		"updatedAt": modified.UTC().Format("2006-01-02T15:04:05.000Z")})
}

// publishCurrent sends the current title and the session file's time, even
// when the client was told them (a v2 resume: the client may hold none or
// stale ones): the stored title, else one published and settled, else the
// file's summary.
func (t *titles) publishCurrent() {
	info, ok := t.stat()
	t.mu.Lock()
	title := t.last
	if ok && (info.CustomTitle != "" || !t.settled || title == "") {
		title = sanitizeTitle(cmp.Or(info.CustomTitle, info.Summary))
	}
	if title != "" {
		t.last = title
	}
	t.mu.Unlock()
	if title == "" {
		return
	}
	u := map[string]any{"sessionUpdate": "session_info_update", "title": title}
	if ok {
		u["updatedAt"] = info.Modified.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	t.host.notify(u)
}

// shown is the title last published.
func (t *titles) shown() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last
}

// renamed records an explicit title the client was told of.
func (t *titles) renamed(title string) {
	t.mu.Lock()
	t.last = title
	t.mu.Unlock()
}

// settle marks the title settled: an explicit title came.
func (t *titles) settle() {
	t.mu.Lock()
	t.settled = true
	t.mu.Unlock()
}

// sanitizeTitle puts a title on one line with single spaces and cuts it
// to maxTitleLength with an ellipsis.
func sanitizeTitle(text string) string {
	s := strings.Join(strings.Fields(text), " ")
	u := utf16.Encode([]rune(s))
	if len(u) <= maxTitleLength {
		return s
	}
	return string(utf16.Decode(u[:maxTitleLength-1])) + "…"
}

// editorClosed reports whether the editor closed s (titleHost).
func (s *Session) editorClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Prompt suggestions: the CLI predicts the next prompt after a turn's
// result (prompt_suggestion). ACP has no field for it, so it travels as
// session_info_update._meta.promptSuggestions, to AIR clients only, as the
// reference sends it; a prompt clears a published prediction with an empty
// list, and a blank prediction is no prediction.

type promptSuggestion struct {
	expected  bool    // a result opened the window for a prediction
	published *string // the prediction the client holds (nil: none)
}

// resultEnded opens the window: a prompt_suggestion from now on belongs to
// the turn that just ended.
func (p *promptSuggestion) resultEnded() { p.expected = true }

// line handles a prompt_suggestion line: the update to send, if any (air:
// the client is an AIR client).
func (p *promptSuggestion) line(m *claude.Frame, air bool) any {
	if !p.expected {
		return nil
	}
	p.expected = false
	text := strings.TrimSpace(m.Suggestion)
	var t *string
	if text != "" {
		t = &text
	}
	return p.publish(t, air)
}

// clear is what a new prompt does: the prediction is spent. It returns the
// update to send, if any.
func (p *promptSuggestion) clear(air bool) any {
	p.expected = false
	return p.publish(nil, air)
}

// publish is the update that sends text (nil clears), nil when the client
// holds it already.
func (p *promptSuggestion) publish(text *string, air bool) any {
	if (p.published == nil && text == nil) || (p.published != nil && text != nil && *p.published == *text) {
		return nil
	}
	if !air {
		return nil
	}
	p.published = text
	list := []map[string]string{}
	if text != nil {
		list = append(list, map[string]string{"text": *text})
	}
	return map[string]any{"sessionUpdate": "session_info_update",
		"_meta": map[string]any{"promptSuggestions": map[string]any{"suggestions": list}}}
}
