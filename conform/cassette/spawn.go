package cassette

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// StatePath is the spawn counter file of one replayed run: EnvReplayState
// when set, else a file in the temporary directory named after the
// cassette's absolute path, HOME and CLAUDE_CONFIG_DIR (each run of the
// conformance suite has its own), so the CLI processes one agent spawns
// share it and other runs do not.
func StatePath(cassettePath string, getenv func(string) string) string {
	if p := getenv(EnvReplayState); p != "" {
		return p
	}
	abs, err := filepath.Abs(cassettePath)
	if err != nil {
		abs = cassettePath
	}
	sum := sha256.Sum256([]byte(abs + "\x00" + getenv("HOME") + "\x00" + getenv("CLAUDE_CONFIG_DIR")))
	return filepath.Join(os.TempDir(), "airwire-replay-"+hex.EncodeToString(sum[:8])+".count")
}

// SpawnCounter returns an Options.Spawn that increments the number in the
// file at path under an exclusive lock and returns it (1 for the first
// spawn).
func SpawnCounter(path string) func() (int, error) {
	return func() (int, error) {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		if err := lockFile(f); err != nil {
			return 0, fmt.Errorf("lock %s: %w", path, err)
		}
		defer unlockFile(f)
		b := make([]byte, 32)
		k, _ := f.ReadAt(b, 0)
		n := 0
		if s := strings.TrimSpace(string(b[:k])); s != "" {
			if n, err = strconv.Atoi(s); err != nil {
				return 0, fmt.Errorf("%s: not a spawn count: %q", path, s)
			}
		}
		n++
		if err := f.Truncate(0); err != nil {
			return 0, err
		}
		if _, err := f.WriteAt([]byte(strconv.Itoa(n)+"\n"), 0); err != nil {
			return 0, err
		}
		return n, nil
	}
}

// RunCounter returns an Options.Runs that counts the runs of each argv in
// a file beside the spawn counter at statePath.
func RunCounter(statePath string) func(argv []string) (int, error) {
	return func(argv []string) (int, error) {
		sum := sha256.Sum256([]byte(strings.Join(argv, "\x00")))
		return SpawnCounter(statePath + "." + hex.EncodeToString(sum[:6]))()
	}
}
