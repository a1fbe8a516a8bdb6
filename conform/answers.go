package conform

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/airwire/airwire/conform/scenario"
)

// answerer answers agent → editor requests the way the scenario says
// (scenario.Answers). Every answer is written right after the request it
// answers, so its canonical place never depends on timing.
type answerer struct {
	c       *client
	answers scenario.Answers
	cwd     string
	// root is the run's directory; fs requests outside it are refused, so
	// an agent under test never reads or writes the host's files.
	root string
	// sessionID returns the session the run opened (for cancelTurn).
	sessionID func() string
	// cancelled waits until the agent withdrew request m ($/cancel_request)
	// or CancelWait passed: cancelTurn answers only then, so the answer never
	// races the agent's own reaction to session/cancel.
	cancelled func(m *agentMsg)

	// late counts answers still being prepared off the reader goroutine;
	// the driver waits for them before it closes the agent's stdin.
	late sync.WaitGroup

	mu          sync.Mutex
	permissions int
	elicits     int
	terminals   int
}

func (a *answerer) handle(m *agentMsg) {
	if m.method == "session/request_permission" && a.nextPermission().CancelAtOnce {
		// The editor's stop button: the cancelled answer and session/cancel
		// go out together, before the agent can react to either.
		a.answer(m)
		if err := a.c.notify("session/cancel", map[string]any{"sessionId": a.session(m)}, m.index, false); err != nil {
			a.c.addProblem("cannot send session/cancel: %v", err)
		}
		return
	}
	if m.method == "session/request_permission" && a.nextPermission().CloseAtOnce {
		// The editor closes the session's tab: session/close, then the open
		// request settled as cancelled, before the agent can react.
		if _, err := a.c.request("session/close", map[string]any{"sessionId": a.session(m)}, m.index, false); err != nil {
			a.c.addProblem("cannot send session/close: %v", err)
		}
		a.answer(m)
		return
	}
	if m.method == "session/request_permission" && a.nextPermission().CancelTurn {
		// Answer off the reader goroutine: the cancel must take effect (the
		// agent's reaction must have been read) before the answer goes out.
		a.late.Add(1)
		go func() { defer a.late.Done(); a.answer(m) }()
		return
	}
	a.answer(m)
}

func (a *answerer) answer(m *agentMsg) {
	res, rerr := a.dispatch(m)
	if err := a.c.reply(m, res, rerr); err != nil {
		a.c.addProblem("cannot answer %s: %v", m.method, err)
	}
}

var errNotFound = &rpcError{Code: -32002, Message: "Resource not found"}

func (a *answerer) dispatch(m *agentMsg) (any, *rpcError) {
	switch m.method {
	case "session/request_permission":
		return a.permission(m)
	case "elicitation/create":
		return a.elicitation(m.params), nil
	case "fs/read_text_file":
		return a.readFile(m.params)
	case "fs/write_text_file":
		return a.writeFile(m.params)
	case "terminal/create":
		a.mu.Lock()
		a.terminals++
		id := fmt.Sprintf("term-%d", a.terminals)
		a.mu.Unlock()
		return map[string]any{"terminalId": id}, nil
	case "terminal/output":
		t := a.answers.Terminal
		return map[string]any{"output": t.Output, "truncated": t.Truncated, "exitStatus": map[string]any{"exitCode": t.ExitCode, "signal": nil}}, nil
	case "terminal/wait_for_exit":
		return map[string]any{"exitCode": a.answers.Terminal.ExitCode, "signal": nil}, nil
	case "terminal/kill", "terminal/release":
		return map[string]any{}, nil
	}
	return nil, &rpcError{Code: -32601, Message: "Method not found: " + m.method}
}

// nextPermission is the answer the next permission request gets.
func (a *answerer) nextPermission() scenario.PermissionAnswer {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := len(a.answers.Permission); n > 0 {
		return a.answers.Permission[min(a.permissions, n-1)]
	}
	return scenario.PermissionAnswer{Kind: scenario.KindAllowOnce}
}

// permission picks an option: by id, by kind (falling back to the same
// allow_/reject_ prefix, then to the first option), or cancels.
func (a *answerer) permission(m *agentMsg) (any, *rpcError) {
	a.mu.Lock()
	var ans scenario.PermissionAnswer
	if n := len(a.answers.Permission); n > 0 {
		ans = a.answers.Permission[min(a.permissions, n-1)]
	} else {
		ans.Kind = scenario.KindAllowOnce
	}
	a.permissions++
	a.mu.Unlock()
	cancelled := map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}
	switch {
	case ans.CancelTurn:
		if err := a.c.notify("session/cancel", map[string]any{"sessionId": a.session(m)}, m.index, false); err != nil {
			a.c.addProblem("cannot send session/cancel: %v", err)
		}
		if a.cancelled != nil {
			a.cancelled(m)
		}
		return cancelled, nil
	case ans.Cancelled, ans.CancelAtOnce, ans.CloseAtOnce:
		return cancelled, nil
	}
	opts, _ := m.params["options"].([]any)
	pick := func(match func(id, kind string) bool) string {
		for _, o := range opts {
			om, _ := o.(map[string]any)
			id, _ := om["optionId"].(string)
			kind, _ := om["kind"].(string)
			if match(id, kind) {
				return id
			}
		}
		return ""
	}
	var id string
	if ans.OptionID != "" {
		id = pick(func(oid, _ string) bool { return oid == ans.OptionID })
		if id == "" {
			a.c.addProblem("session/request_permission: no option with optionId %q (options: %s)", ans.OptionID, optionList(opts))
			return cancelled, nil
		}
	} else {
		id = pick(func(_, kind string) bool { return kind == ans.Kind })
		if id == "" {
			prefix, _, _ := strings.Cut(ans.Kind, "_")
			id = pick(func(_, kind string) bool { return strings.HasPrefix(kind, prefix+"_") })
		}
		if id == "" {
			id = pick(func(string, string) bool { return true })
		}
	}
	if id == "" {
		return cancelled, nil
	}
	return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": id}}, nil
}

