package permission

import (
	"encoding/json"
	"slices"
)

// Bounds of a durable bundle (Durable SDK suggestions: bounded array sizes
// and bounded non-empty strings).
const (
	maxUpdates              = 100
	maxRulesPerUpdate       = 100
	maxDirectoriesPerUpdate = 100
	maxToolNameLen          = 512
	maxRuleContentLen       = 10_000
	maxDirectoryLen         = 4_096
)

var (
	destinations = []string{"session", "cliArg", "userSettings", "projectSettings", "localSettings"}
	behaviors    = []string{"allow", "deny", "ask"}
	sdkModes     = []string{"default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto"}
)

// update is one validated SDK PermissionUpdate. Raw is its exact snapshot,
// the value applied when the user picks the option that shows it.
type update struct {
	Type        string
	Destination string
	Behavior    string
	Mode        string
	Rules       []rule
	Directories []string
	Raw         json.RawMessage
}

// rule is a permission rule; HasContent tells an absent ruleContent (the
// whole tool) from a present one.
type rule struct {
	ToolName   string
	Content    string
	HasContent bool
}

// changeSet is the validated snapshot of the SDK suggestions: the durable
// effect an allow-with-updates option applies.
type changeSet struct{ updates []update }

// raws returns the snapshots of the updates, in order.
func (c *changeSet) raws() []json.RawMessage {
	out := make([]json.RawMessage, len(c.updates))
	for i, u := range c.updates {
		out[i] = u.Raw
	}
	return out
}

// durableChangeSet validates the whole suggestion array and snapshots it
// (Durable SDK suggestions). It returns nil when a configured ask rule forced
// the prompt, or when any update is unknown or invalid: a mixed bundle is
// never labelled in part.
func durableChangeSet(suggestions json.RawMessage, forcedAsk bool) *changeSet {
	if forcedAsk {
		return nil
	}
	items, ok := arrayOf(suggestions)
	if !ok || len(items) == 0 || len(items) > maxUpdates {
		return nil
	}
	cs := &changeSet{}
	for _, raw := range items {
		u, ok := parseUpdate(raw)
		if !ok {
			return nil
		}
		cs.updates = append(cs.updates, u)
	}
	return cs
}

// parseUpdate validates one PermissionUpdate.
func parseUpdate(raw json.RawMessage) (update, bool) {
	o, ok := parseObject(raw)
	if !ok {
		return update{}, false
	}
	u := update{Raw: raw}
	var typeOK, destOK bool
	u.Type, typeOK = stringOf(o.get("type"))
	u.Destination, destOK = stringOf(o.get("destination"))
	if !typeOK || !destOK || !slices.Contains(destinations, u.Destination) {
		return update{}, false
	}
	switch u.Type {
	case "addRules", "replaceRules", "removeRules":
		return parseRulesUpdate(u, o)
	case "setMode":
		var ok bool
		u.Mode, ok = stringOf(o.get("mode"))
		return u, ok && slices.Contains(sdkModes, u.Mode)
	case "addDirectories", "removeDirectories":
		return parseDirectoriesUpdate(u, o)
	}
	return update{}, false
}

// parseRulesUpdate validates the rules and behavior of a rules update.
func parseRulesUpdate(u update, o *object) (update, bool) {
	items, ok := arrayOf(o.get("rules"))
	if !ok || len(items) > maxRulesPerUpdate || (u.Type != "replaceRules" && len(items) == 0) {
		return update{}, false
	}
	for _, raw := range items {
		r, ok := parseRule(raw)
		if !ok {
			return update{}, false
		}
		u.Rules = append(u.Rules, r)
	}
	u.Behavior, ok = stringOf(o.get("behavior"))
	return u, ok && slices.Contains(behaviors, u.Behavior)
}

// parseRule validates a rule: a bounded tool name and an optional bounded
// rule content.
func parseRule(raw json.RawMessage) (rule, bool) {
	o, ok := parseObject(raw)
	if !ok {
		return rule{}, false
	}
	name, ok := stringOf(o.get("toolName"))
	if !safePlainString(name, ok, maxToolNameLen) {
		return rule{}, false
	}
	r := rule{ToolName: name}
	if content := o.get("ruleContent"); content != nil {
		s, ok := stringOf(content)
		if !safePlainString(s, ok, maxRuleContentLen) {
			return rule{}, false
		}
		r.Content, r.HasContent = s, true
	}
	return r, true
}

// parseDirectoriesUpdate validates the directories of a directories update.
func parseDirectoriesUpdate(u update, o *object) (update, bool) {
	items, ok := arrayOf(o.get("directories"))
	if !ok || len(items) == 0 || len(items) > maxDirectoriesPerUpdate {
		return update{}, false
	}
	for _, raw := range items {
		d, ok := stringOf(raw)
		if !safePlainString(d, ok, maxDirectoryLen) {
			return update{}, false
		}
		u.Directories = append(u.Directories, d)
	}
	return u, true
}
