package scenario

import (
	"slices"
	"strings"
)

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

// subsections are the level-3 headings of the AIR contract under each
// section that has them, in document order. A scenario's covers may name
// one as "Section > Subsection" (SubsectionSep), e.g.
// "Session failure > Identity and revisions".
var subsections = [...]struct {
	section string
	subs    []string
}{
	{"Negotiation", []string{"Client declaration", "Agent declaration", "Capabilities"}},
	{"Tool call contract", []string{"Adapter structure"}},
	{"Diff patch", []string{"Activation", "Diff content", "Fallback", "Claude behavior"}},
	{"Plan file", []string{"Activation", "Claude source", "ExitPlanMode reports", "Fallback"}},
	{"Permission presentation", []string{"Request lifecycle", "Request", "Tool call of the request", "Options", "Durable SDK suggestions", "Choices per tool", "Permission modes", "Cancellation and failures", "Client requirements", "Current limits"}},
	{"Goal", []string{"Capability", "Control request", "Session state", "Lifecycle", "Claude mapping"}},
	{"Recommended config values", []string{"Activation", "Config option metadata", "Model", "Effort", "SDK upgrade check"}},
	{"Async tasks", []string{"Updates", "Task id and output path", "Tool call of a task", "Liveness", "Stop request"}},
	{"Agent file-change report", []string{"Request", "Report", "Claude source", "Unavailable report"}},
	{"Session failure", []string{"Activation", "Record", "Identity and revisions", "Delivery", "Categories and actions", "Title and details", "Recovery", "History replay"}},
	{"Session index", []string{"Activation", "List request", "List response", "Rename", "Archive", "List subscription", "Delete and close", "Errors", "Relation to the RFDs", "Relation to ACP RFD #2161"}},
}

// SubsectionsOf lists the subsections of sec (see subsections).
func SubsectionsOf(sec string) []string {
	for _, s := range subsections {
		if s.section == sec {
			return s.subs
		}
	}
	return nil
}

// SubsectionSep joins a section and one of its subsections in covers.
const SubsectionSep = " > "

// IsSection reports whether name is one of Sections.
func IsSection(name string) bool {
	return slices.Contains(Sections, name)
}

// IsSubsection reports whether name is "Section > Subsection" for a
// subsection of that section.
func IsSubsection(name string) bool {
	sec, sub, ok := strings.Cut(name, SubsectionSep)
	return ok && slices.Contains(SubsectionsOf(sec), sub)
}

// AllSubsections lists every "Section > Subsection", in document order.
func AllSubsections() []string {
	var out []string
	for _, sec := range Sections {
		for _, sub := range SubsectionsOf(sec) {
			out = append(out, sec+SubsectionSep+sub)
		}
	}
	return out
}

// Outline lists every section followed by its subsections
// ("Section > Subsection"), in document order: the rows of a coverage
// matrix.
func Outline() []string {
	var out []string
	for _, sec := range Sections {
		out = append(out, sec)
		for _, sub := range SubsectionsOf(sec) {
			out = append(out, sec+SubsectionSep+sub)
		}
	}
	return out
}
