package sessionindex

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"github.com/airwire/airwire/internal/replacefile"
)

// Rename (contract: "Session index", "Rename"): `_session/rename` stores the
// title as the title records of Archive, through the CLI for a session that
// runs here, else in every transcript with the CLI's custom-title.json
// sidecar (0600, written atomically).

// Live is a session that runs on this connection, titled through its CLI.
type Live struct {
	Cwd string
	// Rename sends the CLI its rename_session.
	Rename func(title string) error
	// Stored is the title last stored through the CLI ("" for none);
	// Shown the title the client was shown.
	Stored, Shown string
}

type idParams struct {
	SessionID any `json:"sessionId"`
	Title     any `json:"title"`
}

// ParseSessionID reads the sessionId of `_session/archive` and
// `_session/unarchive`: a non-blank string, trimmed.
func ParseSessionID(raw json.RawMessage) (string, error) {
	var p idParams
	_ = json.Unmarshal(raw, &p)
	id, ok := p.SessionID.(string)
	if !ok || strings.TrimSpace(id) == "" {
		return "", invalidParams(nil, "params require a non-empty sessionId")
	}
	return strings.TrimSpace(id), nil
}

// ParseRename reads `_session/rename`: the session id and the title on one
// line (at most 256 UTF-16 units); a blank title is -32602.
func ParseRename(raw json.RawMessage) (id, title string, err error) {
	if id, err = ParseSessionID(raw); err != nil {
		return "", "", err
	}
	var p idParams
	_ = json.Unmarshal(raw, &p)
	t, _ := p.Title.(string)
	if title = oneLine(t); title == "" {
		return "", "", invalidParams(nil, "title must be a non-empty string")
	}
	return id, title, nil
}

// oneLine puts a title on one line with single spaces, cut to 256 UTF-16
// units with an ellipsis.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if u := utf16.Encode([]rune(s)); len(u) > 256 {
		return string(utf16.Decode(u[:255])) + "…"
	}
	return s
}

// Rename names a session; an archived copy keeps its prefix. It returns
// the title the client is shown (without the prefix).
func (s *Service) Rename(id, title string, live *Live) (shown string, err error) {
	title = StoredTitle(title, false, id)
	stored, err := s.retitle(id, renameTo(title), retitleOpts{live: live, mayBeUnwritten: true, sidecarAlways: true})
	if err != nil {
		return "", err
	}
	if stored == "" {
		return title, nil
	}
	return VisibleTitle(stored), nil
}

type retitleOpts struct {
	live           *Live
	mayBeUnwritten bool // a new session of this connection may have no transcript yet
	sidecarAlways  bool // write the sidecar also where there is none
}

// retitle applies ch to every transcript of a session and returns the
// title stored first ("" when nothing was stored).
func (s *Service) retitle(id string, ch change, o retitleOpts) (string, error) {
	if !ValidID(id) {
		return "", NotFound(id)
	}
	defer s.written(id)
	var stored string
	err := s.exclusive(id, func() error {
		transcripts := s.Index.findTranscripts(id, false)
		if len(transcripts) == 0 && (o.live == nil || !o.mayBeUnwritten) {
			return NotFound(id)
		}
		var err error
		if o.live != nil {
			stored, err = s.retitleLive(id, transcripts, ch, o)
		} else {
			stored, err = titleCopies(id, paths(transcripts), ch, o.sidecarAlways)
		}
		return err
	})
	return stored, err
}

func paths(cs []candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.path
	}
	return out
}

// retitleLive titles the CLI's own transcript through the CLI, then the
// other copies here (a best effort).
func (s *Service) retitleLive(id string, transcripts []candidate, ch change, o retitleOpts) (string, error) {
	cli, others := "", []string{}
	own := encode(canonical(o.live.Cwd))
	for _, c := range transcripts {
		if cli == "" && c.dirName == own {
			cli = c.path
			continue
		}
		others = append(others, c.path)
	}
	current := ""
	if primary := firstNonEmpty(cli, first(others)); primary != "" {
		current = currentTitle(primary)
	}
	current = firstNonEmpty(current, o.live.Stored, o.live.Shown)
	stored, ok := ch(current, id)
	if ok {
		if err := o.live.Rename(stored); err != nil {
			return "", err
		}
		if cli != "" {
			_ = ensureAgentName(cli, id, stored)
		}
	} else if cli != "" {
		_ = alignSidecar(cli, current, id)
	}
	_, _ = titleCopies(id, others, ch, o.sidecarAlways)
	if !ok {
		return "", nil
	}
	return stored, nil
}