// session is the session a permission request m belongs to.
func (a *answerer) session(m *agentMsg) string {
	if sid, _ := m.params["sessionId"].(string); sid != "" {
		return sid
	}
	return a.sessionID()
}

func optionList(opts []any) string {
	var ids []string
	for _, o := range opts {
		om, _ := o.(map[string]any)
		id, _ := om["optionId"].(string)
		ids = append(ids, id)
	}
	return strings.Join(ids, ", ")
}

// elicitation answers elicitation/create: the scenario's answer, or accept
// with the first enum / oneOf const of each property.
func (a *answerer) elicitation(params map[string]any) any {
	a.mu.Lock()
	var ans *scenario.ElicitationAnswer
	if n := len(a.answers.Elicitation); n > 0 {
		ans = &a.answers.Elicitation[min(a.elicits, n-1)]
	}
	a.elicits++
	a.mu.Unlock()
	if ans != nil && ans.Action != "accept" {
		return map[string]any{"action": ans.Action}
	}
	if ans != nil && ans.Content != nil {
		content, _ := deepCopy(ans.Content)
		return map[string]any{"action": "accept", "content": content}
	}
	content := map[string]any{}
	schema, _ := params["requestedSchema"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		p, _ := props[name].(map[string]any)
		if enum, _ := p["enum"].([]any); len(enum) > 0 {
			content[name] = enum[0]
			continue
		}
		if one, _ := p["oneOf"].([]any); len(one) > 0 {
			if om, _ := one[0].(map[string]any); om != nil {
				content[name] = om["const"]
				continue
			}
		}
		if items, _ := p["items"].(map[string]any); items != nil {
			if enum, _ := items["enum"].([]any); len(enum) > 0 {
				content[name] = []any{enum[0]}
				continue
			}
			if any_, _ := items["anyOf"].([]any); len(any_) > 0 {
				if om, _ := any_[0].(map[string]any); om != nil {
					content[name] = []any{om["const"]}
					continue
				}
			}
		}
		switch p["type"] {
		case "boolean":
			content[name] = true
		case "number", "integer":
			content[name] = 0
		case "string":
			content[name] = ""
		}
	}
	return map[string]any{"action": "accept", "content": content}
}

// rel turns an absolute path under cwd into the key of FSAnswers.Read.
func (a *answerer) rel(p string) string {
	if r, err := filepath.Rel(a.cwd, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

func (a *answerer) readFile(params map[string]any) (any, *rpcError) {
	path, _ := params["path"].(string)
	text, ok := a.answers.FS.Read[a.rel(path)]
	if !ok && !within(a.root, path) {
		return nil, errNotFound
	}
	if !ok {
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errNotFound
		}
		if err != nil {
			return nil, &rpcError{Code: -32603, Message: "Internal error"}
		}
		text = string(b)
	}
	line, _ := params["line"].(float64)
	limit, _ := params["limit"].(float64)
	if line > 0 || limit > 0 {
		lines := strings.SplitAfter(text, "\n")
		start := 0
		if line > 0 {
			start = min(int(line)-1, len(lines))
		}
		end := len(lines)
		if limit > 0 {
			end = min(start+int(limit), len(lines))
		}
		text = strings.Join(lines[start:end], "")
	}
	return map[string]any{"content": text}, nil
}

func (a *answerer) writeFile(params map[string]any) (any, *rpcError) {
	if code := a.answers.FS.WriteError; code != 0 {
		return nil, &rpcError{Code: code, Message: "write refused by the scenario"}
	}
	path, _ := params["path"].(string)
	content, _ := params["content"].(string)
	if !filepath.IsAbs(path) {
		return nil, &rpcError{Code: -32602, Message: "Invalid params: path must be absolute"}
	}
	if !within(a.root, path) {
		return nil, &rpcError{Code: -32603, Message: "Internal error: the conformance client writes only inside the run directory"}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
		err = os.WriteFile(path, []byte(content), 0o644)
		if err != nil {
			return nil, &rpcError{Code: -32603, Message: "Internal error"}
		}
	}
	return map[string]any{}, nil
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	r, err := filepath.Rel(root, filepath.Clean(p))
	return err == nil && r != ".." && !strings.HasPrefix(r, "../")
}
