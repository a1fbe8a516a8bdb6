package validate_test

import (
	"testing"

	"github.com/airwire/airwire/schemas/validate"
)

// The identity rule of "Session failure", "Categories and actions": an
// api_retry warning reuses the id of the active turn failure, and the
// terminal failure of the turn raises that record's revision.

const (
	turnFailureID = "prompt-1:error"
	retryPtr      = "/params/update/_meta/jetbrains/air/sessionFailure/id"
	terminalPtr   = "/result/_meta/jetbrains/air/sessionFailure/id"
)

func failureMeta(id string, rev int, severity, category, title string, actions ...any) M {
	if actions == nil {
		actions = []any{}
	}
	return airMeta(M{"sessionFailure": M{"id": id, "revision": rev, "category": category, "severity": severity, "title": title, "actions": actions}})
}

func promptReq(t *testing.T, id int) validate.Message {
	return editor(t, M{"jsonrpc": "2.0", "id": id, "method": "session/prompt", "params": M{"sessionId": sid, "prompt": []any{M{"type": "text", "text": "Write the changelog."}}}})
}

// retryWarning is the session_info_update of an SDK api_retry.
func retryWarning(t *testing.T, id string, rev, attempt int) validate.Message {
	title := "Retrying Claude, attempt " + itoa(attempt) + " of 3."
	return agent(t, update(M{"sessionUpdate": "session_info_update", "_meta": failureMeta(id, rev, "warning", "service", title)}))
}

// promptFailed is the PromptResponse that carries the turn-terminal failure.
func promptFailed(t *testing.T, reqID int, id string, rev int) validate.Message {
	return agent(t, M{"jsonrpc": "2.0", "id": reqID, "result": M{"stopReason": "end_turn",
		"_meta": failureMeta(id, rev, "error", "service", "API Error: Repeated 529 Overloaded errors. Try again later.", "retry")}})
}

func promptDone(t *testing.T, reqID int) validate.Message {
	return agent(t, M{"jsonrpc": "2.0", "id": reqID, "result": M{"stopReason": "end_turn"}})
}

func itoa(n int) string { return string(rune('0' + n)) }

func TestFailureTurnIdentity(t *testing.T) {
	const rule = "session-failure-turn-identity"
	type want struct {
		rule, pointer string
		seq           int // index into the extra messages
	}
	tests := []struct {
		name string
		msgs func(t *testing.T) []validate.Message
		want []want // every error finding, in order; nil = none
	}{
		{name: "retries and the terminal failure share one id with rising revisions", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60),
				retryWarning(t, turnFailureID, 1, 1), retryWarning(t, turnFailureID, 2, 2), retryWarning(t, turnFailureID, 3, 3),
				promptFailed(t, 60, turnFailureID, 4)}
		}},
		{name: "terminal failure publishes a new record", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60),
				retryWarning(t, turnFailureID, 1, 1), retryWarning(t, turnFailureID, 2, 2),
				promptFailed(t, 60, "prompt-2:error", 1)}
		}, want: []want{{rule, terminalPtr, 3}}},
		{name: "a retry warning publishes a new record", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60),
				retryWarning(t, turnFailureID, 1, 1), retryWarning(t, sid+":session-error:e:2", 1, 2),
				promptFailed(t, 60, turnFailureID, 2)}
		}, want: []want{{rule, retryPtr, 2}}},
		// What the reference does against the real CLI, whose api_retry
		// events come before the prompt echo (research real-cli-vs-fake §3):
		// each retry is its own session-scoped record, the failure a third.
		{name: "reference with the real CLI: session-scoped retries, turn-scoped failure", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60),
				retryWarning(t, sid+":session-error:e:1", 1, 1), retryWarning(t, sid+":session-error:e:2", 1, 2),
				promptFailed(t, 60, turnFailureID, 1)}
		}, want: []want{{rule, retryPtr, 2}, {rule, terminalPtr, 3}}},
		{name: "a second unrelated turn fails with a new id", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60),
				retryWarning(t, turnFailureID, 1, 1), promptFailed(t, 60, turnFailureID, 2),
				promptReq(t, 61),
				retryWarning(t, "prompt-2:error", 1, 1), promptFailed(t, 61, "prompt-2:error", 2)}
		}},
		{name: "the terminal failure of a turn without retries", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60), promptFailed(t, 60, turnFailureID, 1)}
		}},
		{name: "a turn with retries that succeeds", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60), retryWarning(t, turnFailureID, 1, 1), promptDone(t, 60),
				promptReq(t, 61), promptFailed(t, 61, "prompt-2:error", 1)}
		}},
		{name: "a retry outside a prompt turn has no active turn failure", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{retryWarning(t, sid+":session-error:e:1", 1, 1),
				promptReq(t, 60), promptFailed(t, 60, turnFailureID, 1)}
		}},
		{name: "a model fallback notice is not a retry", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60),
				agent(t, update(M{"sessionUpdate": "session_info_update", "_meta": failureMeta(sid+":notice:e:1", 1, "warning", "unknown", "Claude Opus is overloaded; switched to Sonnet.")})),
				promptFailed(t, 60, turnFailureID, 1)}
		}},
		{name: "a reconnect warning is a retry whatever its category", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60), retryWarning(t, turnFailureID, 1, 1),
				agent(t, update(M{"sessionUpdate": "session_info_update", "_meta": failureMeta(sid+":notice:e:1", 1, "warning", "unknown", "Reconnecting to Claude, attempt 2 of 3.")})),
				promptFailed(t, 60, turnFailureID, 2)}
		}, want: []want{{rule, retryPtr, 2}}},
		{name: "queued prompts: the retries belong to the running turn", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60), promptReq(t, 61),
				retryWarning(t, turnFailureID, 1, 1), promptFailed(t, 60, turnFailureID, 2),
				retryWarning(t, "prompt-2:error", 1, 1), promptFailed(t, 61, "prompt-2:error", 2)}
		}},
		{name: "same id, the terminal revision does not rise", msgs: func(t *testing.T) []validate.Message {
			return []validate.Message{promptReq(t, 60),
				retryWarning(t, turnFailureID, 1, 1), retryWarning(t, turnFailureID, 2, 2),
				promptFailed(t, 60, turnFailureID, 2)}
		}, want: []want{{"session-failure-revision", "/result/_meta/jetbrains/air/sessionFailure/revision", 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			extra := tt.msgs(t)
			msgs := conv(t, extra...)
			first := msgs[len(msgs)-len(extra)].Seq
			var errs []validate.Finding
			for _, f := range run(t, msgs) {
				if f.Severity == validate.SeverityError {
					errs = append(errs, f)
				}
			}
			ok := len(errs) == len(tt.want)
			for i := 0; ok && i < len(errs); i++ {
				w, f := tt.want[i], errs[i]
				ok = f.Rule == w.rule && f.Pointer == w.pointer && f.Seq == first+uint64(w.seq) &&
					f.Section == validate.SectionFailure && f.Dir == "agent" && f.Message != ""
			}
			if !ok {
				t.Errorf("want %v; got:", tt.want)
				for _, f := range errs {
					t.Logf("  %s", f)
				}
			}
		})
	}
}