func first(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}

// currentTitle is the title of one copy, with the archive prefix only when
// the copy is archived ("" when unreadable or untitled).
func currentTitle(path string) string {
	f, st, err := openStat(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	title, archived := copyTitle(readHeadTail(f, st.Size()), path)
	if !archived && IsArchivedTitle(title) {
		return VisibleTitle(title)
	}
	return title
}

// titleCopies appends the records ch gives each copy, then its sidecar; a
// copy already in the requested state gets nothing but a sidecar in line.
func titleCopies(id string, transcripts []string, ch change, sidecarAlways bool) (string, error) {
	stored := ""
	for _, t := range transcripts {
		current := currentTitle(t)
		title, ok := ch(current, id)
		if !ok {
			if err := alignSidecar(t, current, id); err != nil {
				return stored, err
			}
			continue
		}
		if err := ensureTitleRecords(t, id, title); err != nil {
			return stored, err
		}
		stored = firstNonEmpty(stored, title)
		if sidecarAlways || exists(sidecarPath(t)) {
			if err := writeSidecar(t, title); err != nil {
				return stored, err
			}
		}
	}
	return stored, nil
}

// alignSidecar rewrites a sidecar that says the other archive state than
// the copy's title current.
func alignSidecar(transcript, current, id string) error {
	if current == "" {
		return nil
	}
	side := readSidecar(transcript)
	if side == "" || IsArchivedTitle(side) == IsArchivedTitle(current) {
		return nil
	}
	return writeSidecar(transcript, StoredTitle(current, IsArchivedTitle(current), id))
}

// ensureTitleRecords appends the title records unless they are the last
// two lines already; a torn last line gets a newline first.
func ensureTitleRecords(path, id, title string) error {
	records := titleRecords(id, title)
	last2, endsNL, err := lastLines(path)
	if err != nil {
		return err
	}
	if strings.Join(last2, "\n")+"\n" == records {
		return nil
	}
	return appendText(path, pick(endsNL, "", "\n")+records)
}

// ensureAgentName appends the agent-name record of title to a copy whose
// agent name is another one.
func ensureAgentName(path, id, title string) error {
	f, st, err := openStat(path)
	if err != nil {
		return err
	}
	ht := readHeadTail(f, st.Size())
	f.Close()
	name := transcriptAgentName(ht)
	if name == "" || name == title {
		return nil
	}
	return appendText(path, pick(strings.HasSuffix(ht.sdkTail, "\n"), "", "\n")+jsonLine(agentNameRecord(id, title)))
}

// lastLines are the last two non-blank lines of the file's last 64 KB, and
// whether it ends with a newline (an empty file counts as ending with one).
func lastLines(path string) ([]string, bool, error) {
	f, st, err := openStat(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	text := readRange(f, max(0, st.Size()-chunkSize), st.Size())
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > 2 {
		lines = lines[len(lines)-2:]
	}
	return lines, text == "" || strings.HasSuffix(text, "\n"), nil
}

func appendText(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeSidecar writes <session id>/custom-title.json as the CLI's /rename
// does: 0600 in a 0700 directory, through a temporary file renamed over it.
func writeSidecar(transcript, title string) error {
	target := sidecarPath(transcript)
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return err
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := target + ".tmp." + hex.EncodeToString(rnd[:])
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	body := strings.TrimSuffix(jsonLine(struct {
		CustomTitle string `json:"customTitle"`
	}{title}), "\n")
	_, werr := io.WriteString(f, body)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = replacefile.Rename(tmp, target) // closed first: Windows cannot rename an open file
	}
	if werr != nil {
		_ = os.Remove(tmp)
	}
	return werr
}
