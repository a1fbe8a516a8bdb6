package cassette

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/internal/projectdir"
)

// Placeholders a cassette carries instead of the recorded run's values.
const (
	PlaceholderCwd        = "{{cwd}}"
	PlaceholderHome       = "{{home}}"
	PlaceholderConfigDir  = "{{config_dir}}"
	PlaceholderTmpDir     = "{{tmpdir}}"
	PlaceholderProjectDir = "{{project_dir}}"
	// PlaceholderModelAPI is the host:port of the run's model API, which
	// an editor may name as its gateway (the CLI is then started with it).
	PlaceholderModelAPI = "{{model_api}}"
)

// SessionPlaceholder is the placeholder of the n-th session id (1-based,
// by first appearance in a --session-id or --resume argument).
func SessionPlaceholder(n int) string { return fmt.Sprintf("{{session_id_%d}}", n) }

// Substitutions are the machine-specific values of a run: the session's
// working directory, HOME, CLAUDE_CONFIG_DIR and TMPDIR, and the host:port
// of its model API. An empty field is not substituted.
type Substitutions struct {
	Cwd, Home, ConfigDir, TmpDir string
	ModelAPI                     string
	// TaskOutputs records the output file of each command the CLI ran in
	// the background (DirFile), read when the journal is taken: set it only
	// for a run whose files are still on disk, right after it ended.
	TaskOutputs bool
}

// pairs maps each value (and its symlink-free form) to its placeholder,
// plus the encoded project directory of Cwd (the CLI's
// CLAUDE_CONFIG_DIR/projects/<encoded cwd>).
func (s Substitutions) pairs() map[string]string {
	out := map[string]string{}
	add := func(v, ph string) {
		if v == "" || v == "/" {
			return
		}
		v = filepath.Clean(v)
		out[v] = ph
		if real, err := filepath.EvalSymlinks(v); err == nil && real != v {
			out[real] = ph
		}
	}
	add(s.Cwd, PlaceholderCwd)
	add(s.Home, PlaceholderHome)
	add(s.ConfigDir, PlaceholderConfigDir)
	add(s.TmpDir, PlaceholderTmpDir)
	if s.ModelAPI != "" {
		out[s.ModelAPI] = PlaceholderModelAPI
	}
	if s.Cwd != "" && s.Cwd != "/" {
		out[projectdir.Name(filepath.Clean(s.Cwd))] = PlaceholderProjectDir
	}
	return out
}

// replacer replaces strings, longest first, in plain text and in raw JSON
// (where it matches and writes the JSON-escaped forms).
type replacer struct {
	from, to []string
	// taskOutputs, with Substitutions.TaskOutputs, are what the editor
	// was shown of each display terminal (terminalOutputs).
	taskOutputs map[string]string
}

func newReplacer(m map[string]string) *replacer {
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != "" {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(a, b int) bool {
		if len(keys[a]) != len(keys[b]) {
			return len(keys[a]) > len(keys[b])
		}
		return keys[a] < keys[b]
	})
	r := &replacer{}
	for _, k := range keys {
		r.from = append(r.from, k)
		r.to = append(r.to, m[k])
	}
	return r
}

// str replaces in plain text.
func (r *replacer) str(s string) string {
	for i, f := range r.from {
		s = strings.ReplaceAll(s, f, r.to[i])
	}
	return s
}

// document replaces in a run's whole output: as JSON when it is a JSON
// document (auth status --json), so that a value with a backslash (a
// Windows path) stays escaped; as text otherwise.
func (r *replacer) document(s string) string {
	if json.Valid([]byte(s)) {
		return string(r.json([]byte(s)))
	}
	return r.str(s)
}

// strs replaces in every element of a copy of ss: as text, then as JSON
// text, for an argument that holds JSON (--mcp-config={…}) where a value
// with a backslash (a Windows path) is written escaped.
func (r *replacer) strs(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string(r.json([]byte(r.str(s))))
	}
	return out
}

// Windows paths. A run on Windows writes its paths with backslashes, and
// names a stand-in with its .exe; recordings are made on Unix, with
// slashes. What a run on Windows compares with a recording, it compares
// with every run of backslashes folded into one slash: a difference in
// separators only is not one there.

// OnWindows tells whether runs here are Windows runs, whose comparisons
// fold separators and which leave out Unix-only scenarios: the one switch
// for every package of the suite (a test sets it).
var OnWindows = runtime.GOOS == "windows"

var backslashesRE = lazyre.New(`\\+`)

// FoldSeparators folds each run of backslashes in s into one slash.
func FoldSeparators(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return backslashesRE.ReplaceAllString(s, "/")
}

// exeRE is a stand-in's .exe at the end of a path.
var exeRE = lazyre.New(`\.exe\b`)

// windowsArg is how a Windows run's argument compares with a recorded one:
// its separators folded, and .exe left off.
func windowsArg(a string) string { return exeRE.ReplaceAllString(FoldSeparators(a), "") }

// json replaces inside the string literals of a raw JSON value (keys
// included), comparing and writing JSON-escaped text. In JSON text inside
// a string (scenario.JSONTextKey) the values are escaped twice.
func (r *replacer) json(raw []byte) []byte {
	if bytes.Contains(raw, []byte(`"`+scenario.JSONTextKey+`":"`)) {
		raw = jsonTextRE.Compiled().ReplaceAllFunc(raw, func(span []byte) []byte { return r.escaped(span, 2) })
	}
	return r.escaped(raw, 1)
}

// jsonTextRE is a scenario.JSONTextKey member of raw JSON, its string
// whole (a literal, which lazyre's test compiles; TestJSONTextREIsTheKey
// holds it to the key).
var jsonTextRE = lazyre.New(`"partial_json":"(?:[^"\\]|\\.)*"`)

// escaped replaces in raw the values JSON-escaped depth times.
func (r *replacer) escaped(raw []byte, depth int) []byte {
	for i, f := range r.from {
		ef, et := []byte(f), []byte(r.to[i])
		for range depth {
			ef, et = []byte(scenario.JSONEscape(string(ef))), []byte(scenario.JSONEscape(string(et)))
		}
		if bytes.Contains(raw, ef) {
			raw = bytes.ReplaceAll(raw, ef, et)
		}
	}
	return raw
}

// sessionFlags are the CLI options whose value is a session id.
var sessionFlags = []string{"--session-id", "--resume"}

// argvSessions returns the session ids in argv (--session-id=X, --resume X)
// by flag, in argv order.
func argvSessions(argv []string) [][2]string {
	var out [][2]string
	for i, a := range argv {
		for _, f := range sessionFlags {
			if v, ok := strings.CutPrefix(a, f+"="); ok && v != "" {
				out = append(out, [2]string{f, v})
			} else if a == f && i+1 < len(argv) {
				out = append(out, [2]string{f, argv[i+1]})
			}
		}
	}
	return out
}
