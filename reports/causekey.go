package reports

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// What a cause is keyed by leaves out what only says where a change sits
// in one run, not what it is: the number of the CLI process on a lane tag
// (cli:1, cli:2), the index of a command-line option in an argv (keyed by
// its flag), the line or index a moved line or element went to, and the
// response id (a response is named by the method of the request it
// answers, Difference.Method). The patterns are compiled on first use (no
// package init code).
var (
	keyOnce                               sync.Once
	cliTagRE, indexRE, atRE, digitsRE     *regexp.Regexp
	spawnRE, startedRE, withRE, withoutRE *regexp.Regexp
	quotedRE                              *regexp.Regexp
)

func compileKeys() {
	keyOnce.Do(func() {
		cliTagRE = regexp.MustCompile(`^cli:[0-9]+\b`)
		indexRE = regexp.MustCompile(`\[[0-9]+\]$`)
		atRE = regexp.MustCompile(`^\(at (line [0-9]+|.*\[[0-9]+\])\)$`)
		digitsRE = regexp.MustCompile(`[0-9]+`)
		spawnRE = regexp.MustCompile(`^stream-json spawn #[0-9]+: (.*)$`)
		startedRE = regexp.MustCompile("^the CLI was started with (`.*`) where the recording has (`.*`)$")
		withRE = regexp.MustCompile("^the CLI was started with (`.*`), which the recording does not have$")
		withoutRE = regexp.MustCompile("^the CLI was started without (`.*`), which the recording has$")
		quotedRE = regexp.MustCompile("`([^`]*)`")
	})
}

// keyTag is a lane tag without its CLI process number ("cli:1 spawn" is
// "cli:N spawn").
func keyTag(tag string) string {
	compileKeys()
	return cliTagRE.ReplaceAllString(tag, "cli:N")
}

// KeyPath is a difference's path with the index of a command-line option
// replaced by the option's flag: $.argv[9] whose value is
// "--permission-mode=auto" is $.argv[--permission-mode], so the same
// option is one cause wherever a run's argv puts it.
func KeyPath(path, old, new string) string { return keyPath(path, old, new) }

func keyPath(path, old, new string) string {
	compileKeys()
	if !indexRE.MatchString(path) {
		return path
	}
	for _, v := range []string{old, new} {
		var s string
		if json.Unmarshal([]byte(v), &s) == nil && strings.HasPrefix(s, "-") {
			return indexRE.ReplaceAllString(path, "["+flagOf(s)+"]")
		}
	}
	return path
}

// flagOf is an option's flag: "--permission-mode=auto" is
// "--permission-mode".
func flagOf(opt string) string {
	flag, _, _ := strings.Cut(opt, "=")
	return flag
}

// keyMoved is where a moved line or element went, without its line or
// index: the same move is one cause wherever the run put it.
func keyMoved(kind, new string) string {
	compileKeys()
	if kind == "moved" && atRE.MatchString(new) {
		return ""
	}
	return new
}

// MethodAt is the JSON-RPC method of line n (1-based) of a canonical
// transcript: the message's own, or, for a response, the method of the
// request with its id on the same lane in the other direction, earlier in
// the transcript ("" when the line is not a JSON-RPC message or the
// request is not there).
func MethodAt(lines []string, n int) string {
	if n < 1 || n > len(lines) {
		return ""
	}
	tag, msg := splitMessage(lines[n-1])
	if msg == nil {
		return ""
	}
	if msg.Method != "" || len(msg.ID) == 0 {
		return msg.Method
	}
	from, to, ok := strings.Cut(tag[strings.LastIndex(tag, " ")+1:], "->")
	if !ok {
		return ""
	}
	want := strings.TrimSuffix(tag, from+"->"+to) + to + "->" + from
	for i := n - 2; i >= 0; i-- {
		if !strings.HasPrefix(lines[i], want+" ") {
			continue
		}
		t, m := splitMessage(lines[i])
		if t == want && m != nil && m.Method != "" && bytes.Equal(m.ID, msg.ID) {
			return m.Method
		}
	}
	return ""
}

