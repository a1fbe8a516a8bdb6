package subagents

import (
	"encoding/json"
	"slices"

	"github.com/airwire/airwire/adapter/sessionconfig"
)

// Contract "Native subagent sessions", AIR form: a child session reports
// its own configuration as one-entry options: its permission mode, its
// model, its effort and its agent type. The subagent hooks report them
// (SubagentStart, PreToolUse, PostToolUse, PostModelSwitch, ...) and each
// child response its model. A child gets a new `config_option_update`
// only when its options changed; an ended child gets none.

// childOption is one config option of a child session.
type childOption struct {
	id, category string
	raw          json.RawMessage
}

// childConfig is what a child reported of its configuration.
type childConfig struct {
	options   []childOption // in the order first reported
	published string        // the snapshot the client has
	model     modelEntry    // the model entry the client has
}

// modelEntry is an entry of a `model` option.
type modelEntry struct{ value, name string }

// childConfigSource gives the root session's lists that a child's options
// are built from.
type childConfigSource interface {
	modeOption(mode string) json.RawMessage
	modelEntry(model string) (modelEntry, bool)
}

// hostConfig is the childConfigSource of a live session: its Config.
type hostConfig struct{ h Host }

func (c hostConfig) modeOption(mode string) json.RawMessage {
	cfg := c.h.Config()
	if cfg == nil {
		return nil
	}
	return cfg.SubagentModeOption(mode)
}

// modelEntry is the root session's entry for a model id a child reported,
// else the id with its display name (the reference's responseModelEntry).
func (c hostConfig) modelEntry(model string) (modelEntry, bool) {
	if model == "" || model == "<synthetic>" {
		return modelEntry{}, false
	}
	cfg := c.h.Config()
	if cfg == nil {
		return modelEntry{model, model}, true
	}
	if v, n, ok := cfg.SubagentModelEntry(model); ok {
		return modelEntry{v, n}, true
	}
	return modelEntry{model, orElse(cfg.ModelDisplayName(model), model)}, true
}

// configRank orders a child's options: mode, model, effort, the rest.
func configRank(category string) int {
	if i := slices.Index([]string{"mode", "model", "thought_level", "model_config"}, category); i >= 0 {
		return i
	}
	return 4
}

func modelOption(e modelEntry) childOption {
	raw, _ := json.Marshal(map[string]any{"id": "model", "name": "Model", "category": "model", "type": "select",
		"currentValue": e.value, "options": []any{map[string]any{"value": e.value, "name": e.name}}})
	return childOption{id: "model", category: "model", raw: raw}
}

// reportModel takes the model of a child response (parent is the launch
// of the child): it goes to the child as its model option when it changed.
func (r *Router) reportModel(parent, model string) {
	if !r.on || parent == "" || r.config == nil {
		return
	}
	e, ok := r.config.modelEntry(model)
	if !ok {
		return
	}
	if c := r.byLaunch[parent]; c != nil && c.announced {
		if cfg := r.configs[c.sessionID]; cfg != nil && cfg.model == e {
			return
		}
	}
	meta := map[string]any{"claudeCode": map[string]any{"parentToolUseId": parent}}
	r.route(routed{parent: parent, modelOnly: []childOption{modelOption(e)}, reportMeta: meta})
}

// reportConfig takes options of the child agentID (an SDK agent id or a
// child session id); a hook can report them before the child is known.
func (r *Router) reportConfig(agentID string, options []childOption, meta map[string]any) {
	if !r.on || agentID == r.root || len(options) == 0 {
		return
	}
	known := r.childOfSession(agentID)
	id := agentID
	if known != nil {
		id = known.sessionID
		if known.ended {
			return
		}
	}
	cfg := r.configs[id]
	if cfg == nil {
		if known == nil && len(r.configs) >= maxPendingParents {
			return
		}
		cfg = &childConfig{}
		r.configs[id] = cfg
	}
	for _, o := range options {
		if i := slices.IndexFunc(cfg.options, func(p childOption) bool { return p.id == o.id }); i >= 0 {
			cfg.options[i] = o
		} else {
			cfg.options = append(cfg.options, o)
		}
	}
	if known != nil && known.announced {
		r.publishConfig(known, meta)
	}
}

