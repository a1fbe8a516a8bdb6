package scenario

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/airwire/airwire/internal/jsonwalk"
	"github.com/airwire/airwire/internal/lazyre"
)

// CLI-side placeholders, filled in by the fake CLI.
const (
	VarCwd            = "cwd"
	VarHome           = "home"
	VarConfigDir      = "config_dir"
	VarSessionID      = "session_id"
	VarTranscriptPath = "transcript_path"
	// VarDenyMessage is the message of the permission answer that denied the
	// current tool; only the deny branch of a tool call uses it.
	VarDenyMessage = "deny_message"
)

// CLIPlaceholders are the names a cli section may use.
var CLIPlaceholders = []string{VarCwd, VarHome, VarConfigDir, VarSessionID, VarTranscriptPath, VarDenyMessage}

// ConfigFilePlaceholders are the names the paths and contents of
// configFiles may use, filled in when the run's files are written:
// {{pid}} is the pid of the process that drives the run and {{ppid}} its
// parent's, both alive for the whole run (the live registry counts only
// records of live processes); {{now_ms}} is the time of writing in epoch
// milliseconds (the registry counts a record without a matching procStart
// only when it is younger than 24 hours); {{project_dir}} is the name of
// the run cwd's folder under <config dir>/projects, where the CLI keeps the
// cwd's sessions (and a session's subagent transcripts in
// projects/<dir>/<session id>/subagents/).
var ConfigFilePlaceholders = []string{"cwd", "home", "config_dir", "pid", "ppid", "now_ms", "project_dir"}

// ClientPlaceholders are the names a client section may use; saved.NAME.PATH
// is also allowed.
var ClientPlaceholders = []string{"sessionId", "cwd", "home", "mcpServer", "modelApi"}

var placeholderRE = lazyre.New(`\{\{\s*([A-Za-z0-9_.\-]+)\s*\}\}`)

// JSONTextKey is the one member of the CLI's frames whose string is
// itself JSON text: a streamed tool input's fragment. A value put into it
// goes in JSON-escaped, as a Windows path's backslashes must; in a raw
// frame it is escaped twice.
const JSONTextKey = "partial_json"

// Expand returns a deep copy of v with every {{name}} in string values
// replaced by vars[name]. Unknown names stay as they are; a value put into
// JSON text (JSONTextKey) is JSON-escaped.
func Expand(v any, vars map[string]string) any {
	var escaped map[string]string
	return jsonwalk.MapKeyedStrings(v, func(key, s string) string {
		if key != JSONTextKey || !strings.Contains(s, "{{") {
			return ExpandString(s, vars)
		}
		if escaped == nil {
			escaped = JSONEscaped(vars)
		}
		return ExpandString(s, escaped)
	})
}

// JSONEscaped is vars with each value as it is written inside a JSON
// string, to expand placeholders in JSON text.
func JSONEscaped(vars map[string]string) map[string]string {
	out := make(map[string]string, len(vars))
	for k, val := range vars {
		out[k] = JSONEscape(val)
	}
	return out
}

// JSONEscape is s as it is written inside a JSON string literal (no HTML
// escapes).
func JSONEscape(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	q := strings.TrimSpace(b.String())
	return q[1 : len(q)-1]
}

// ExpandString replaces {{name}} in s.
func ExpandString(s string, vars map[string]string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	return placeholderRE.ReplaceAllStringFunc(s, func(m string) string {
		name := placeholderRE.FindStringSubmatch(m)[1]
		if val, ok := vars[name]; ok {
			return val
		}
		return m
	})
}

// Placeholders lists the distinct placeholder names used in v, sorted.
func Placeholders(v any) []string {
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case string:
			for _, m := range placeholderRE.FindAllStringSubmatch(t, -1) {
				seen[m[1]] = true
			}
		case map[string]any:
			for _, e := range t {
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		case []map[string]any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
