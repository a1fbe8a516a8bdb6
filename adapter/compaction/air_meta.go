package compaction

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/airmeta"
)

// Context compaction for AIR (contract "Context compaction"): both forms
// carry `_meta.jetbrains.air.contextCompaction` {version: 1, trigger?,
// preTokens?, postTokens?, durationMs?, error?}; only the tool call form
// carries the error there (compaction_update has its standard `error`).
// The tool call form goes through the AIR field rule of the "Tool call
// contract": an update leaves out the `_meta.jetbrains.air` keys that the
// tool call already sent with the same value. Every other client gets
// `_meta.claudeCode.toolName: "compact"` on the tool call form and no
// `_meta` on compaction_update.

// contextCompactionVersion is the payload's `version`.
const contextCompactionVersion = 1

// contextCompactionMeta is the AIR `_meta` of a compaction report.
func contextCompactionMeta(facts compactionFacts) map[string]any {
	payload := map[string]any{"version": contextCompactionVersion}
	for k, v := range facts {
		payload[k] = v
	}
	return airmeta.Merge(nil, "contextCompaction", payload)
}

// withUpdateMeta gives a compaction_update its AIR `_meta`.
func (c *Lifecycle) withUpdateMeta(u map[string]any, facts compactionFacts) map[string]any {
	if c.air {
		u["_meta"] = contextCompactionMeta(facts)
	}
	return u
}

// withToolMeta gives a report of the synthetic tool call its `_meta`: the
// tool name for a client that is not AIR; for AIR the compaction facts,
// less the keys an earlier report of st sent unchanged.
func (c *Lifecycle) withToolMeta(st *compactionState, u map[string]any, facts compactionFacts) map[string]any {
	if !c.air {
		u["_meta"] = compactToolMeta()
		return u
	}
	air := contextCompactionMeta(facts)["jetbrains"].(map[string]any)["air"].(map[string]any)
	if st.metaSent == nil || u["sessionUpdate"] == "tool_call" {
		st.metaSent = map[string]string{}
	}
	for k, v := range air {
		b, _ := json.Marshal(v)
		if st.metaSent[k] == string(b) {
			delete(air, k)
			continue
		}
		st.metaSent[k] = string(b)
	}
	if len(air) > 0 {
		u["_meta"] = map[string]any{"jetbrains": map[string]any{"air": air}}
	}
	return u
}

// withoutError is facts less a failure's error.
func withoutError(facts compactionFacts) compactionFacts {
	out := compactionFacts{}
	for k, v := range facts {
		if k != "error" {
			out[k] = v
		}
	}
	return out
}
