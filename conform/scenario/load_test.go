package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const goodScenario = `
name: good
description: A valid scenario.
covers: [Diff patch, Permission presentation]
profiles: [air]
capabilities: {withoutAir: [diffPatch]}
files: {src/a.ts: "export {}\n"}
client:
  steps:
    - prompt: {text: "edit it", resources: [{uri: "file:///a.ts", text: "x"}]}
    - request: {method: session/fork, params: {sessionId: "{{sessionId}}", cwd: "{{cwd}}"}, save: fork}
    - prompt: {text: "go on", sessionId: "{{saved.fork.sessionId}}"}
  answers:
    permission: [{optionId: allow-once}, {kind: reject_once}]
    elicitation: [{action: accept, content: {answer: yes}}]
scripted: "the test needs no real CLI"
cli:
  turns:
    - steps:
        - tool: {name: Edit, input: {file_path: "{{cwd}}/src/a.ts"}, permission: ask}
        - text: done
`

func TestParseValid(t *testing.T) {
	sc, err := Parse("good.yaml", []byte(goodScenario))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != "good" || len(sc.Covers) != 2 || sc.OpenMethod() != SessionNew || len(sc.RunProfiles()) != 1 {
		t.Errorf("parsed %+v", sc)
	}
	if p := sc.Client.Steps[2].Prompt; p == nil || p.SessionID != "{{saved.fork.sessionId}}" {
		t.Errorf("prompt step = %+v", sc.Client.Steps[2])
	}
}

