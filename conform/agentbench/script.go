package agentbench

import (
	"fmt"
	"maps"
	"strings"

	"github.com/airwire/airwire/conform/scenario"
)

// StreamScript is a fake CLI script of turns turns, each the answer to one
// prompt: one assistant message with one text block that streams as deltas
// text_delta events, framed as scenario.Builder frames a text message (the
// real CLI's order: message_start, content_block_start, the deltas, the
// consolidated assistant frame, content_block_stop, message_delta,
// message_stop). The fake CLI adds the turn's opening frames, the result
// and idle. The consolidated text is the deltas joined, so an adapter has
// no un-streamed tail to send.
func StreamScript(turns, deltas int) (*scenario.CLIScript, error) {
	b := scenario.NewBuilder("")
	script := &scenario.CLIScript{}
	for range turns {
		steps, err := streamTurn(b, deltas)
		if err != nil {
			return nil, err
		}
		script.Turns = append(script.Turns, scenario.Turn{Steps: steps})
	}
	return script, nil
}

// Delta is the text of the i-th delta of a StreamScript turn.
func Delta(i int) string { return fmt.Sprintf("w%d ", i) }

func streamTurn(b *scenario.Builder, deltas int) ([]scenario.Step, error) {
	var full strings.Builder
	for i := range deltas {
		full.WriteString(Delta(i))
	}
	text := full.String()
	acts := b.Message(scenario.AssistantStep{Content: []scenario.Block{{Text: &text}}})
	var steps []scenario.Step
	expanded := false
	for _, a := range acts {
		if a.Kind != scenario.ActEmit {
			return nil, fmt.Errorf("scenario.Builder made a non-emit action %v for a text message", a.Kind)
		}
		if !isTextDelta(a.Frame) {
			steps = append(steps, scenario.Step{Emit: a.Frame})
			continue
		}
		if expanded { // the builder's own split of the text, replaced below
			continue
		}
		expanded = true
		for i := range deltas {
			steps = append(steps, scenario.Step{Emit: withDeltaText(a.Frame, Delta(i))})
		}
	}
	if !expanded {
		return nil, fmt.Errorf("scenario.Builder made no text_delta for a text message")
	}
	return steps, nil
}

func isTextDelta(frame map[string]any) bool {
	ev, _ := frame["event"].(map[string]any)
	delta, _ := ev["delta"].(map[string]any)
	return frame["type"] == "stream_event" && ev["type"] == "content_block_delta" && delta["type"] == "text_delta"
}

// withDeltaText copies a text_delta stream_event frame with another text.
func withDeltaText(frame map[string]any, text string) map[string]any {
	ev := maps.Clone(frame["event"].(map[string]any))
	delta := maps.Clone(ev["delta"].(map[string]any))
	delta["text"] = text
	ev["delta"] = delta
	f := maps.Clone(frame)
	f["event"] = ev
	return f
}