// publishConfig sends the child's options when they changed.
func (r *Router) publishConfig(c *childSession, meta map[string]any) {
	cfg := r.configs[c.sessionID]
	if cfg == nil || c.ended {
		return
	}
	sorted := slices.Clone(cfg.options)
	slices.SortStableFunc(sorted, func(a, b childOption) int { return configRank(a.category) - configRank(b.category) })
	raws := make([]json.RawMessage, len(sorted))
	for i, o := range sorted {
		raws[i] = o.raw
	}
	snapshot, _ := json.Marshal(raws)
	if string(snapshot) == cfg.published {
		return
	}
	u := map[string]any{"sessionUpdate": "config_option_update", "configOptions": json.RawMessage(snapshot)}
	if meta != nil {
		u["_meta"] = meta
	}
	r.send(c.sessionID, u)
	cfg.published = string(snapshot)
	for _, o := range sorted {
		if o.id == "model" {
			cfg.model = shownModel(o.raw)
		}
	}
}

// shownModel is the entry a model option shows.
func shownModel(raw json.RawMessage) modelEntry {
	var o struct {
		CurrentValue string `json:"currentValue"`
		Options      []struct {
			Name string `json:"name"`
		} `json:"options"`
	}
	if json.Unmarshal(raw, &o) != nil || len(o.Options) == 0 {
		return modelEntry{}
	}
	return modelEntry{o.CurrentValue, o.Options[0].Name}
}

// subagentHookInput is the part of a subagent hook's input that reports
// the child's configuration.
type subagentHookInput struct {
	AgentID        string `json:"agent_id"`
	Cwd            string `json:"cwd"`
	AgentType      string `json:"agent_type"`
	HookEventName  string `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode"`
	ToModel        string `json:"to_model"`
	Effort         struct {
		Level string `json:"level"`
	} `json:"effort"`
}

// hookOptions are the options a subagent hook reports of its child.
func (r *Router) hookOptions(in subagentHookInput) []childOption {
	var out []childOption
	if in.PermissionMode != "" && r.config != nil {
		if raw := r.config.modeOption(in.PermissionMode); raw != nil {
			out = append(out, childOption{id: "mode", category: "mode", raw: raw})
		}
	}
	if in.HookEventName == "PostModelSwitch" && r.config != nil {
		if e, ok := r.config.modelEntry(in.ToModel); ok {
			out = append(out, modelOption(e))
		}
	}
	if l := in.Effort.Level; l != "" {
		raw, _ := json.Marshal(map[string]any{"id": "effort", "name": "Effort", "description": "Current reasoning effort",
			"category": "thought_level", "type": "select", "currentValue": l,
			"options": []any{map[string]any{"value": l, "name": sessionconfig.EffortName(l)}}})
		out = append(out, childOption{id: "effort", category: "thought_level", raw: raw})
	}
	if t := in.AgentType; t != "" {
		raw, _ := json.Marshal(map[string]any{"id": "agent", "name": "Agent", "description": "Subagent type",
			"type": "select", "currentValue": t, "options": []any{map[string]any{"value": t, "name": t}}})
		out = append(out, childOption{id: "agent", raw: raw})
	}
	return out
}

// HookReport reports the configuration that the subagent configuration
// hook with input tells of its child, and in the RFD form its working
// directory.
func (r *Router) HookReport(input json.RawMessage) {
	var in subagentHookInput
	if !r.on || json.Unmarshal(input, &in) != nil || in.AgentID == "" {
		return
	}
	r.form.reportCwd(in.AgentID, in.Cwd) // rfd_cwd.go
	r.reportConfig(in.AgentID, r.hookOptions(in), nil)
}
