package sessionconfig

import (
	"encoding/json"
	"slices"

	"github.com/airwire/airwire/internal/lookup"
)

// The agent picker: the main-thread agent persona a session runs, among
// the custom agents Claude Code found (the user's, a project's, a
// plugin's). The reference offers it as the `agent` config option; with
// no custom agent there is no choice, and no option.

// Agent is one entry of the CLI's `agents` list (initialize).
type Agent struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// DefaultAgent is the picker's value for Claude Code's standard agent
// (apply_flag_settings agent: null). A custom agent of that name would
// collide with it, so it is never offered.
const DefaultAgent = "default"

// builtinAgents are Claude Code's own subagents, which it lists whatever
// the user configured: delegates of the Task tool, not personas to run a
// session as.
var builtinAgents = lookup.Set{"claude", "general-purpose", "Explore", "Plan", "statusline-setup"}

// customAgents keeps the agents the picker offers.
func customAgents(all []Agent) []Agent {
	var out []Agent
	for _, a := range all {
		if !builtinAgents.Has(a.Name) && a.Name != DefaultAgent {
			out = append(out, a)
		}
	}
	return out
}

// initialAgent is the picker's value for the agent the CLI started as
// (--agent): that agent when the picker offers it, else Default (an agent
// the picker cannot show would leave it on no value of its own).
func initialAgent(agents []Agent, started string) string {
	if started != "" && slices.ContainsFunc(agents, func(a Agent) bool { return a.Name == started }) {
		return started
	}
	return DefaultAgent
}

// agentPicker is a session's picker state.
type agentPicker struct {
	agents []Agent // the custom agents offered
	value  string  // the picker's value
	chosen bool    // the client chose the agent this session
}

// option is the picker, nil without a custom agent.
func (p *agentPicker) option() *configOption {
	if len(p.agents) == 0 {
		return nil
	}
	opts := []choice{{Value: DefaultAgent, Name: "Default", Description: "Standard Claude Code agent"}}
	for _, a := range p.agents {
		opts = append(opts, choice{Value: a.Name, Name: a.Name, Description: a.Description})
	}
	return &configOption{ID: "agent", Name: "Agent", Description: "Main-thread agent persona", Type: "select",
		CurrentValue: p.value, Options: opts}
}

// set switches the agent live, from the next turn on
// (apply_flag_settings; Default clears the flag with null); result is the
// answer once it is committed.
func (p *agentPicker) set(v string, result func() json.RawMessage) Plan {
	var flag any = v
	if v == DefaultAgent {
		flag = nil
	}
	settings := marshal(map[string]any{"agent": flag})
	return Plan{Requests: []json.RawMessage{request("apply_flag_settings", "settings", settings)}, commit: func() Outcome {
		p.value, p.chosen = v, true
		return Outcome{Result: result()}
	}}
}

// AgentOf is the agent session s runs ("default" for Claude Code's
// standard one) and whether the client chose it this session.
func AgentOf(s *Session) (name string, chosen bool) { return s.picker.value, s.picker.chosen }
