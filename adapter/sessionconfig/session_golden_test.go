package sessionconfig

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/claudesettings"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/testroot"

	"github.com/airwire/airwire/conform/cassette"
)

// cliAnswers finds, in a cassette process, the CLI's initialize answer,
// its get_settings answer and its terminal_slash_commands.
type cliAnswers struct {
	init     Init
	changed  [][]Command // system/commands_changed lists
	settings Settings
	// model is the settings' model (get_settings' effective.model), which
	// the agent reads from the same files.
	model string
	// allowed is the settings' allowlist and overrides (effective
	// availableModels and modelOverrides).
	allowed Allowed
	// effort is the settings' effort levels (effective effortLevel and
	// modelSettings).
	effort   claudesettings.Effort
	terminal []string
	hasInit  bool
}

func answersOf(t *testing.T, p cassette.Process) cliAnswers {
	var a cliAnswers
	subtypes := map[string]string{}
	for _, e := range p.Events {
		var f struct {
			Type      string `json:"type"`
			Subtype   string `json:"subtype"`
			RequestID string `json:"request_id"`
			Request   struct {
				Subtype string `json:"subtype"`
			} `json:"request"`
			Response struct {
				RequestID string          `json:"request_id"`
				Response  json.RawMessage `json:"response"`
			} `json:"response"`
			Terminal []string  `json:"terminal_slash_commands"`
			Commands []Command `json:"commands"`
		}
		if json.Unmarshal(e.Msg, &f) != nil {
			continue
		}
		switch {
		case e.Dir == cassette.DirAgent && f.Type == "control_request":
			subtypes[f.RequestID] = f.Request.Subtype
		case f.Type == "control_response" && subtypes[f.Response.RequestID] == "initialize":
			in, err := ParseInit(f.Response.Response)
			if err != nil {
				t.Fatal(err)
			}
			a.init, a.hasInit = in, true
		case f.Type == "control_response" && subtypes[f.Response.RequestID] == "get_settings":
			a.settings = ParseSettings(f.Response.Response)
			var raw struct {
				Effective json.RawMessage `json:"effective"`
			}
			_ = json.Unmarshal(f.Response.Response, &raw)
			a.effort, _ = claudesettings.FlagEffort(string(raw.Effective))
			var st struct {
				Effective struct {
					Model           string            `json:"model"`
					AvailableModels []string          `json:"availableModels"`
					ModelOverrides  map[string]string `json:"modelOverrides"`
				} `json:"effective"`
			}
			_ = json.Unmarshal(f.Response.Response, &st)
			a.model = st.Effective.Model
			a.allowed = Allowed{Models: st.Effective.AvailableModels, Overrides: st.Effective.ModelOverrides}
		case f.Type == "system" && f.Subtype == "commands_changed":
			a.changed = append(a.changed, f.Commands)
		case f.Type == "system" && f.Subtype == "init" && a.terminal == nil:
			a.terminal = f.Terminal
		}
	}
	return a
}

// goldenOptions are the suite's settings: IS_SANDBOX=1 offers bypass,
// and no defaultMode makes the session start in auto.
var goldenOptions = Options{Mode: "auto", BuiltInDefault: true, AllowAuto: true, AllowBypass: true}

// optionsFor takes the starting mode from the spawn's --permission-mode,
// which the reference resolved (a loaded transcript's mode, or the
// built-in auto), offers Bypass permissions only where the CLI got
// --allow-dangerously-skip-permissions (a host can remove it), and
// prefers the settings' model.
func (a cliAnswers) optionsFor(argv []string) Options {
	o := goldenOptions
	o.Model = a.model
	o.AllowBypass = slices.Contains(argv, "--allow-dangerously-skip-permissions")
	for _, a := range argv {
		if m, ok := strings.CutPrefix(a, "--permission-mode="); ok {
			o.Mode, o.BuiltInDefault = m, m == "auto"
		}
	}
	return o
}

// sessionResults returns the results of the golden's session setup
// responses (session/new, load, resume, fork), in order.
// openingOf is what the agent builds a session from for a process of a
// cassette: the picker's rows under the allowlist its settings report,
// and for a CLI that resumed a transcript, the model that transcript ran
// on.
func (a cliAnswers) openingOf(argv []string, resumedModel string) (Init, Options) {
	o := a.optionsFor(argv)
	o.CLIModels, o.SettingsEffort = a.init.Models, func() claudesettings.Effort { return a.effort }
	in := a.init
	in.Models = a.allowed.Apply(in.Models)
	if slices.ContainsFunc(argv, func(s string) bool { return strings.HasPrefix(s, "--resume=") }) {
		// The scenarios' transcripts give every prompt its mode: a resumed
		// session's mode is the transcript's, which counts as chosen.
		o.Resumed, o.ResumedModel, o.BuiltInDefault = true, resumedModel, false
	}
	return in, o
}

