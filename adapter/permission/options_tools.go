package permission

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"

	"github.com/airwire/airwire/adapter/jsstr"
)

// computerUsePrefix starts the tool names of the Computer Use MCP server.
const computerUsePrefix = "mcp__computer-use__"

// urlHostname is the hostname of an absolute URL, lower-cased, with an IPv6
// address in brackets as URL.hostname writes it; "" when raw has none.
func urlHostname(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host
}

// webFetchOptions offers a generated domain:<hostname> local rule.
func webFetchOptions(c optionContext) []Option {
	if c.persistent {
		if host := urlHostname(c.req.inputString("url")); host != "" {
			return withGeneratedUpdate("Yes, and don't ask again for " + host)
		}
	}
	return []Option{allowOnce("Yes"), reject("No")}
}

// skillOptions offers the exact skill and, for a skill with arguments, its
// prefix:* local rule.
func skillOptions(c optionContext) []Option {
	skill := c.req.inputString("skill")
	opts := []Option{allowOnce("Yes")}
	if skill != "" && c.persistent {
		opts = append(opts, Option{OptionAllowSkillExact, "Yes, and don't ask again for " + skill, KindAllowAlways})
		if prefix, ok := skillPrefix(skill); ok {
			opts = append(opts, Option{OptionAllowSkillPrefix, "Yes, and don't ask again for " + prefix + " commands", KindAllowAlways})
		}
	}
	return append(opts, reject("No"))
}

// skillPrefix is the `name:*` rule of a skill invocation with arguments.
func skillPrefix(skill string) (string, bool) {
	i := strings.IndexByte(skill, ' ')
	if i <= 0 {
		return "", false
	}
	return skill[:i] + ":*", true
}

// elevatedModes are the elevated modes ExitPlanMode offers, by priority:
// auto before bypass, unless the session was in bypass before plan mode.
func elevatedModes(s Session) []string {
	order := []string{"auto", "bypassPermissions"}
	if s.PrePlanMode == "bypassPermissions" {
		order = []string{"bypassPermissions", "auto"}
	}
	return slices.DeleteFunc(order, func(m string) bool { return !slices.Contains(s.Modes, m) })
}

// exitPlanOptions offers a clear-context choice for a non-empty plan, the
// elevated keep-context modes (acceptEdits when none is available), manual
// approval, and "No, keep planning" (Choices per tool, Permission modes).
func exitPlanOptions(c optionContext) []Option {
	elevated := elevatedModes(c.session)
	preferred := "acceptEdits"
	if len(elevated) > 0 {
		preferred = elevated[0]
	}
	var opts []Option
	if !c.session.NoContextReset && c.req.inputString("plan") != "" {
		opts = append(opts, clearContextOption(preferred, c.session.contextUsage()))
	}
	for _, m := range elevated {
		if m == "auto" {
			opts = append(opts, Option{OptionExitPlanAuto, "Yes, and use auto mode", KindAllowAlways})
		} else {
			opts = append(opts, Option{OptionExitPlanBypass, "Yes, and bypass permissions", KindAllowAlways})
		}
	}
	if len(elevated) == 0 {
		opts = append(opts, Option{OptionExitPlanAcceptEdits, "Yes, auto-accept edits", KindAllowAlways})
	}
	return append(opts,
		Option{OptionExitPlanDefault, "Yes, manually approve edits", KindAllowOnce},
		reject("No, keep planning"))
}

// clearContextOption is the clear-context choice for the preferred mode;
// usage is " (N% used)" or "".
func clearContextOption(mode, usage string) Option {
	switch mode {
	case "auto":
		return Option{OptionExitPlanClearAuto, "Yes, clear context" + usage + " and use auto mode", KindAllowAlways}
	case "bypassPermissions":
		return Option{OptionExitPlanClearBypass, "Yes, clear context" + usage + " and bypass permissions", KindAllowAlways}
	}
	return Option{OptionExitPlanClearAcceptEdits, "Yes, clear context" + usage + " and auto-accept edits", KindAllowAlways}
}

// contextUsage is the " (N% used)" part of a clear-context label.
func (s Session) contextUsage() string {
	if s.ContextWindow <= 0 {
		return ""
	}
	pct := int(math.Floor(float64(s.ContextUsed)/float64(s.ContextWindow)*100 + 0.5))
	return fmt.Sprintf(" (%d%% used)", min(100, max(0, pct)))
}

// sandboxNetworkOptions offers the SDK host rule only when it is exactly one
// local allow rule for this host.
func sandboxNetworkOptions(c optionContext) []Option {
	host := c.req.inputString("host")
	label := ""
	if host != "" && exactLocalAllowRule(c.durable, c.req.ToolName, host) {
		label = "Yes, and don't ask again for " + host
	}
	return withOptionalUpdate(c.durable, label)
}

// exactLocalAllowRule reports a bundle of exactly one localSettings allow
// rule for toolName with this content.
func exactLocalAllowRule(cs *changeSet, toolName, content string) bool {
	if cs == nil || len(cs.updates) != 1 {
		return false
	}
	u := cs.updates[0]
	if u.Type != "addRules" || u.Behavior != "allow" || u.Destination != "localSettings" || len(u.Rules) != 1 {
		return false
	}
	r := u.Rules[0]
	return r.ToolName == toolName && r.HasContent && jsstr.Trim(r.Content) == content
}

// mcpAllowChangeSet reports a bundle whose every update adds unrestricted
// allow rules for toolName only: then "don't ask again" is truthful.
func mcpAllowChangeSet(cs *changeSet, toolName string) bool {
	if cs == nil || len(cs.updates) == 0 {
		return false
	}
	for _, u := range cs.updates {
		if u.Type != "addRules" || u.Behavior != "allow" || len(u.Rules) == 0 {
			return false
		}
		for _, r := range u.Rules {
			if r.ToolName != toolName || r.HasContent {
				return false
			}
		}
	}
	return true
}

// toolLabel is the display name of the tool, else its name.
func (c optionContext) toolLabel() string {
	return orDefault(jsstr.Trim(c.req.DisplayName), c.req.ToolName)
}

// computerUseOptions offers an exact representable SDK allow suggestion.
func computerUseOptions(c optionContext) []Option {
	if c.persistent && mcpAllowChangeSet(c.durable, c.req.ToolName) {
		return withOptionalUpdate(c.durable, "Yes, and don't ask again for "+c.toolLabel())
	}
	return withOptionalUpdate(nil, "")
}

// fallbackOptions serves MCP tools (an exact SDK allow suggestion for that
// tool) and every other tool (a generated whole-tool local rule).
func fallbackOptions(c optionContext) []Option {
	label := "Yes, and don't ask again for " + c.toolLabel() + " commands"
	if strings.HasPrefix(c.req.ToolName, "mcp__") {
		if c.persistent && mcpAllowChangeSet(c.durable, c.req.ToolName) {
			return withOptionalUpdate(c.durable, label)
		}
		return withOptionalUpdate(nil, "")
	}
	if c.persistent {
		return withGeneratedUpdate(label)
	}
	return []Option{allowOnce("Yes"), reject("No")}
}
