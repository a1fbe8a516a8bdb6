package validate_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/validate"
)

// gateCase is one capability gate of the ACP schema: msgs break it unless
// capability (a path under clientCapabilities or agentCapabilities) is
// declared in initialize.
type gateCase struct {
	name       string
	capability string
	msgs       func(t *testing.T) []validate.Message
	pointer    string
	// initResult is merged into the initialize result (the gate sits there).
	initResult M
}

func req(t *testing.T, dir string, id int, method string, params M) validate.Message {
	m := validate.Message{Dir: dir, Msg: mustJSON(t, M{"jsonrpc": "2.0", "id": id, "method": method, "params": params})}
	return m
}

func notif(t *testing.T, dir, method string, params M) validate.Message {
	return validate.Message{Dir: dir, Msg: mustJSON(t, M{"jsonrpc": "2.0", "method": method, "params": params})}
}

func gateCases() []gateCase {
	var cs []gateCase
	method := func(capability, dir, method string, params M) {
		cs = append(cs, gateCase{name: method, capability: capability, pointer: "/method",
			msgs: func(t *testing.T) []validate.Message { return []validate.Message{req(t, dir, 70, method, params)} }})
	}
	s := M{"sessionId": sid}
	method("clientCapabilities.fs.readTextFile", "agent", "fs/read_text_file", M{"sessionId": sid, "path": "/w/a"})
	method("clientCapabilities.fs.writeTextFile", "agent", "fs/write_text_file", M{"sessionId": sid, "path": "/w/a", "content": "x"})
	method("clientCapabilities.terminal", "agent", "terminal/create", M{"sessionId": sid, "command": "ls"})
	for _, m := range []string{"terminal/output", "terminal/wait_for_exit", "terminal/kill", "terminal/release"} {
		method("clientCapabilities.terminal", "agent", m, M{"sessionId": sid, "terminalId": "t1"})
	}
	method("agentCapabilities.loadSession", "editor", "session/load", M{"sessionId": sid, "cwd": "/w", "mcpServers": []any{}})
	method("agentCapabilities.sessionCapabilities.list", "editor", "session/list", M{})
	method("agentCapabilities.sessionCapabilities.delete", "editor", "session/delete", s)
	method("agentCapabilities.sessionCapabilities.resume", "editor", "session/resume", M{"sessionId": sid, "cwd": "/w"})
	method("agentCapabilities.sessionCapabilities.close", "editor", "session/close", s)
	method("agentCapabilities.sessionCapabilities.fork", "editor", "session/fork", M{"sessionId": sid, "cwd": "/w"})
	method("agentCapabilities.sessionCapabilities.archive", "editor", "session/archive", s)
	method("agentCapabilities.sessionCapabilities.archive", "editor", "session/unarchive", s)
	method("agentCapabilities.sessionCapabilities.status", "editor", "session/status", s)
	method("agentCapabilities.sessionCapabilities.title", "editor", "session/set_title", M{"sessionId": sid, "title": "T"})
	method("agentCapabilities.auth.logout", "editor", "logout", M{})
	method("agentCapabilities.auth.status", "editor", "auth/status", M{})
	method("agentCapabilities.providers", "editor", "providers/list", M{})
	method("agentCapabilities.providers", "editor", "providers/set", M{"id": "p"})
	method("agentCapabilities.providers", "editor", "providers/disable", M{"id": "p"})
	cs = append(cs,
		gateCase{name: "auth/status_update (the agent's own capability)", capability: "agentCapabilities.auth.status", pointer: "/method",
			msgs: func(t *testing.T) []validate.Message {
				return []validate.Message{notif(t, "agent", "auth/status_update", M{"state": "authenticated"})}
			}},
		gateCase{name: "elicitation/complete", capability: "clientCapabilities.elicitation.url", pointer: "/method",
			msgs: func(t *testing.T) []validate.Message {
				return []validate.Message{notif(t, "agent", "elicitation/complete", M{"elicitationId": "e1"})}
			}},
		gateCase{name: "elicitation/create form", capability: "clientCapabilities.elicitation.form", pointer: "/params/mode",
			msgs: func(t *testing.T) []validate.Message {
				return []validate.Message{req(t, "agent", 71, "elicitation/create", M{"sessionId": sid, "mode": "form", "message": "?", "requestedSchema": M{"type": "object", "properties": M{}}})}
			}},
		gateCase{name: "elicitation/create url", capability: "clientCapabilities.elicitation.url", pointer: "/params/mode",
			msgs: func(t *testing.T) []validate.Message {
				return []validate.Message{req(t, "agent", 71, "elicitation/create", M{"sessionId": sid, "mode": "url", "message": "?", "url": "https://x", "elicitationId": "e1"})}
			}},
	)
	upd := func(capability, kind string) {
		cs = append(cs, gateCase{name: "session/update " + kind, capability: capability, pointer: "/params/update/sessionUpdate",
			msgs: func(t *testing.T) []validate.Message {
				return []validate.Message{agent(t, update(M{"sessionUpdate": kind}))}
			}})
	}
	upd("clientCapabilities.session.notices", "notice")
	upd("clientCapabilities.session.compaction", "compaction_update")
	upd("clientCapabilities.session.compaction", "compaction_summary_chunk")
	upd("clientCapabilities.plan", "plan_update")
	upd("clientCapabilities.plan", "plan_removed")
	upd("clientCapabilities.subagents", "subagent_update")
	upd("clientCapabilities.subagents", "session_message")
	upd("clientCapabilities.subagents", "session_message_chunk")
	block := func(capability, typ string) {
		cs = append(cs, gateCase{name: "prompt block " + typ, capability: capability, pointer: "/params/prompt/1/type",
			msgs: func(t *testing.T) []validate.Message {
				return []validate.Message{req(t, "editor", 72, "session/prompt", M{"sessionId": sid, "prompt": []any{M{"type": "text", "text": "hi"}, M{"type": typ}}})}
			}})
	}
	block("agentCapabilities.promptCapabilities.image", "image")
	block("agentCapabilities.promptCapabilities.audio", "audio")
	block("agentCapabilities.promptCapabilities.embeddedContext", "resource")
	lifecycle := func(name, capability, pointer string, params M) {
		cs = append(cs, gateCase{name: name, capability: capability, pointer: pointer,
			msgs: func(t *testing.T) []validate.Message {
				p := M{"cwd": "/w", "mcpServers": []any{}}
				for k, v := range params {
					p[k] = v
				}
				return []validate.Message{req(t, "editor", 73, "session/new", p)}
			}})
	}
	for _, typ := range []string{"http", "sse", "acp"} {
		lifecycle("MCP server "+typ, "agentCapabilities.mcpCapabilities."+typ, "/params/mcpServers/1/type",
			M{"mcpServers": []any{M{"name": "s", "command": "x", "args": []any{}, "env": []any{}}, M{"type": typ, "name": "h", "url": "https://x", "headers": []any{}}}})
	}
	lifecycle("additionalDirectories", "agentCapabilities.sessionCapabilities.additionalDirectories", "/params/additionalDirectories",
		M{"additionalDirectories": []any{"/w2"}})
	lifecycle("systemPrompt", "agentCapabilities.sessionCapabilities.systemPrompt", "/params/systemPrompt",
		M{"systemPrompt": M{"mode": "append", "content": []any{M{"type": "text", "text": "Be brief."}}}})
	// The override mode needs its own capability besides systemPrompt.
	cs = append(cs, gateCase{name: "systemPrompt mode override", capability: "agentCapabilities.sessionCapabilities.systemPrompt.mode.override", pointer: "/params/systemPrompt/mode",
		initResult: M{"agentCapabilities": M{"sessionCapabilities": M{"systemPrompt": M{}}}},
		msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{req(t, "editor", 73, "session/new", M{"cwd": "/w", "mcpServers": []any{},
				"systemPrompt": M{"mode": "override", "content": []any{M{"type": "text", "text": "Be brief."}}}})}
		}})
	boolOption := M{"id": "fast", "name": "Fast", "type": "boolean", "currentValue": true}
	selectOption := M{"id": "mode", "name": "Mode", "type": "select", "currentValue": "a", "options": []any{M{"value": "a", "name": "A"}}}
	cs = append(cs,
		gateCase{name: "session/list archived", capability: "agentCapabilities.sessionCapabilities.archive", pointer: "/params/archived",
			initResult: M{"agentCapabilities": M{"sessionCapabilities": M{"list": M{}}}},
			msgs: func(t *testing.T) []validate.Message {
				return []validate.Message{req(t, "editor", 74, "session/list", M{"archived": "include"})}
			}},
		gateCase{name: "set_config_option type boolean", capability: "clientCapabilities.session.configOptions.boolean", pointer: "/params/type",
			msgs: func(t *testing.T) []validate.Message {
				return []validate.Message{req(t, "editor", 75, "session/set_config_option", M{"sessionId": sid, "configId": "fast", "type": "boolean", "value": true})}
			}},
		gateCase{name: "boolean config option in a session/new result", capability: "clientCapabilities.session.configOptions.boolean", pointer: "/result/configOptions/1/type",
			msgs: func(t *testing.T) []validate.Message {
				return []validate.Message{req(t, "editor", 76, "session/new", M{"cwd": "/w", "mcpServers": []any{}}),
					agent(t, M{"jsonrpc": "2.0", "id": 76, "result": M{"sessionId": "s2", "configOptions": []any{selectOption, boolOption}}})}
			}},
		gateCase{name: "boolean config option in config_option_update", capability: "clientCapabilities.session.configOptions.boolean", pointer: "/params/update/configOptions/0/type",
			msgs: func(t *testing.T) []validate.Message {
				return []validate.Message{agent(t, update(M{"sessionUpdate": "config_option_update", "configOptions": []any{boolOption}}))}
			}},
		gateCase{name: "terminal auth method", capability: "clientCapabilities.auth.terminal", pointer: "/result/authMethods/1/type",
			initResult: M{"authMethods": []any{M{"id": "a", "name": "Agent"}, M{"id": "t", "name": "Terminal", "type": "terminal"}}},
			msgs:       func(t *testing.T) []validate.Message { return nil }},
	)
	return cs
}