// transcriptModel is the model the scenario's stored transcript ran on.
func transcriptModel(t *testing.T, name string) string {
	sc, err := scenario.Load(filepath.Join(testroot.Root(t), "scenarios", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Transcript == nil || sc.Transcript.Model == "" {
		return scenario.DefaultModel
	}
	return sc.Transcript.Model
}

func sessionResults(t *testing.T, path string) []json.RawMessage {
	var out []json.RawMessage
	for _, raw := range goldentest.AgentMessages(t, path) {
		var m struct {
			Result struct {
				SessionID     string          `json:"sessionId"`
				ConfigOptions json.RawMessage `json:"configOptions"`
			} `json:"result"`
		}
		var full struct {
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(raw, &m) == nil && m.Result.ConfigOptions != nil && m.Result.SessionID != "" {
			_ = json.Unmarshal(raw, &full)
			out = append(out, full.Result)
		}
	}
	return out
}

// TestSessionResultMatchesGoldens builds each process's session from its
// cassette answers and compares with the golden's setup responses.
func TestSessionResultMatchesGoldens(t *testing.T) {
	for _, profile := range []string{"plain", "zed"} {
		for name, path := range goldentest.Profile(t, profile, true) {
			t.Run(profile+"/"+name, func(t *testing.T) {
				want := sessionResults(t, path)
				if n := processesWithInit(t, path); n < len(want) {
					// a load or resume of a live session started no CLI:
					// its answer is the live session's (conform checks it)
					want = firstPerSession(want)
				}
				var got []string
				for _, p := range goldentest.LoadCassette(t, path).Processes {
					a := answersOf(t, p)
					if !a.hasInit || len(got) >= len(want) {
						continue
					}
					var sid struct {
						SessionID string `json:"sessionId"`
					}
					_ = json.Unmarshal(want[len(got)], &sid)
					in, o := a.openingOf(p.Argv, transcriptModel(t, name))
					got = append(got, goldentest.Canon(t, New(in, a.settings, o).Result(sid.SessionID)))
				}
				if len(got) != len(want) {
					t.Fatalf("%d sessions from the cassette, %d setup responses in the golden", len(got), len(want))
				}
				for i := range want {
					if got[i] != goldentest.Canon(t, want[i]) {
						t.Errorf("session %d\n got %s\nwant %s", i+1, got[i], goldentest.Canon(t, want[i]))
					}
				}
			})
		}
	}
}

// TestCommandsMatchGoldens: every available_commands_update of a golden
// is the CLI's initialize list, before (nil) or after system/init's
// terminal_slash_commands, or a system/commands_changed list.
func TestCommandsMatchGoldens(t *testing.T) {
	for _, profile := range []string{"plain", "zed"} {
		for name, path := range goldentest.Profile(t, profile, true) {
			t.Run(profile+"/"+name, func(t *testing.T) {
				candidates := map[string]bool{}
				for _, p := range goldentest.LoadCassette(t, path).Processes {
					if a := answersOf(t, p); a.hasInit {
						candidates[goldentest.Canon(t, CommandsUpdate(Commands(a.init.Commands, nil)))] = true
						candidates[goldentest.Canon(t, CommandsUpdate(Commands(a.init.Commands, a.terminal)))] = true
						for _, c := range a.changed {
							candidates[goldentest.Canon(t, CommandsUpdate(Commands(c, a.terminal)))] = true
						}
					}
				}
				n := 0
				for _, u := range goldenUpdates(t, path, "available_commands_update") {
					n++
					if !candidates[goldentest.Canon(t, u)] {
						t.Errorf("update %d not reproduced: %.300s", n, goldentest.Canon(t, u))
					}
				}
			})
		}
	}
}

func goldenUpdates(t *testing.T, path, kind string) []json.RawMessage {
	var out []json.RawMessage
	for _, raw := range goldentest.AgentMessages(t, path) {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Update json.RawMessage `json:"update"`
			} `json:"params"`
		}
		var u struct {
			SessionUpdate string `json:"sessionUpdate"`
		}
		if json.Unmarshal(raw, &m) == nil && m.Method == "session/update" && json.Unmarshal(m.Params.Update, &u) == nil && u.SessionUpdate == kind {
			out = append(out, m.Params.Update)
		}
	}
	return out
}

// processesWithInit counts the cassette's processes that were initialized.
func processesWithInit(t *testing.T, path string) int {
	n := 0
	for _, p := range goldentest.LoadCassette(t, path).Processes {
		if answersOf(t, p).hasInit {
			n++
		}
	}
	return n
}

// firstPerSession keeps the first setup response of each session.
func firstPerSession(results []json.RawMessage) []json.RawMessage {
	seen := map[string]bool{}
	var out []json.RawMessage
	for _, r := range results {
		var sid struct {
			SessionID string `json:"sessionId"`
		}
		_ = json.Unmarshal(r, &sid)
		if !seen[sid.SessionID] {
			seen[sid.SessionID] = true
			out = append(out, r)
		}
	}
	return out
}