// TestParseRejects proves each validation rule: every entry is the good
// scenario with one change, and must fail with a message naming the field.
func TestParseRejects(t *testing.T) {
	tests := []struct {
		name    string
		from    string
		to      string
		wantErr string
	}{
		{"unknown top-level key", "profiles: [air]", "profiles: [air]\nprofile: air", "field profile not found"},
		{"unknown nested key", "- text: done", "- txt: done", "field txt not found"},
		{"missing name", "name: good\n", "", "name: missing"},
		{"bad name", "name: good", "name: Good_One", "must be lowercase words"},
		{"missing description", "description: A valid scenario.\n", "", "description: missing"},
		{"no covers", "covers: [Diff patch, Permission presentation]", "covers: []", "covers: list at least one"},
		{"unknown section", "covers: [Diff patch, Permission presentation]", "covers: [Diff patches]", `"Diff patches" is not a section`},
		{"unknown subsection", "covers: [Diff patch, Permission presentation]", "covers: [Diff patch > Activation, Diff patch > Preview]", `"Diff patch > Preview" is not "Section > Subsection"`},
		{"subsection of another section", "covers: [Diff patch, Permission presentation]", "covers: [Goal > Activation]", `"Goal > Activation" is not "Section > Subsection"`},
		{"label character", "covers: [Diff patch, Permission presentation]", "covers: [\"Diff: patch\"]", "Ginkgo labels cannot have"},
		{"duplicate section", "covers: [Diff patch, Permission presentation]", "covers: [Diff patch, Diff patch]", "listed twice"},
		{"unknown profile", "profiles: [air]", "profiles: [vim]", `unknown profile "vim"`},
		{"file outside workspace", "src/a.ts:", "../a.ts:", "must be a relative path inside the workspace"},
		{"config file outside the config dir", "files: {src/a.ts: \"export {}\\n\"}", "files: {src/a.ts: \"export {}\\n\"}\nconfigFiles: {../x.json: \"{}\"}", "must be a relative path inside the config directory"},
		{"unknown config file placeholder", "files: {src/a.ts: \"export {}\\n\"}", "files: {src/a.ts: \"export {}\\n\"}\nconfigFiles: {\"sessions/{{pid}}.json\": \"{{sessionId}}\"}", "uses {{sessionId}}"},
		{"generated file outside workspace", "files: {src/a.ts: \"export {}\\n\"}", "files: {src/a.ts: \"export {}\\n\"}\ngeneratedFiles: {../b.bin: {base64: AA==}}", "generatedFiles: \"../b.bin\" must be a relative path inside the workspace"},
		{"generated file also in files", "files: {src/a.ts: \"export {}\\n\"}", "files: {src/a.ts: \"export {}\\n\"}\ngeneratedFiles: {src/a.ts: {base64: AA==}}", "is in files too"},
		{"generated file bad base64", "files: {src/a.ts: \"export {}\\n\"}", "files: {src/a.ts: \"export {}\\n\"}\ngeneratedFiles: {b.bin: {base64: \"%%\"}}", "generatedFiles: b.bin: base64"},
		{"generated file repeat without times", "files: {src/a.ts: \"export {}\\n\"}", "files: {src/a.ts: \"export {}\\n\"}\ngeneratedFiles: {b.txt: {repeat: x}}", "give both"},
		{"generated file too large", "files: {src/a.ts: \"export {}\\n\"}", "files: {src/a.ts: \"export {}\\n\"}\ngeneratedFiles: {b.txt: {repeat: xx, times: 3000000}}", "more than"},
		{"load without transcript", "client:\n", "client:\n  session: {method: load}\n", "load needs a transcript"},
		{"step with two actions", `- text: done`, `- {text: done, thinking: hm}`, "set exactly one of text, thinking"},
		{"empty prompt", `- prompt: {text: "go on", sessionId: "{{saved.fork.sessionId}}"}`, `- prompt: {sessionId: x}`, "prompt: has no content"},
		{"resource without body", `resources: [{uri: "file:///a.ts", text: "x"}]`, `resources: [{uri: "file:///a.ts"}]`, "exactly one of text, blob"},
		{"unsaved placeholder", "save: fork", "save: other", "refers to no earlier step with save: fork"},
		{"unknown client placeholder", `cwd: "{{cwd}}"}`, `cwd: "{{workspace}}"}`, "unknown placeholder {{workspace}}"},
		{"unknown cli placeholder", `"{{cwd}}/src/a.ts"`, `"{{root}}/src/a.ts"`, "unknown placeholder {{root}}"},
		{"prompt as request", "method: session/fork", "method: session/prompt", "use a prompt step"},
		{"negative repeat", "save: fork}", "save: fork, repeat: -1}", "request.repeat: -1 is not between 0 and 256"},
		{"repeat past the cap", "save: fork}", "save: fork, repeat: 257}", "request.repeat: 257 is not between 0 and 256"},
		{"permission answer with two choices", "{optionId: allow-once}", "{optionId: allow-once, kind: allow_once}", "exactly one of optionId, kind"},
		{"unknown permission kind", "{kind: reject_once}", "{kind: deny}", `unknown "deny"`},
		{"elicitation action", "{action: accept, content: {answer: yes}}", "{action: maybe}", "must be accept, decline or cancel"},
		{"decline with content", "{action: accept, content: {answer: yes}}", "{action: decline, content: {a: b}}", "only an accept carries content"},
		{"tool without name", "{name: Edit, input:", "{input:", "tool.name: missing"},
		{"bad permission mode", "permission: ask}", "permission: always}", `"always" must be ask or empty`},
		{"permission fields without ask", "permission: ask}", "blockedPath: /x}", "need permission: ask"},
		{"result not last", "- text: done", "- result: {subtype: success}\n        - text: done", "result must be the turn's last step"},
		{"bad pause", "- text: done", "- pause: {until: forever}", "must be interrupt, prompt or control:<subtype>"},
		{"next pause on a prompt", "- text: done", "- pause: {until: prompt, next: true}", "pause.next: only a control:<subtype> pause"},
		{"pause bound not a duration", "- text: done", "- pause: {until: interrupt, atMost: soon}", `pause.atMost: "soon" is not a positive duration`},
		{"system without subtype", "- text: done", "- system: {state: idle}", "system: needs a subtype"},
		{"unknown process", "    - steps:", "    - process: zombie\n      steps:", `unknown "zombie"`},
		{"not yaml", "name: good", "name: [good", "did not find expected"},
		{"scripted without a reason", `scripted: "the test needs no real CLI"`, "", "scripted: a scenario with cli: must say why"},
		{"model and cli", "cli:\n", "model:\n  turns: [{when: {text: x}, reply: [{text: y}]}]\ncli:\n", "drop cli:"},
		{"model with scripted", "cli:\n  turns:\n    - steps:\n        - tool: {name: Edit, input: {file_path: \"{{cwd}}/src/a.ts\"}, permission: ask}\n        - text: done\n", "model:\n  turns: [{when: {text: x}, reply: [{text: y}]}]\n", "only a scenario with cli: is scripted"},
		{"bad model script", "cli:\n  turns:\n    - steps:\n        - tool: {name: Edit, input: {file_path: \"{{cwd}}/src/a.ts\"}, permission: ask}\n        - text: done\n", "model:\n  turns: [{when: {}, reply: [{text: y}]}]\n", "model: model script: turns[0]: when:"},
		{"unknown model key", "cli:\n  turns:\n    - steps:\n        - tool: {name: Edit, input: {file_path: \"{{cwd}}/src/a.ts\"}, permission: ask}\n        - text: done\n", "model:\n  turns: [{when: {txt: x}, reply: [{text: y}]}]\n", "field txt not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(goodScenario, tt.from) {
				t.Fatalf("test bug: %q not in the good scenario", tt.from)
			}
			src := strings.Replace(goodScenario, tt.from, tt.to, 1)
			_, err := Parse("bad.yaml", []byte(src))
			if err == nil {
				t.Fatalf("accepted:\n%s", src)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v is not ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "bad.yaml: ") {
				t.Errorf("error = %q, want the path and %q", err, tt.wantErr)
			}
		})
	}
}