// setCap sets the capability at a dotted path (under the root key) in m:
// true for a boolean capability, {} for an object one.
func setCap(m M, dotted string, boolean bool) {
	segs := strings.Split(dotted, ".")[1:]
	for _, s := range segs[:len(segs)-1] {
		next, ok := m[s].(M)
		if !ok {
			next = M{}
			m[s] = next
		}
		m = next
	}
	if boolean {
		m[segs[len(segs)-1]] = true
	} else {
		m[segs[len(segs)-1]] = M{}
	}
}

// gateConv is initialize, session/new and msgs, with capability declared
// or not.
func gateConv(t *testing.T, tc gateCase, declare bool, booleans map[string]bool) []validate.Message {
	clientCaps, agentCaps := M{}, M{}
	initResult := M{"protocolVersion": 1, "agentCapabilities": agentCaps, "authMethods": []any{}}
	for k, v := range tc.initResult {
		if k == "agentCapabilities" {
			for ak, av := range v.(M) {
				agentCaps[ak] = av
			}
			continue
		}
		initResult[k] = v
	}
	if declare {
		root := clientCaps
		if strings.HasPrefix(tc.capability, "agentCapabilities.") {
			root = agentCaps
		}
		setCap(root, tc.capability, booleans[tc.capability])
	}
	msgs := []validate.Message{
		req(t, "editor", 0, "initialize", M{"protocolVersion": 1, "clientCapabilities": clientCaps}),
		agent(t, M{"jsonrpc": "2.0", "id": 0, "result": initResult}),
		req(t, "editor", 1, "session/new", M{"cwd": "/w", "mcpServers": []any{}}),
		agent(t, M{"jsonrpc": "2.0", "id": 1, "result": M{"sessionId": sid}}),
	}
	msgs = append(msgs, tc.msgs(t)...)
	for i := range msgs {
		msgs[i].Seq, msgs[i].Lane = uint64(i+1), "client"
	}
	return msgs
}

