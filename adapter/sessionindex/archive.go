package sessionindex

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf16"
)

// The archive state lives in the session title (contract: "Session index",
// "Archive"): a session is archived when its name, whitespace collapsed,
// starts with ArchivedPrefix. The name is the last agent name, else the
// custom title.

// ArchivedPrefix marks an archived session's title.
const ArchivedPrefix = "[archived] "

// cliTitleLimit is what the CLI keeps of a title: its first 200 UTF-16
// units, trimmed.
const cliTitleLimit = 200

const archivedMarker = "[archived]"

// isASCIISpace is the white space AIR collapses (Java's \s).
func isASCIISpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r'
}

// prefixLen is the length of one leading archive prefix of title (leading
// space, the marker, a run of white space before a title character), 0
// when it has none.
func prefixLen(title string) int {
	rest := strings.TrimLeftFunc(title, unicode.IsSpace)
	if !strings.HasPrefix(rest, archivedMarker) {
		return 0
	}
	after := rest[len(archivedMarker):]
	body := strings.TrimLeftFunc(after, isASCIISpace)
	if len(body) == len(after) || body == "" {
		return 0
	}
	return len(title) - len(body)
}

// IsArchivedTitle reports whether a session name marks it archived.
func IsArchivedTitle(title string) bool { return prefixLen(title) > 0 }

// VisibleTitle is title without one archive prefix, as the list shows it.
func VisibleTitle(title string) string { return title[prefixLen(title):] }

// stripPrefixes removes every leading archive prefix.
func stripPrefixes(title string) string {
	for n := prefixLen(title); n > 0; n = prefixLen(title) {
		title = title[n:]
	}
	return title
}

// DefaultTitle names a session without any title.
func DefaultTitle(sessionID string) string {
	if len(sessionID) > 8 {
		sessionID = sessionID[:8]
	}
	return "Session " + sessionID
}

// collapse puts ASCII white space runs to one space and trims.
func collapse(title string) string {
	return strings.Join(strings.FieldsFunc(title, isASCIISpace), " ")
}

// capTitle cuts a title to the CLI's limit, trimmed.
func capTitle(title string) string {
	u := utf16.Encode([]rune(title))
	if len(u) <= cliTitleLimit {
		return title
	}
	return strings.TrimSpace(string(utf16.Decode(u[:cliTitleLimit])))
}

// StoredTitle is title as stored in the given archive state: visible
// (every prefix removed, collapsed; DefaultTitle when empty), prefixed when
// archived, cut to the CLI's limit.
func StoredTitle(title string, archived bool, sessionID string) string {
	visible := collapse(stripPrefixes(title))
	if visible == "" {
		visible = DefaultTitle(sessionID)
	}
	if archived {
		visible = ArchivedPrefix + visible
	}
	return capTitle(visible)
}

// change is a retitle: the new title of a transcript whose current title
// is current ("" for none), or ok false to leave that copy alone.
type change func(current, sessionID string) (title string, ok bool)

// renameTo keeps the archive state of each copy.
func renameTo(title string) change {
	return func(current, id string) (string, bool) {
		if IsArchivedTitle(current) {
			return StoredTitle(title, true, id), true
		}
		return title, true
	}
}

// archiveTo sets the archive state; a copy already in it is left alone.
func archiveTo(archived bool) change {
	return func(current, id string) (string, bool) {
		if IsArchivedTitle(current) == archived {
			return "", false
		}
		return StoredTitle(current, archived, id), true
	}
}

// titleRecords are the custom-title and agent-name records of title, in
// the field order the CLI writes.
func titleRecords(sessionID, title string) string {
	return jsonLine(struct {
		Type        string `json:"type"`
		CustomTitle string `json:"customTitle"`
		SessionID   string `json:"sessionId"`
	}{"custom-title", title, sessionID}) + jsonLine(agentNameRecord(sessionID, title))
}

type agentName struct {
	Type      string `json:"type"`
	AgentName string `json:"agentName"`
	SessionID string `json:"sessionId"`
}

func agentNameRecord(sessionID, title string) agentName {
	return agentName{"agent-name", title, sessionID}
}

// jsonLine is v as one JSON line, without HTML escaping (as JSON.stringify).
func jsonLine(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return b.String()
}

// Archive sets the archive state of every transcript of a session
// (archived true: `_session/archive`; false: `_session/unarchive`). live is
// the session when it runs here (titled through its CLI); mayBeUnwritten
// lets a new session of this connection without a transcript yet through.
// A session without a transcript is otherwise -32002. Only the title
// records are written: a session that runs here is stopped by the caller.
func (s *Service) Archive(id string, archived bool, live *Live, mayBeUnwritten bool) error {
	_, err := s.retitle(id, archiveTo(archived), retitleOpts{live: live, mayBeUnwritten: mayBeUnwritten})
	return err
}

// ArchiveInsteadOfDelete is the session/delete of an AIR client without
// sessionIndex (contract: "Delete and close"): the session is archived,
// so the transcript survives. A session without a transcript succeeds.
func (s *Service) ArchiveInsteadOfDelete(id string) error {
	if !ValidID(id) || len(s.Index.findTranscripts(id, false)) == 0 {
		return nil
	}
	return s.Archive(id, true, nil, false)
}

// HiddenArchived are the sessions of the transcripts under the project
// directories of cwd (every project when nil) whose custom title, as the
// SDK reports it, is archived: an AIR client without sessionIndex does not
// see them in its plain list.
func (s *Service) HiddenArchived(cwd *string) map[string]bool {
	var paths []string
	if cwd != nil {
		paths = []string{canonical(*cwd)}
	}
	out := map[string]bool{}
	for _, c := range s.Index.candidates(scopeDirs(s.Index.configDir, paths)) {
		if m := s.Index.metaOf(c); m != nil && m.sdkArchived {
			out[c.sessionID] = true
		}
	}
	return out
}
