package adapter

import (
	"context"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
	"strings"
	"time"
	"unicode/utf16"
)

// Session titles: the agent asks the CLI for a title (generate_session_title,
// persisted to the session file) as soon as a prompt with enough text is
// sent, once per session, and publishes it as a session_info_update.
const (
	maxTitleLength     = 256 // UTF-16 units, as the reference counts
	minTitleTextLength = 10  // below this the CLI generates nothing
)

// titles is one session's title state.
type titles struct {
	settled bool   // a title was asked for or adopted
	last    string // the title last published
}

// onPromptQueued asks for a title from the prompt's text in the background.
func (s *Session) titleFromPrompt(ctx context.Context, text string) {
	s.mu.Lock()
	if s.titles.settled || len(utf16.Encode([]rune(strings.TrimSpace(text)))) < minTitleTextLength {
		s.mu.Unlock()
		return
	}
	s.titles.settled = true
	s.mu.Unlock()
	go func() {
		// A title the session file holds (a rename, a fork's) wins; the CLI
		// checks only the titles it holds in memory before generating.
		if info, ok := history.Stat(s.agent.configDir(), s.ID); ok && info.CustomTitle != "" {
			s.publishTitle(info.CustomTitle, info.Modified)
			return
		}
		var r struct {
			Title *string `json:"title"`
		}
		err := s.proc.Request(context.WithoutCancel(ctx),
			claude.GenerateSessionTitle{Description: strings.TrimSpace(text), Persist: true}, &r)
		if err != nil || r.Title == nil || *r.Title == "" {
			s.mu.Lock()
			s.titles.settled = false
			s.mu.Unlock()
			return
		}
		s.publishTitle(*r.Title, time.Now())
	}()
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