func TestWaitForSaveFeedsPlaceholders(t *testing.T) {
	src := strings.Replace(goodScenario, "    - prompt: {text: \"go on\"", "    - waitFor: {sessionUpdate: tool_call, save: call}\n    - request: {method: _session/async_task/stop, params: {taskId: \"{{saved.call.update.toolCallId}}\"}}\n    - prompt: {text: \"go on\"", 1)
	if src == goodScenario {
		t.Fatal("test bug: the prompt step is not in the good scenario")
	}
	if _, err := Parse("good.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(src, "save: call}", "save: Call}", 1)
	if _, err := Parse("bad.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "waitFor.save") {
		t.Errorf("a bad save name: %v", err)
	}
}

func TestLoadChecksFileName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "other.yaml")
	if err := os.WriteFile(path, []byte(goodScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), `does not match the file name "other"`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := LoadDir(dir); err == nil {
		t.Fatal("LoadDir accepted a misnamed file")
	}
	os.Rename(path, filepath.Join(dir, "good.yaml"))
	scs, err := LoadDir(dir)
	if err != nil || len(scs) != 1 {
		t.Fatalf("LoadDir = %v, %v", scs, err)
	}
}

func TestCLIScriptRoundTrip(t *testing.T) {
	sc, err := Parse("good.yaml", []byte(goodScenario))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cli.json")
	if err := WriteCLIScript(path, &sc.CLI); err != nil {
		t.Fatal(err)
	}
	back, err := LoadCLIScript(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Turns) != 1 || back.Turns[0].Steps[0].Tool.Name != "Edit" || *back.Turns[0].Steps[1].Text != "done" {
		t.Errorf("round trip lost data: %+v", back)
	}
	os.WriteFile(path, []byte(`{"turns":[{"steps":[{"bogus":1}]}]}`), 0o644)
	if _, err := LoadCLIScript(path); err == nil {
		t.Error("LoadCLIScript accepted an unknown step key")
	}
}