// TestCapabilityGates sends every gated method, update and field of the
// pinned ACP schema once to a peer that did not declare its capability (a
// finding at the gated value) and once to one that did (no finding).
func TestCapabilityGates(t *testing.T) {
	a, _ := schemas(t)
	booleans := map[string]bool{}
	for c, typ := range schemaCapabilities(t, a) {
		booleans[c] = typ == "boolean"
	}
	for _, tc := range gateCases() {
		t.Run(tc.name, func(t *testing.T) {
			var gated []validate.Finding
			for _, f := range run(t, gateConv(t, tc, false, booleans)) {
				if f.Rule == "acp-capability-gate" {
					gated = append(gated, f)
				}
			}
			if len(gated) != 1 || gated[0].Pointer != tc.pointer || gated[0].Severity != validate.SeverityError ||
				!strings.Contains(gated[0].Message, tc.capability) {
				t.Errorf("undeclared %s: want one error at %s naming it, got %v", tc.capability, tc.pointer, gated)
			}
			for _, f := range run(t, gateConv(t, tc, true, booleans)) {
				if f.Rule == "acp-capability-gate" {
					t.Errorf("declared %s: %s", tc.capability, f)
				}
			}
		})
	}
}

// notGates are the capabilities of the pinned schema that gate nothing by
// themselves: they only group the capabilities below them.
var notGates = map[string]string{
	"clientCapabilities.fs":                                   "groups readTextFile and writeTextFile",
	"clientCapabilities.session":                              "groups compaction, configOptions and notices",
	"clientCapabilities.session.configOptions":                "groups boolean",
	"clientCapabilities.auth":                                 "groups terminal",
	"clientCapabilities.elicitation":                          "groups form and url",
	"agentCapabilities.promptCapabilities":                    "groups image, audio and embeddedContext",
	"agentCapabilities.mcpCapabilities":                       "groups http, sse and acp",
	"agentCapabilities.sessionCapabilities":                   "groups the session method capabilities",
	"agentCapabilities.sessionCapabilities.systemPrompt.mode": "groups override",
	"agentCapabilities.auth":                                  "groups logout and status",
}

