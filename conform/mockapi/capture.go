package mockapi

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/airwire/airwire/internal/jsonwalk"
)

// validateCapture checks a turn's Capture: names that a placeholder can
// write, and expressions that compile and have a group to take.
func validateCapture(c map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(c)) {
		if !captureName(name) {
			return fmt.Errorf("capture: name %q: want a letter, then letters, digits or _", name)
		}
		re, err := regexp.Compile(c[name])
		if err != nil {
			return fmt.Errorf("capture %s: %v", name, err)
		}
		if re.NumSubexp() < 1 {
			return fmt.Errorf("capture %s: %q has no group (…) to take the value from", name, c[name])
		}
	}
	return nil
}

// captureName reports whether name may name a Turn.Capture value (it is
// written {{name}}): a letter, then letters, digits or _.
func captureName(name string) bool {
	for i, r := range name {
		letter := r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '_')) {
			return false
		}
	}
	return name != ""
}

// capture evaluates c on u: the first group of each expression's first
// match in u's text, else in its reminders, else in the messages after it.
// It fails naming the first expression that finds nothing.
func capture(c map[string]string, u lastUser) (map[string]string, error) {
	out := make(map[string]string, len(c))
	for _, name := range slices.Sorted(maps.Keys(c)) {
		re := regexp.MustCompile(c[name]) // validated
		var m []string
		for _, text := range []string{u.Text, u.Reminders, u.After} {
			if m = re.FindStringSubmatch(text); m != nil {
				break
			}
		}
		if m == nil {
			return nil, fmt.Errorf("capture %s: %q finds nothing in the last user message", name, c[name])
		}
		out[name] = m[1]
	}
	return out, nil
}

// fill returns blocks with every {{name}} of a captured name replaced by its
// value, in texts, thinking and tool inputs (deeply); blocks is not changed.
func fill(blocks []Block, vals map[string]string) []Block {
	if len(vals) == 0 {
		return blocks
	}
	out := make([]Block, len(blocks))
	for i, b := range blocks {
		b.Text, b.Thinking = fillString(b.Text, vals), fillString(b.Thinking, vals)
		if b.ToolUse != nil {
			tu := *b.ToolUse
			tu.Input, _ = jsonwalk.MapStrings(tu.Input, func(s string) string { return fillString(s, vals) }).(map[string]any)
			b.ToolUse = &tu
		}
		out[i] = b
	}
	return out
}

func fillString(s string, vals map[string]string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	for name, val := range vals {
		s = strings.ReplaceAll(s, "{{"+name+"}}", val)
	}
	return s
}
