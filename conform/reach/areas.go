package reach

import "strings"

// Area is a part of the contract (air-extensions.md; docs/reach.md) and
// the modules of the reference's dist/ that implement it. Each area's
// modules should reach Target of their functions.
type Area struct {
	// Name is the area's name in the reach report.
	Name string
	// Sections are the contract's sections the modules implement.
	Sections []string
	// Modules are module names relative to dist/; one ending in "/" is a
	// whole folder.
	Modules []string
}

// Areas maps the contract's areas to the reference's modules, read from
// claude-agent-acp@0.101.0's dist/. A module belongs to the first area
// that names it, so the compaction reporter is counted under compaction,
// not under the tool reporters of its folder. acp-agent.js, the core, is
// in no area: it dispatches to these modules and holds every other path.
var Areas = []Area{
	{Name: "compaction", Sections: []string{"Context compaction"},
		Modules: []string{"context-compaction.js", "context-compaction-meta.js", "tool-calls/reporters/compaction.js"}},
	{Name: "tool reporters", Sections: []string{"Tool call contract", "Claude tools and ACP fields", "Question custom answers", "Presentation hints"},
		Modules: []string{"tools.js", "tool-result-meta.js", "tool-calls/"}},
	{Name: "permissions", Sections: []string{"Permission presentation"}, Modules: []string{"permissions/"}},
	{Name: "diff", Sections: []string{"Diff patch"}, Modules: []string{"diff.js"}},
	{Name: "session failure", Sections: []string{"Session failure"}, Modules: []string{"session-failure-extension.js"}},
	{Name: "session index", Sections: []string{"Session index"}, Modules: []string{"session-index/"}},
	{Name: "async tasks", Sections: []string{"Async tasks"}, Modules: []string{"async-tasks.js", "task-notifications.js"}},
	{Name: "subagents", Sections: []string{"Native subagent sessions"},
		Modules: []string{"native-subagents.js", "acp-subagents.js", "subagent-history.js", "subagent-replay.js"}},
	{Name: "goal", Sections: []string{"Goal"}, Modules: []string{"goal-extension.js"}},
	{Name: "fork", Sections: []string{"Session fork point"}, Modules: []string{"fork-session.js"}},
	{Name: "file-change report", Sections: []string{"Agent file-change report"}, Modules: []string{"file-change-audit.js"}},
	{Name: "elicitation", Sections: []string{"Question custom answers"}, Modules: []string{"elicitation.js"}},
}

// AreaOf is the name of the area module (relative to dist/) belongs to,
// "" when it is in none.
func AreaOf(module string) string {
	for _, a := range Areas {
		for _, m := range a.Modules {
			if m == module || strings.HasSuffix(m, "/") && strings.HasPrefix(module, m) {
				return a.Name
			}
		}
	}
	return ""
}