// TestEveryCapabilityIsGated walks the capability objects of both pinned
// ACP schema files (ClientCapabilities, AgentCapabilities and what they
// reference): each capability is exercised by TestCapabilityGates or
// listed in notGates. A new pin that adds a capability fails here.
func TestEveryCapabilityIsGated(t *testing.T) {
	a, _ := schemas(t)
	tested := map[string]bool{}
	for _, tc := range gateCases() {
		tested[tc.capability] = true
	}
	caps := schemaCapabilities(t, a)
	for _, c := range sortedCaps(caps) {
		if !tested[c] && notGates[c] == "" {
			t.Errorf("%s: no gate test and not listed as gating nothing", c)
		}
	}
	for c := range tested {
		if _, ok := caps[c]; !ok {
			t.Errorf("%s is tested but is no capability of the pinned schema", c)
		}
	}
	if len(caps) < 40 {
		t.Errorf("only %d capabilities found: the walk is broken", len(caps))
	}
}

func sortedCaps(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// schemaCapabilities returns every capability path of schema.json and
// schema.unstable.json next to a's file, with its type ("boolean" or
// "object").
func schemaCapabilities(t *testing.T, a *acp.Schema) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range []string{acp.StableFile, acp.UnstableFile} {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(a.File), name))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Defs map[string]any `json:"$defs"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		walkCaps(doc.Defs, "clientCapabilities", doc.Defs["ClientCapabilities"], out)
		walkCaps(doc.Defs, "agentCapabilities", doc.Defs["AgentCapabilities"], out)
	}
	return out
}

// resolve follows $ref, allOf and anyOf (skipping the null branch) to the
// schema object that describes a value.
func resolve(defs map[string]any, s any) map[string]any {
	m, _ := s.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		return resolve(defs, defs[strings.TrimPrefix(ref, "#/$defs/")])
	}
	for _, k := range []string{"allOf", "anyOf"} {
		for _, b := range asList(m[k]) {
			if r := resolve(defs, b); r != nil && r["type"] != "null" {
				return r
			}
		}
	}
	return m
}

func asList(v any) []any { l, _ := v.([]any); return l }

func walkCaps(defs map[string]any, prefix string, s any, out map[string]string) {
	props, _ := resolve(defs, s)["properties"].(map[string]any)
	for k, v := range props {
		if k == "_meta" {
			continue
		}
		p := prefix + "." + k
		typ := "object"
		if resolve(defs, v)["type"] == "boolean" {
			typ = "boolean"
		}
		out[p] = typ
		walkCaps(defs, p, v, out)
	}
}

// TestGoldensPassTheNewRules feeds the client lane of every golden (the
// reference adapter's runs) to the validator: the reference never breaks a
// capability gate, never updates a closed session and never answers with
// an id of another type, never reuses an id in flight and never answers
// with a malformed response.
func TestGoldensPassTheNewRules(t *testing.T) {
	a, s := schemas(t)
	root, err := deps.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "goldens", "*", "*.golden"))
	if err != nil || len(files) < 50 {
		t.Fatalf("goldens: %d files, %v", len(files), err)
	}
	rules := map[string]bool{"acp-capability-gate": true, "session-update-after-close": true, "jsonrpc-response-id-type": true, "jsonrpc-unmatched-response": true,
		"jsonrpc-duplicate-id": true, "jsonrpc-envelope": true, "journal-entry": true}
	checked := 0
	for _, f := range files {
		v := validate.New(a, s)
		for _, m := range goldenMessages(t, f) {
			checked++
			for _, x := range v.Check(m) {
				if rules[x.Rule] {
					t.Errorf("%s: %s", f, x)
				}
			}
		}
	}
	t.Logf("%d messages of %d goldens", checked, len(files))
}

// goldenMessages reads the client lane of a golden as messages.
func goldenMessages(t *testing.T, file string) []validate.Message {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 64<<20)
	var out []validate.Message
	for sc.Scan() {
		tag, js, ok := strings.Cut(sc.Text(), " {")
		dir := map[string]string{"client editor->agent": "editor", "client agent->editor": "agent"}[tag]
		if !ok || dir == "" {
			continue
		}
		out = append(out, validate.Message{Seq: uint64(len(out) + 1), Lane: "client", Dir: dir, Msg: json.RawMessage("{" + js)})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
