package scenario

// Sections are the top-level section names of the AIR contract
// (air-extensions.md, "AIR extensions in claude-agent-acp"), in document
// order. A scenario's covers must use these names verbatim; they become
// Ginkgo labels.
var Sections = []string{
	"Purpose and scope",
	"Compatibility rule",
	"Negotiation",
	"AIR metadata keys",
	"JetBrains shared keys",
	"Zed conventions",
	"Tool call contract",
	"Claude tools and ACP fields",
	"Diff patch",
	"Plan file",
	"Session hooks",
	"Permission presentation",
	"Goal",
	"Recommended config values",
	"Async tasks",
	"Agent file-change report",
	"Session failure",
	"Native subagent sessions",
	"Session index",
	"Context compaction",
	"Question custom answers",
	"Session fork point",
	"Presentation hints",
	"Removed keys",
}

// IsSection reports whether name is one of Sections.
func IsSection(name string) bool {
	for _, s := range Sections {
		if s == name {
			return true
		}
	}
	return false
}
