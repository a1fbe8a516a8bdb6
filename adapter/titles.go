package adapter

import (
	"context"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
)

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

// titles is one session's title state.
type titles struct {
	settled bool   // a title was asked for or adopted
	last    string // the title last published
	// context is the rolling tail of the session's prompts and answers,
	// collected until a title settles.
	context []uint16
	// askedAtPrompt: the latest prompt asked for a title, so its turn end
	// does not ask again.
	askedAtPrompt bool
}

// appendTitleContext adds text to the rolling title context (no-op once the
// title settled). The caller holds s.mu.
func (s *Session) appendTitleContext(text string) {
	if s.titles.settled {
		return
	}
	ctx := s.titles.context
	for _, r := range text { // as utf16.Encode([]rune(text)), without copies
		ctx = utf16.AppendRune(ctx, r)
	}
	if n := len(ctx); n > maxTitleContext {
		// The tail moves down in place: every streamed chunk comes here.
		ctx = ctx[:copy(ctx, ctx[n-maxTitleContext:])]
	}
	s.titles.context = ctx
}

// titlePrompt collects a prompt's text for a later title.
func (s *Session) titlePrompt(text string) {
	s.mu.Lock()
	s.appendTitleContext("\n" + text + "\n")
	s.mu.Unlock()
}

// titleAnswer collects the assistant's text for a later title.
func (s *Session) titleAnswer(text string) {
	s.mu.Lock()
	s.appendTitleContext(text)
	s.mu.Unlock()
}

// titleFromPrompt asks for a title from the prompt's text in the background.
func (s *Session) titleFromPrompt(ctx context.Context, text string) {
	s.mu.Lock()
	s.titles.askedAtPrompt = false
	if s.titles.settled || len(utf16.Encode([]rune(strings.TrimSpace(text)))) < minTitleTextLength {
		s.mu.Unlock()
		return
	}
	s.titles.settled, s.titles.askedAtPrompt = true, true
	s.mu.Unlock()
	go func() {
		if !s.storedTitle() {
			s.generateTitle(ctx, strings.TrimSpace(text))
		}
	}()
}

// titleAtTurnEnd adopts the title the session file holds, else asks for
// one from the session's text when the latest prompt did not, the turn was
// not cancelled and there is enough text.
func (s *Session) titleAtTurnEnd(ctx context.Context, cancelled bool) {
	go func() {
		if s.storedTitle() {
			return
		}
		s.mu.Lock()
		description := strings.TrimSpace(string(utf16.Decode(s.titles.context)))
		if s.titles.askedAtPrompt || s.titles.settled || cancelled || s.closed ||
			len(utf16.Encode([]rune(description))) < minTitleTextLength {
			s.mu.Unlock()
			return
		}
		s.titles.settled = true
		s.mu.Unlock()
		s.generateTitle(ctx, description)
	}()
}

// storedTitle publishes the title the session file holds (a rename, a
// fork's), which wins over a generated one: the CLI checks only the titles
// it holds in memory before generating.
func (s *Session) storedTitle() bool {
	info, ok := history.Stat(s.agent.configDir(), s.ID)
	if !ok || info.CustomTitle == "" {
		return false
	}
	s.mu.Lock()
	s.titles.settled, s.titles.context = true, nil
	s.mu.Unlock()
	s.publishTitle(info.CustomTitle, info.Modified)
	return true
}

// generateTitle asks the CLI for a title and publishes it; no title
// releases the latch so a later prompt or turn end tries again.
func (s *Session) generateTitle(ctx context.Context, description string) {
	s.titleGen.Lock()
	defer s.titleGen.Unlock()
	if s.explicitTitle() {
		return
	}
	var r struct {
		Title *string `json:"title"`
	}
	err := s.cli().Request(context.WithoutCancel(ctx), claude.GenerateSessionTitle{Description: description, Persist: true}, &r)
	if err != nil || r.Title == nil || *r.Title == "" {
		s.mu.Lock()
		s.titles.settled = false
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	s.titles.context = nil
	s.mu.Unlock()
	if s.explicitTitle() {
		return // a rename or an archive came first
	}
	s.publishTitle(*r.Title, time.Now())
}

// publishTitle sends a title unless it is the one last sent.
func (s *Session) publishTitle(raw string, modified time.Time) {
	title := sanitizeTitle(raw)
	s.mu.Lock()
	same := title == s.titles.last
	s.titles.last = title
	s.mu.Unlock()
	if same {
		return
	}
	s.notify(map[string]any{"sessionUpdate": "session_info_update", "title": title,
		"updatedAt": modified.UTC().Format("2006-01-02T15:04:05.000Z")})
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
