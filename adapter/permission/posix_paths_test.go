//go:build !windows

package permission

import (
	"slices"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/testroot"
)

// These tests feed the package the POSIX paths of runs recorded on Linux
// (the goldens, /a/lib, /etc/app). On Windows the labels follow Node's
// win32 path module instead, where such a path has no drive and labels
// differ as they would in the reference there (paths_windows_test.go).

// TestGoldenPermissions replays each can_use_tool request of the recorded
// runs through Ask and Answer and compares the request params, the option
// list and the control_response with the reference's.
func TestGoldenPermissions(t *testing.T) {
	root := testroot.Root(t)
	for _, scenario := range permissionScenarios {
		for _, profile := range []string{"plain", "zed", "air"} {
			t.Run(scenario+"/"+profile, func(t *testing.T) {
				lines := goldentest.Read(t, goldentest.Path(t, scenario, profile))
				s := goldenSession(t, lines)
				frames := cliRequests(t, root, scenario, profile, "can_use_tool")
				perms, responses := goldenExchanges(lines, MethodRequestPermission)
				questions, _ := goldenExchanges(lines, MethodCreateElicitation)
				exchanges := append(perms, questions...)
				if len(frames) != len(exchanges) || len(frames) != len(responses) {
					t.Fatalf("%d can_use_tool frames, %d editor requests, %d control responses", len(frames), len(exchanges), len(responses))
				}
				for i, f := range frames {
					d := checkExchange(t, f, exchanges[i], responses[i], s)
					if d.Mode != exchanges[i].ModeUpdate {
						t.Errorf("mode %q, the reference published %q", d.Mode, exchanges[i].ModeUpdate)
					}
					if want := cassetteAnswer(t, root, scenario, profile, f.RequestID); want != nil {
						assertJSON(t, "control_response (cassette)", d.ControlResponse(f.RequestID), want)
					}
				}
			})
		}
	}
}

