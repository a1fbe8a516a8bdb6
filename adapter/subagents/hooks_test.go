package subagents

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
)

func ownHook(context.Context, *claude.HookCallback, claude.Reply)     {}
func subHook(context.Context, *claude.HookCallback, claude.Reply)     {}
func previewHook(context.Context, *claude.HookCallback, claude.Reply) {}

// hookLayout numbers the hooks as the CLI's initialize does (events, then
// matchers, then funcs; an event without matchers left out) and names each
// func: "PreToolUse[sub hook_3 | Edit|Write: preview hook_4]".
func hookLayout(events []claude.HookEvent) string {
	names := map[uintptr]string{
		reflect.ValueOf(ownHook).Pointer(): "own", reflect.ValueOf(subHook).Pointer(): "sub",
		reflect.ValueOf(previewHook).Pointer(): "preview",
	}
	var out []string
	next := 0
	for _, e := range events {
		if len(e.Matchers) == 0 {
			continue
		}
		var ms []string
		for _, m := range e.Matchers {
			var fs []string
			for _, f := range m.Hooks {
				fs = append(fs, fmt.Sprintf("%s hook_%d", names[reflect.ValueOf(f).Pointer()], next))
				next++
			}
			prefix := ""
			if m.Matcher != "" {
				prefix = m.Matcher + ": "
			}
			ms = append(ms, prefix+strings.Join(fs, ", "))
		}
		out = append(out, e.Event+"["+strings.Join(ms, " | ")+"]")
	}
	return strings.Join(out, " ")
}

// The hooks and their ids as the reference registers them: a v2 client gets
// the Edit|Write preview hook on PreToolUse, after the subagent hook.
func TestSessionHooksOrder(t *testing.T) {
	h := HookFuncs{Own: ownHook, Sub: subHook, Preview: previewHook,
		OwnEvents: []string{"PostToolUse", "PostModelSwitch", "PostCompact", "TaskCreated", "TaskCompleted"}}
	for _, c := range []struct {
		name   string
		client caps.Client
		want   string
	}{
		{"v1", caps.Client{},
			"PostToolUse[own hook_0] PostModelSwitch[own hook_1] PostCompact[own hook_2] TaskCreated[own hook_3] TaskCompleted[own hook_4]"},
		{"v1 subagents", caps.Client{Subagents: true},
			"SubagentStart[sub hook_0] SubagentStop[sub hook_1] PostToolUseFailure[sub hook_2] PreToolUse[sub hook_3] " +
				"PostToolUse[sub hook_4, own hook_5] PostModelSwitch[sub hook_6, own hook_7] PostCompact[own hook_8] " +
				"TaskCreated[own hook_9] TaskCompleted[own hook_10]"},
		{"v2 subagents (goldens/*/plain-v2.golden)", caps.Client{V2: true, Subagents: true},
			"SubagentStart[sub hook_0] SubagentStop[sub hook_1] PostToolUseFailure[sub hook_2] " +
				"PreToolUse[sub hook_3 | Edit|Write: preview hook_4] PostToolUse[sub hook_5, own hook_6] " +
				"PostModelSwitch[sub hook_7, own hook_8] PostCompact[own hook_9] TaskCreated[own hook_10] TaskCompleted[own hook_11]"},
		{"v2", caps.Client{V2: true},
			"PreToolUse[Edit|Write: preview hook_0] PostToolUse[own hook_1] PostModelSwitch[own hook_2] " +
				"PostCompact[own hook_3] TaskCreated[own hook_4] TaskCompleted[own hook_5]"},
	} {
		if got := hookLayout(sessionHooks(c.client, h)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
