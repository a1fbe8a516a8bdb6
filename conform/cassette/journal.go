package cassette

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/airwire/airwire/internal/journal"
)

// ErrNoCLILane is returned by FromJournal for a journal without CLI spawns
// (recorded without --cli-lane).
var ErrNoCLILane = errors.New("the journal has no CLI lane (record with --cli-lane)")

// FromJournalFile reads the journal at path and builds its cassette.
func FromJournalFile(path string, subs Substitutions) (*Cassette, error) {
	h, entries, err := journal.ReadAll(path)
	if err != nil {
		return nil, err
	}
	c, err := FromJournal(entries, subs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.Source = fmt.Sprintf("airwire %s journal of %s", h.Airwire, h.Start.UTC().Format(time.RFC3339))
	return c, nil
}

// FromJournal takes the CLI lane of a journal: every stream-json CLI
// process in spawn order with its argv, its frames in both directions in
// seq order, its stderr lines and its exit; and every other CLI run (auth
// status --json, --version) with its argv, output and exit. The values of
// subs, the encoded project directory of subs.Cwd and the session ids of
// --session-id/--resume arguments become placeholders; everything else is
// kept as recorded.
func FromJournal(entries []journal.Entry, subs Substitutions) (*Cassette, error) {
	sorted := make([]*journal.Entry, 0, len(entries))
	for i := range entries {
		if entries[i].Lane == journal.LaneCLI {
			sorted = append(sorted, &entries[i])
		}
	}
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].Seq < sorted[b].Seq })

	pairs := subs.pairs()
	procs := map[string]*Process{}
	runs := map[string]*Run{}
	var order []string
	for _, e := range sorted {
		if e.Kind != journal.KindSpawn {
			continue
		}
		if _, dup := procs[e.Proc]; dup {
			return nil, fmt.Errorf("seq %d: a second spawn of %s", e.Seq, e.Proc)
		}
		if _, dup := runs[e.Proc]; dup {
			return nil, fmt.Errorf("seq %d: a second spawn of %s", e.Seq, e.Proc)
		}
		order = append(order, e.Proc)
		if IsStreamJSON(e.Argv) {
			procs[e.Proc] = &Process{}
			for _, kv := range argvSessions(e.Argv) {
				if _, ok := pairs[kv[1]]; !ok {
					pairs[kv[1]] = SessionPlaceholder(countSessions(pairs) + 1)
				}
			}
		} else {
			runs[e.Proc] = &Run{}
		}
	}
	if len(order) == 0 {
		return nil, ErrNoCLILane
	}
	r := newReplacer(pairs)
	if subs.TaskOutputs {
		r.taskOutputs = terminalOutputs(entries)
	}
	for _, e := range sorted {
		if p := procs[e.Proc]; p != nil {
			addProcessEntry(p, e, r)
		} else if run := runs[e.Proc]; run != nil {
			addRunEntry(run, e, r)
		}
	}
	c := &Cassette{}
	for _, name := range order {
		if p := procs[name]; p != nil {
			c.Processes = append(c.Processes, *p)
		} else {
			run := runs[name]
			run.Stdout = r.document(run.Stdout)
			c.Runs = append(c.Runs, *run)
		}
	}
	return c, nil
}

func countSessions(pairs map[string]string) int {
	n := 0
	for _, ph := range pairs {
		if strings.HasPrefix(ph, "{{session_id_") {
			n++
		}
	}
	return n
}

func argvOf(e *journal.Entry, r *replacer) []string {
	if len(e.Argv) == 0 {
		return []string{}
	}
	return r.strs(e.Argv[1:])
}

func exitOf(e *journal.Entry) *Exit {
	if e.Exit == nil {
		return &Exit{}
	}
	return &Exit{Code: e.Exit.Code, Signal: e.Exit.Signal}
}

func addProcessEntry(p *Process, e *journal.Entry, r *replacer) {
	switch e.Kind {
	case journal.KindSpawn:
		p.Argv = argvOf(e, r)
	case journal.KindMsg:
		p.Events = append(p.Events, Event{Dir: string(e.Dir), Msg: r.json(append([]byte(nil), e.Msg...))})
		if r.taskOutputs != nil && e.Dir == journal.DirCLI {
			addTaskOutput(p, e.Msg, r, r.taskOutputs)
		}
	case journal.KindNonJSON:
		p.Events = append(p.Events, Event{Dir: string(e.Dir), Text: r.str(strings.TrimRight(string(e.Frame()), "\n"))})
	case journal.KindStderr:
		p.Events = append(p.Events, Event{Dir: DirStderr, Text: r.str(e.TextOf())})
	case journal.KindExit:
		p.Exit = exitOf(e)
	}
}

func addRunEntry(run *Run, e *journal.Entry, r *replacer) {
	switch {
	case e.Kind == journal.KindSpawn:
		run.Argv = argvOf(e, r)
	case (e.Kind == journal.KindMsg || e.Kind == journal.KindNonJSON) && e.Dir == journal.DirCLI:
		run.Stdout += string(e.Frame()) // replaced whole, at the end
	case e.Kind == journal.KindStderr:
		run.Stderr = append(run.Stderr, r.str(e.TextOf()))
	case e.Kind == journal.KindExit:
		run.Exit = exitOf(e)
	}
}

// IsStreamJSON reports whether a CLI argv speaks stream-json.
func IsStreamJSON(argv []string) bool {
	for _, a := range argv {
		if a == "stream-json" || strings.HasSuffix(a, "=stream-json") {
			return true
		}
	}
	return false
}