// message is what MethodAt reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// splitMessage cuts a canonical line "<tag> <json>" into its tag and its
// message (nil when the rest is not a JSON object).
func splitMessage(line string) (string, *message) {
	i := strings.IndexByte(line, '{')
	if i < 0 {
		return line, nil
	}
	var m message
	if json.Unmarshal([]byte(line[i:]), &m) != nil {
		return line, nil
	}
	return strings.TrimSpace(line[:i]), &m
}

// failureChanges are the causes of a run that failed without a comparison
// (check cassette, run or load), from what its failure says. A cassette's
// refused argv is the change of each option, as a golden comparison finds
// it on the spawn line, so that the same change is one cause in the runs
// that replay and in those that compare; anything else is the message
// with its numbers and the run's own names made equal.
func failureChanges(run Run) []Change {
	f := run.Failure
	if f.Check == CheckCassette && len(f.Reasons) > 0 {
		var out []Change
		for _, r := range f.Reasons {
			out = append(out, reasonChanges(run, r)...)
		}
		return out
	}
	first, _, _ := strings.Cut(f.Message, "\n")
	return []Change{{Kind: f.Check, Old: keyMessage(run, first)}}
}

// reasonChanges are the changes a cassette's refusal names: for a spawn
// whose argv differs, each option that changed, is extra or is missing.
func reasonChanges(run Run, reason string) []Change {
	compileKeys()
	m := spawnRE.FindStringSubmatch(reason)
	if m == nil {
		return []Change{{Kind: CheckCassette, Old: keyMessage(run, reason)}}
	}
	var got, rec []string
	switch {
	case startedRE.MatchString(m[1]):
		s := startedRE.FindStringSubmatch(m[1])
		got, rec = quoted(s[1]), quoted(s[2])
	case withRE.MatchString(m[1]):
		got = quoted(withRE.FindStringSubmatch(m[1])[1])
	case withoutRE.MatchString(m[1]):
		rec = quoted(withoutRE.FindStringSubmatch(m[1])[1])
	default:
		return []Change{{Kind: CheckCassette, Tag: "cli:N spawn", Old: keyMessage(run, m[1])}}
	}
	return argvChanges(got, rec)
}

// argvChanges pairs the options of two argvs by flag: a flag on both sides
// changed, one only in got is extra, one only in rec is missing.
func argvChanges(got, rec []string) []Change {
	var out []Change
	base := Change{Tag: "cli:N spawn"}
	for _, r := range rec {
		c := base
		c.Kind, c.Path, c.Old, c.New = "missing", "$.argv["+flagOf(r)+"]", encString(r), "(absent)"
		for _, g := range got {
			if flagOf(g) == flagOf(r) {
				c.Kind, c.New = "changed", encString(g)
			}
		}
		out = append(out, c)
	}
	for _, g := range got {
		if !slices.ContainsFunc(rec, func(r string) bool { return flagOf(r) == flagOf(g) }) {
			c := base
			c.Kind, c.Path, c.Old, c.New = "extra", "$.argv["+flagOf(g)+"]", "(absent)", encString(g)
			out = append(out, c)
		}
	}
	return out
}

func quoted(list string) []string {
	var out []string
	for _, m := range quotedRE.FindAllStringSubmatch(list, -1) {
		out = append(out, m[1])
	}
	return out
}

// encString is s as a JSON value, as a difference's values are written.
func encString(s string) string {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	_ = e.Encode(s) // a string always encodes
	return strings.TrimRight(buf.String(), "\n")
}

// keyMessage is a failure message as a cause keys it: the run's scenario
// and profile names, numbered placeholders and every number made equal.
func keyMessage(run Run, msg string) string {
	compileKeys()
	if run.Profile != "" {
		msg = strings.ReplaceAll(msg, run.ID(), "<scenario>/<profile>")
	}
	if run.Scenario != "" {
		msg = strings.ReplaceAll(msg, run.Scenario, "<scenario>")
	}
	return digitsRE.ReplaceAllString(normalize(msg), "N")
}
