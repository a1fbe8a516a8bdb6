package fakecheck

import (
	"fmt"
	"sort"
	"strings"
)

// nestedKeys are the keys whose object values have their own field sets
// compared (one level down).
var nestedKeys = []string{"message", "event", "request", "response"}

// Label names a frame by its type and what tells frames of one type apart:
// subtype, stream event type, lifecycle or session state, control request
// subtype (and the hook event of a hook_callback), and for user frames
// whether it is the echo of a prompt or a tool result.
func Label(f map[string]any) string {
	typ, _ := f["type"].(string)
	switch typ {
	case "system":
		sub, _ := f["subtype"].(string)
		if sub == "session_state_changed" {
			return fmt.Sprintf("system:%s:%v", sub, f["state"])
		}
		return "system:" + sub
	case "stream_event":
		ev, _ := f["event"].(map[string]any)
		return fmt.Sprintf("stream_event:%v", ev["type"])
	case "command_lifecycle":
		return fmt.Sprintf("command_lifecycle:%v", f["state"])
	case "result":
		return fmt.Sprintf("result:%v", f["subtype"])
	case "control_request":
		req, _ := f["request"].(map[string]any)
		if req["subtype"] == "hook_callback" {
			in, _ := req["input"].(map[string]any)
			return fmt.Sprintf("control_request:hook_callback:%v", in["hook_event_name"])
		}
		return fmt.Sprintf("control_request:%v", req["subtype"])
	case "user":
		if f["isReplay"] == true {
			return "user:echo"
		}
		m, _ := f["message"].(map[string]any)
		if c, ok := m["content"].([]any); ok && len(c) > 0 {
			if b, ok := c[0].(map[string]any); ok && b["type"] == "tool_result" {
				return "user:tool_result"
			}
		}
		return "user"
	}
	return typ
}

// Fields is the field set of a frame: its top-level keys and, for the
// nested objects of nestedKeys, "key.sub" for each of their keys.
func Fields(f map[string]any) []string {
	var out []string
	for k, v := range f {
		out = append(out, k)
		for _, n := range nestedKeys {
			if k != n {
				continue
			}
			if m, ok := v.(map[string]any); ok {
				for sub := range m {
					out = append(out, k+"."+sub)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// Shapes maps each label to the union of the field sets of its frames.
func Shapes(frames []map[string]any) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, f := range frames {
		l := Label(f)
		if out[l] == nil {
			out[l] = map[string]bool{}
		}
		for _, k := range Fields(f) {
			out[l][k] = true
		}
	}
	return out
}

// Order is the sequence of labels of frames, with runs of one label
// collapsed (how many deltas a block streams in depends on the model API,
// not on the CLI).
func Order(frames []map[string]any) []string {
	var out []string
	for _, f := range frames {
		l := Label(f)
		if len(out) > 0 && out[len(out)-1] == l {
			continue
		}
		out = append(out, l)
	}
	return out
}

// Difference is one way the fake's frames differ from the real CLI's.
type Difference struct {
	// Label is the frame kind ("" for an order difference).
	Label string
	// Field is the key that only one side has ("" for a missing kind or an
	// order difference).
	Field string
	// RealOnly is true when only the real CLI has it.
	RealOnly bool
	// Detail is a human-readable description.
	Detail string
}

func (d Difference) key() string {
	side := "fake-only"
	if d.RealOnly {
		side = "real-only"
	}
	return d.Label + " " + d.Field + " " + side
}

// CompareShapes lists the field-set differences between the real CLI's and
// the fake's frames, for the labels both wrote, and the labels only one
// wrote.
func CompareShapes(real, fake []map[string]any) []Difference {
	rs, fs := Shapes(real), Shapes(fake)
	var out []Difference
	for l, rk := range rs {
		fk, ok := fs[l]
		if !ok {
			out = append(out, Difference{Label: l, RealOnly: true, Detail: "only the real CLI wrote " + l})
			continue
		}
		for k := range rk {
			if !fk[k] {
				out = append(out, Difference{Label: l, Field: k, RealOnly: true, Detail: l + ": field " + k + " only from the real CLI"})
			}
		}
		for k := range fk {
			if !rk[k] {
				out = append(out, Difference{Label: l, Field: k, Detail: l + ": field " + k + " only from the fake"})
			}
		}
	}
	for l := range fs {
		if _, ok := rs[l]; !ok {
			out = append(out, Difference{Label: l, Detail: "only the fake wrote " + l})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key() < out[j].key() })
	return out
}

// CompareOrder reports whether two label sequences differ, with a
// side-by-side listing when they do.
func CompareOrder(real, fake []string) (string, bool) {
	if strings.Join(real, " ") == strings.Join(fake, " ") {
		return "", false
	}
	var b strings.Builder
	n := max(len(real), len(fake))
	for i := 0; i < n; i++ {
		var r, f string
		if i < len(real) {
			r = real[i]
		}
		if i < len(fake) {
			f = fake[i]
		}
		mark := " "
		if r != f {
			mark = "≠"
		}
		fmt.Fprintf(&b, "%s %-48s %s\n", mark, r, f)
	}
	return b.String(), true
}
