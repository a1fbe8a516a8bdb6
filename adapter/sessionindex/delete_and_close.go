package sessionindex

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Delete and close (contract: "Session index", "Delete and close"): a
// sessionIndex client's session/delete removes every transcript of the
// session (empty ones too) and every <sessionId>/ directory; anything left
// behind fails the request. The caller closes a session that runs here
// first (known: it was loaded here, so nothing stored is no error).

// Delete removes a session; an unknown one is -32002 unless known.
func (s *Service) Delete(id string, known bool) error {
	if !ValidID(id) {
		return NotFound(id)
	}
	defer s.written(id)
	return s.exclusive(id, func() error {
		transcripts, dirs := s.scanSession(id)
		if len(transcripts) == 0 && len(dirs) == 0 {
			if known {
				return nil
			}
			return NotFound(id)
		}
		defer s.Index.forget(transcripts...)
		for _, t := range transcripts {
			if err := os.Remove(t); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
		for _, d := range dirs {
			if err := os.RemoveAll(d); err != nil {
				return err
			}
		}
		if lt, ld := s.scanSession(id); len(lt)+len(ld) > 0 {
			return fmt.Errorf("session %s was not deleted: %s remain", id, strings.Join(append(lt, ld...), ", "))
		}
		return nil
	})
}

// scanSession are the transcripts (empty ones too) and the session
// directories of id in every project directory.
func (s *Service) scanSession(id string) (transcripts, dirs []string) {
	root := projectsDir(s.Index.configDir)
	for dirName := range scopeDirs(s.Index.configDir, nil) {
		base := filepath.Join(root, dirName, id)
		if st, err := os.Lstat(base + ".jsonl"); err == nil && !st.IsDir() {
			transcripts = append(transcripts, base+".jsonl")
		}
		if st, err := os.Lstat(base); err == nil && st.IsDir() {
			dirs = append(dirs, base)
		}
	}
	return transcripts, dirs
}
