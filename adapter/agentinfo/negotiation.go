package agentinfo

import (
	"slices"

	"github.com/airwire/airwire/adapter/airmeta"
	"github.com/airwire/airwire/adapter/caps"
)

// agentAIRCapabilities is the agent list of the AIR declaration, in the
// order the reference sends it (contract: "Negotiation", "Agent
// declaration"). It does not depend on what the client declared.
//
// backgroundSubagents is not in the contract's table: the reference lists
// it, and we implement what it promises (a declaring client's turns end at
// their result while subagents run, see the adapter's subagent hold), so it
// is advertised too (goldens/DEVIATIONS.md entry 1). customInstructions is
// not: the agent does not read `_meta.jetbrains.air.customInstructions`.
var agentAIRCapabilities = []string{
	caps.SessionFailure,
	caps.AgentFileChangeReport,
	caps.NativeSubagentSessions,
	caps.AsyncTasks,
	caps.RecommendedValue,
	caps.DiffPatch,
	caps.PlanFile,
	BackgroundSubagents,
}

// BackgroundSubagents is the AIR capability of a client whose turns end at
// their result while the subagents they spawned still run.
const BackgroundSubagents = "backgroundSubagents"

// sessionIndexCapabilities go into the agent list only for a client that
// declared sessionIndex ("Agent declaration": "the agent lists it,
// together with sessionArchive, sessionRename and sessionListSubscribe,
// only for a client that declared sessionIndex"). The reference's
// sessionBatchGet and sessionWorktrees are not listed: the contract names
// no such capability and the agent implements neither
// (goldens/DEVIATIONS.md entry 2).
var sessionIndexCapabilities = []string{caps.SessionIndex, "sessionArchive", "sessionRename", "sessionListSubscribe"}

// Goal control (contract: "Goal", "Capability").
const (
	GoalVersion       = 1
	GoalControlMethod = "_session/goal"
)

// GoalActions are the goal actions the agent supports.
var GoalActions = []string{"set", "clear"}

// AgentAIRCapabilities is the agent's AIR capability list for client c.
// An ACP v2 client is not offered backgroundSubagents: v2 answers a prompt
// at its insertion and reports the end of its work as a state, so there is
// no answer that the capability could let end at the turn's result, and
// the turn keeps its hold for its subagents (as the reference's v2 does).
func AgentAIRCapabilities(c caps.Client) []string {
	out := append([]string(nil), agentAIRCapabilities...)
	if c.V2 {
		out = slices.DeleteFunc(out, func(name string) bool { return name == BackgroundSubagents })
	}
	if c.AIR.Has(caps.SessionIndex) {
		out = append(out, sessionIndexCapabilities...)
	}
	return out
}

// resultMeta is the top-level `_meta` of the initialize result: the
// steering key for every client, and for an AIR client only the agent
// declaration under `jetbrains.air` (capabilities and the goal object).
// A client that is not AIR gets no `jetbrains` key ("Compatibility rule").
func resultMeta(c caps.Client) map[string]any {
	meta := map[string]any{"steering": map[string]any{"supported": true}}
	if !c.AIR.Client {
		return meta
	}
	meta = airmeta.Merge(meta, "capabilities", AgentAIRCapabilities(c))
	return airmeta.Merge(meta, "goal", map[string]any{
		"version":       GoalVersion,
		"controlMethod": GoalControlMethod,
		"actions":       GoalActions,
	})
}

// subagentSessionCapabilities adds `subagents`, the agent side of native
// subagent sessions, to the session capabilities of every client (contract,
// Native subagent sessions: "`agentCapabilities.sessionCapabilities.subagents`
// to every client"): AIR takes the sessions in its own form, a client that
// declares `clientCapabilities.subagents` in the RFD form. The reference
// gives it to AIR only (goldens/DEVIATIONS.md entry 21).
func subagentSessionCapabilities(sc map[string]any) {
	sc["subagents"] = map[string]any{}
}
