package permission

import (
	"slices"
	"strings"
)

// The fixed option ids (Permission presentation, Options). The client must
// return the selected id unchanged.
const (
	OptionAllowOnce                = "allow-once"
	OptionAllowWithUpdates         = "allow-with-updates"
	OptionAllowSkillExact          = "allow-skill-exact"
	OptionAllowSkillPrefix         = "allow-skill-prefix"
	OptionExitPlanAuto             = "exit-plan-auto"
	OptionExitPlanBypass           = "exit-plan-bypass"
	OptionExitPlanAcceptEdits      = "exit-plan-accept-edits"
	OptionExitPlanDefault          = "exit-plan-default"
	OptionExitPlanClearAuto        = "exit-plan-clear-auto"
	OptionExitPlanClearBypass      = "exit-plan-clear-bypass"
	OptionExitPlanClearAcceptEdits = "exit-plan-clear-accept-edits"
	OptionReject                   = "reject"
)

// The ACP permission option kinds.
const (
	KindAllowOnce    = "allow_once"
	KindAllowAlways  = "allow_always"
	KindRejectOnce   = "reject_once"
	KindRejectAlways = "reject_always"
)

// Option is one ACP PermissionOption of a session/request_permission.
type Option struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

func allowOnce(name string) Option { return Option{OptionAllowOnce, name, KindAllowOnce} }
func allowWithUpdates(name string) Option {
	return Option{OptionAllowWithUpdates, name, KindAllowAlways}
}
func reject(name string) Option { return Option{OptionReject, name, KindRejectOnce} }

// withOptionalUpdate is Yes, the durable choice when there is an effect and
// a label for it, and No.
func withOptionalUpdate(cs *changeSet, label string) []Option {
	opts := []Option{allowOnce("Yes")}
	if cs != nil && label != "" {
		opts = append(opts, allowWithUpdates(label))
	}
	return append(opts, reject("No"))
}

// withGeneratedUpdate is Yes, a durable choice whose effect the adapter
// generates, and No.
func withGeneratedUpdate(label string) []Option {
	return []Option{allowOnce("Yes"), allowWithUpdates(label), reject("No")}
}

// optionContext is what the option builders read.
type optionContext struct {
	req        Request
	session    Session
	durable    *changeSet
	persistent bool // a persistent choice may be offered (no forced ask)
}

// buildOptions returns the ordered option list of the tool (Choices per
// tool): allow_once, then allow_always, then the reject kinds, each kind in
// builder order; with defaultToNo the reject kinds come first.
func buildOptions(c optionContext) []Option {
	opts := unsortedOptions(c)
	rank := optionRank
	if c.req.DefaultToNo {
		rank = func(o Option) int {
			if o.Kind == KindRejectOnce || o.Kind == KindRejectAlways {
				return 0
			}
			return 1 + optionRank(o)
		}
	}
	slices.SortStableFunc(opts, func(a, b Option) int { return rank(a) - rank(b) })
	return opts
}

// optionRank orders the option kinds.
func optionRank(o Option) int {
	switch o.Kind {
	case KindAllowOnce:
		return 0
	case KindAllowAlways:
		return 1
	case KindRejectOnce, KindRejectAlways:
		return 3
	}
	return 2
}

// unsortedOptions dispatches to the builder of the tool family.
func unsortedOptions(c optionContext) []Option {
	name := c.req.ToolName
	if strings.HasPrefix(name, computerUsePrefix) {
		return computerUseOptions(c)
	}
	switch name {
	case "Bash", "PowerShell":
		return withOptionalUpdate(c.durable, shellLabel(name, c.durable))
	case "Read":
		return fileOptions(c, c.req.inputString("file_path"), opRead)
	case "Glob", "Grep":
		return fileOptions(c, orDefault(c.req.inputString("path"), c.session.Cwd), opRead)
	case "Edit", "Write":
		return fileOptions(c, c.req.inputString("file_path"), opWrite)
	case "NotebookEdit":
		return fileOptions(c, c.req.inputString("notebook_path"), opWrite)
	case "WebFetch":
		return webFetchOptions(c)
	case "Skill":
		return skillOptions(c)
	case "EnterPlanMode":
		return []Option{allowOnce("Yes, enter plan mode"), reject("No, start implementing now")}
	case "ExitPlanMode":
		return exitPlanOptions(c)
	case "SandboxNetworkAccess":
		return sandboxNetworkOptions(c)
	}
	return fallbackOptions(c)
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
