//go:build !windows

// The comparison runs the reference's modules under the Node that make deps
// installs, a Linux build: the Windows test binary, run under Wine, cannot
// start it. The Markdown code has no Windows-specific path.

package usage

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/refjs"
)

// The `/usage` Markdown is the reference adapter's (dist/usage-markdown.js):
// this test runs its parse and format functions under Node, in UTC, on the
// same answers and compares.
const usageScript = `
import { pathToFileURL } from "node:url";
const { parseUsageResponse, formatUsageResponse } = await import(pathToFileURL(process.argv[1]).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
console.log(JSON.stringify(JSON.parse(input).map((answer) => {
	const usage = parseUsageResponse(answer);
	return usage ? formatUsageResponse(usage) : null;
})));
`

const recordedAnswer = `{"session":{"total_cost_usd":0,"total_api_duration_ms":0,"total_duration_ms":2115,"total_lines_added":0,"total_lines_removed":0,"model_usage":{}},"subscription_type":null,"rate_limits_available":false,"rate_limits":null,"behaviors":null}`

const richAnswer = `{"session":{"total_cost_usd":12.125,"total_api_duration_ms":59499,"total_duration_ms":125000,
 "model_usage":{"a":{"inputTokens":1234,"outputTokens":999950,"cacheReadInputTokens":15150,"cacheCreationInputTokens":999},
                "b":{"inputTokens":1000000000,"outputTokens":50,"cacheReadInputTokens":0,"cacheCreationInputTokens":1}}},
 "subscription_type":"max_*20x*","rate_limits_available":true,
 "rate_limits":{"five_hour":{"utilization":0.4,"resets_at":"2026-12-05T23:30:00Z"},"seven_day":{"utilization":100,"resets_at":"not a date"},
   "seven_day_opus":{"utilization":null,"resets_at":null},"seven_day_sonnet":{"utilization":12.5,"resets_at":null},
   "extra_usage":{"is_enabled":false,"monthly_limit":null,"used_credits":null,"utilization":null}},
 "behaviors":{"day":{"request_count":12,"session_count":3,"mcp_servers":[{"name":"a|b","pct":5},{"name":"c","pct":60},{"name":"d","pct":60},{"name":"e","pct":1}],
   "recommendations":[{"key":"k","pct":40,"title":"Use *less*","detail":"line1\nline2"},{"key":"j","pct":2,"title":"t"}]},
   "week":{"request_count":0,"session_count":0,"mcp_servers":[]}}}`

func usageCases() []string {
	scoped := strings.Replace(richAnswer, `"extra_usage"`, `"model_scoped":[{"display_name":"Opus <4>","utilization":99.96,"resets_at":null}],"extra_usage"`, 1)
	return []string{
		recordedAnswer, richAnswer, scoped,
		strings.Replace(recordedAnswer, `"total_cost_usd":0`, `"total_cost_usd":1.005`, 1),
		strings.Replace(recordedAnswer, `"total_duration_ms":2115`, `"total_duration_ms":59500`, 1),
		strings.Replace(recordedAnswer, `"subscription_type":null,`, ``, 1),
		strings.Replace(richAnswer, `"utilization":100`, `"utilization":100.5`, 1),
		strings.Replace(recordedAnswer, `"total_cost_usd":0`, `"total_cost_usd":-1`, 1),
		strings.Replace(richAnswer, `,"resets_at":null}`, `}`, 1),
		strings.Replace(richAnswer, `,"mcp_servers":[]`, ``, 1),
		`[]`, `null`,
	}
}

func TestCommandMarkdownIsTheReferences(t *testing.T) {
	cases := usageCases()
	out := refjs.Run(t, usageScript, "usage-markdown.js", []byte("["+strings.Join(cases, ",")+"]"), "TZ=UTC")
	var want []*string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	valid := 0
	for i, c := range cases {
		got, ok := CommandMarkdown(json.RawMessage(c), time.UTC)
		switch {
		case ok != (want[i] != nil):
			t.Errorf("case %d: ok %v, the reference's %v", i, ok, want[i] != nil)
		case ok && got != *want[i]:
			t.Errorf("case %d:\n got %q\nwant %q", i, got, *want[i])
		}
		if ok {
			valid++
		}
	}
	if valid < 5 {
		t.Errorf("only %d cases were valid answers", valid)
	}
}