// TestParseRejectsMore covers the rules the good scenario above has no
// section for: stored sessions, start frames, control overrides, waits.
func TestParseRejectsMore(t *testing.T) {
	const head = "name: x\ndescription: d\ncovers: [Goal]\n"
	tests := []struct {
		name, body, wantErr string
	}{
		{"transcript id not a uuid", "transcript: {sessionId: abc, rows: [{user: hi}]}\nclient: {steps: []}\ncli: {}\n", `"abc" is not a UUID`},
		{"transcript row with two kinds", "transcript: {sessionId: 11111111-2222-4333-8444-555555555555, rows: [{user: hi, assistant: yo}]}\nclient: {steps: []}\ncli: {}\n", "set exactly one of user, assistant"},
		{"stored twice", "transcript: {sessionId: 11111111-2222-4333-8444-555555555555, rows: []}\nsessions: [{sessionId: 11111111-2222-4333-8444-555555555555, rows: []}]\nclient: {steps: []}\ncli: {}\n", "is stored twice"},
		{"bad modified", "sessions: [{sessionId: 11111111-2222-4333-8444-555555555555, modified: yesterday, rows: []}]\nclient: {steps: []}\ncli: {}\n", "is not RFC 3339"},
		{"session cwd outside", "sessions: [{sessionId: 11111111-2222-4333-8444-555555555555, cwd: ../x, rows: []}]\nclient: {steps: []}\ncli: {}\n", "must be relative to the run's cwd"},
		{"start with a text step", "client: {steps: []}\ncli: {start: [{text: hi}]}\n", "only emit and system steps"},
		{"control error and response", "client: {steps: []}\ncli: {controls: {mcp_status: {error: x, response: {a: 1}}}}\n", "error excludes response"},
		{"step after shutdown", "client: {steps: [{shutdown: true}, {awaitAll: true}]}\ncli: {}\n", "steps[1]: only waitFor steps may follow a shutdown step"},
		{"shutdown and awaitAll", "client: {steps: [{shutdown: true, awaitAll: true}]}\ncli: {}\n", "set exactly one of prompt, request, notify, waitFor, awaitAll, awaitPostTurn, shutdown (got 2)"},
		{"waitFor two kinds", "client: {steps: [{waitFor: {sessionUpdate: plan, request: session/request_permission}}]}\ncli: {}\n", "exactly one of sessionUpdate, request, notification"},
		{"waitFor unknown profile", "client: {steps: [{waitFor: {sessionUpdate: plan, profiles: [idea]}}]}\ncli: {}\n", "waitFor.profiles[0]: unknown profile \"idea\""},
		{"image without data", "client: {steps: [{prompt: {images: [{mimeType: image/png}]}}]}\ncli: {}\n", "needs mimeType and data or uri"},
		{"link without name", "client: {steps: [{prompt: {links: [{uri: file:///a}]}}]}\ncli: {}\n", "needs uri and name"},
		{"unknown session method", "client: {session: {method: attach}, steps: []}\ncli: {}\n", `unknown "attach"`},
		{"emit without type", "client: {steps: []}\ncli: {turns: [{steps: [{emit: {a: 1}}]}]}\n", "emit: needs a type"},
		{"control without subtype", "client: {steps: []}\ncli: {turns: [{steps: [{control: {a: 1}}]}]}\n", "control: needs a subtype"},
		{"hook without event", "client: {steps: []}\ncli: {turns: [{steps: [{hook: {toolUseId: t}}]}]}\n", "hook.event: missing"},
		{"assistant without content", "client: {steps: []}\ncli: {turns: [{steps: [{assistant: {content: []}}]}]}\n", "assistant.content: empty"},
		{"two results", "client: {steps: []}\ncli: {turns: [{steps: [{result: {}}, {result: {}}]}]}\n", "more than one result"},
		{"two permission answers", "client: {steps: [], answers: {permission: [{cancelled: true, cancelAtOnce: true}]}}\ncli: {}\n", "set exactly one of optionId, kind, cancelled, cancelTurn, cancelAtOnce, closeAtOnce"},
		{"empty file", "", "empty file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := head + tt.body
			if tt.body == "" {
				src = ""
			}
			_, err := Parse("bad.yaml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestWriteConfigFiles: configFiles land under the config directory with
// their placeholders filled in, the registry record of a live process as
// a scenario writes it.
func TestWriteConfigFiles(t *testing.T) {
	src := strings.Replace(goodScenario, "files: {src/a.ts: \"export {}\\n\"}",
		"files: {src/a.ts: \"export {}\\n\"}\nconfigFiles: {\"sessions/{{pid}}.json\": '{\"pid\":{{pid}},\"updatedAt\":{{now_ms}},\"cwd\":\"{{cwd}}\"}'}", 1)
	s, err := Parse("good.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	vars := ConfigFileVars(`C:\ws`, "/home/u", dir, time.UnixMilli(1767261600000))
	if err := s.WriteConfigFiles(dir, vars); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(os.Getpid())
	got, err := os.ReadFile(filepath.Join(dir, "sessions", pid+".json"))
	if err != nil {
		t.Fatal(err)
	}
	// A Windows cwd stays a JSON string's escaped value in a .json file.
	if want := `{"pid":` + pid + `,"updatedAt":1767261600000,"cwd":"C:\\ws"}`; string(got) != want {
		t.Errorf("record = %s, want %s", got, want)
	}
}

// TestConfigFileProjectDir: {{project_dir}} places a file beside the
// stored sessions of the run cwd, where the CLI keeps a session's subagent
// transcripts.
func TestConfigFileProjectDir(t *testing.T) {
	src := strings.Replace(goodScenario, "files: {src/a.ts: \"export {}\\n\"}",
		"files: {src/a.ts: \"export {}\\n\"}\nconfigFiles: {\"projects/{{project_dir}}/s1/subagents/agent-a1.meta.json\": '{\"toolUseId\":\"toolu_1\"}'}", 1)
	s, err := Parse("good.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := s.WriteConfigFiles(dir, ConfigFileVars("/ws/app", "/home/u", dir, time.Now())); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(strings.TrimSuffix(SessionFile(dir, "/ws/app", "s1"), ".jsonl"), "subagents", "agent-a1.meta.json")
	if _, err := os.Stat(want); err != nil {
		t.Errorf("meta file not beside the session transcript: %v", err)
	}
}