// TestOptions checks the option list per tool family and suggestion bundle
// (Choices per tool, Durable SDK suggestions).
func TestOptions(t *testing.T) {
	tests := []struct {
		name    string
		req     string
		session func(*Session)
		want    []string
	}{
		{"bash rule", `{"tool_name":"Bash","input":{"command":"npm test"},"tool_use_id":"t","permission_suggestions":[` + bashRule + `]}`, nil,
			[]string{"allow-once=Yes", "allow-with-updates=Yes, and don't ask again for npm test commands", "reject=No"}},
		{"matchedAskRule: no persistent choice", `{"tool_name":"Bash","input":{},"tool_use_id":"t","matched_ask_rule":{"source":"userSettings","tool_name":"Bash"},"permission_suggestions":[` + bashRule + `]}`, nil,
			[]string{"allow-once=Yes", "reject=No"}},
		{"suppress_always_allow_rule", `{"tool_name":"Bash","input":{},"tool_use_id":"t","suppress_always_allow_rule":true,"permission_suggestions":[` + bashRule + `]}`, nil,
			[]string{"allow-once=Yes", "reject=No"}},
		{"a mixed bundle with an unknown update is not labelled", `{"tool_name":"Bash","input":{},"tool_use_id":"t","permission_suggestions":[` + bashRule + `,{"type":"grantAll","destination":"session"}]}`, nil,
			[]string{"allow-once=Yes", "reject=No"}},
		{"bash prefix rules and directories", `{"tool_name":"Bash","input":{},"tool_use_id":"t","permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"git log:*"}],"behavior":"allow","destination":"localSettings"},{"type":"addDirectories","directories":["/a/lib"],"destination":"session"}]}`, nil,
			[]string{"allow-once=Yes", "allow-with-updates=Yes, and allow access to lib/ and git log commands", "reject=No"}},
		{"bash directories with equal basenames", `{"tool_name":"Bash","input":{},"tool_use_id":"t","permission_suggestions":[{"type":"addDirectories","directories":["/x/a/src","/x/b/src"],"destination":"session"}]}`, nil,
			[]string{"allow-once=Yes", "allow-with-updates=Yes, and always allow access to a/src/ and b/src/ from this project", "reject=No"}},
		{"defaultToNo puts the reject first", `{"tool_name":"Bash","input":{},"tool_use_id":"t","default_to_no":true,"permission_suggestions":[` + bashRule + `]}`, nil,
			[]string{"reject=No", "allow-once=Yes", "allow-with-updates=Yes, and don't ask again for npm test commands"}},
		{"read outside the project", `{"tool_name":"Read","input":{"file_path":"/etc/app/conf"},"tool_use_id":"t","permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Read","ruleContent":"/etc/app/**"}],"behavior":"allow","destination":"session"}]}`, nil,
			[]string{"allow-once=Yes", "allow-with-updates=Yes, allow reading from app/ during this session", "reject=No"}},
		{"read grant that does not cover the file", `{"tool_name":"Read","input":{"file_path":"/etc/other/conf"},"tool_use_id":"t","permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Read","ruleContent":"/etc/app/**"}],"behavior":"allow","destination":"session"}]}`, nil,
			[]string{"allow-once=Yes", "reject=No"}},
		{"edit of Claude's own settings", `{"tool_name":"Edit","input":{"file_path":"` + testCwd + `/.claude/settings.json"},"tool_use_id":"t","permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Edit","ruleContent":"` + testCwd + `/.claude/**"}],"behavior":"allow","destination":"session"}]}`, nil,
			[]string{"allow-once=Yes", "allow-with-updates=Yes, and allow Claude to edit its own settings for this session", "reject=No"}},
		{"an edit grant in localSettings is no session grant", `{"tool_name":"Write","input":{"file_path":"a.txt"},"tool_use_id":"t","permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"localSettings"}]}`, nil,
			[]string{"allow-once=Yes", "reject=No"}},
		{"web fetch", `{"tool_name":"WebFetch","input":{"url":"https://Example.COM/x"},"tool_use_id":"t"}`, nil,
			[]string{"allow-once=Yes", "allow-with-updates=Yes, and don't ask again for example.com", "reject=No"}},
		{"skill with arguments", `{"tool_name":"Skill","input":{"skill":"commit -m fix"},"tool_use_id":"t"}`, nil,
			[]string{"allow-once=Yes", "allow-skill-exact=Yes, and don't ask again for commit -m fix", "allow-skill-prefix=Yes, and don't ask again for commit:* commands", "reject=No"}},
		{"enter plan mode", `{"tool_name":"EnterPlanMode","input":{},"tool_use_id":"t"}`, nil,
			[]string{"allow-once=Yes, enter plan mode", "reject=No, start implementing now"}},
		{"exit plan mode with a plan", `{"tool_name":"ExitPlanMode","input":{"plan":"# Plan"},"tool_use_id":"t"}`, func(s *Session) { s.ContextUsed, s.ContextWindow = 425, 1000 },
			[]string{"exit-plan-default=Yes, manually approve edits", "exit-plan-clear-auto=Yes, clear context (43% used) and use auto mode", "exit-plan-auto=Yes, and use auto mode", "exit-plan-bypass=Yes, and bypass permissions", "reject=No, keep planning"}},
		{"exit plan mode after bypass", `{"tool_name":"ExitPlanMode","input":{"plan":"p"},"tool_use_id":"t"}`, func(s *Session) { s.PrePlanMode = "bypassPermissions" },
			[]string{"exit-plan-default=Yes, manually approve edits", "exit-plan-clear-bypass=Yes, clear context and bypass permissions", "exit-plan-bypass=Yes, and bypass permissions", "exit-plan-auto=Yes, and use auto mode", "reject=No, keep planning"}},
		{"exit plan mode without elevated modes", `{"tool_name":"ExitPlanMode","input":{"plan":"p"},"tool_use_id":"t"}`, func(s *Session) { s.Modes = []string{"default", "acceptEdits", "plan"}; s.NoContextReset = true },
			[]string{"exit-plan-default=Yes, manually approve edits", "exit-plan-accept-edits=Yes, auto-accept edits", "reject=No, keep planning"}},
		{"sandbox host rule", `{"tool_name":"SandboxNetworkAccess","input":{"host":"registry.npmjs.org"},"tool_use_id":"t","permission_suggestions":[{"type":"addRules","rules":[{"toolName":"SandboxNetworkAccess","ruleContent":"registry.npmjs.org"}],"behavior":"allow","destination":"localSettings"}]}`, nil,
			[]string{"allow-once=Yes", "allow-with-updates=Yes, and don't ask again for registry.npmjs.org", "reject=No"}},
		{"mcp tool with its allow suggestion", `{"tool_name":"mcp__deploy__create","display_name":"create","input":{},"tool_use_id":"t","permission_suggestions":[{"type":"addRules","rules":[{"toolName":"mcp__deploy__create"}],"behavior":"allow","destination":"localSettings"}]}`, nil,
			[]string{"allow-once=Yes", "allow-with-updates=Yes, and don't ask again for create commands", "reject=No"}},
		{"mcp tool with a narrower suggestion", `{"tool_name":"mcp__deploy__create","input":{},"tool_use_id":"t","permission_suggestions":[{"type":"addRules","rules":[{"toolName":"mcp__deploy__create","ruleContent":"x"}],"behavior":"allow","destination":"localSettings"}]}`, nil,
			[]string{"allow-once=Yes", "reject=No"}},
		{"other tools get a whole-tool rule", `{"tool_name":"WebSearch","input":{},"tool_use_id":"t"}`, nil,
			[]string{"allow-once=Yes", "allow-with-updates=Yes, and don't ask again for WebSearch commands", "reject=No"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testSession()
			if tt.session != nil {
				tt.session(&s)
			}
			if got := optionSummary(ask(t, tt.req, s).Options); !slices.Equal(got, tt.want) {
				t.Errorf("options\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
