package usage

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/airwire/airwire/adapter/mdtext"
)

// The `/usage` slash command, as the reference adapter shows it: Claude
// Code answers it itself with a plain-text summary; the agent asks for the
// structured usage (`get_usage`) and shows it as Markdown in its place.
// An answer whose fields the Markdown reads are not all well formed keeps
// Claude Code's text (CommandMarkdown's false).

// IsCommand reports a prompt text that is exactly `/usage`.
func IsCommand(text string) bool {
	return strings.TrimFunc(text, unicode.IsSpace) == "/usage"
}

type usageWindow struct {
	Utilization *float64 `json:"utilization"`
	ResetsAt    *string  `json:"resets_at"`
}

type modelWindow struct {
	DisplayName *string `json:"display_name"`
	usageWindow
}

type behaviorPeriod struct {
	RequestCount *float64 `json:"request_count"`
	SessionCount *float64 `json:"session_count"`
	MCPServers   *[]struct {
		Name *string  `json:"name"`
		Pct  *float64 `json:"pct"`
	} `json:"mcp_servers"`
	Recommendations *[]struct {
		Key    *string  `json:"key"`
		Pct    *float64 `json:"pct"`
		Title  *string  `json:"title"`
		Detail *string  `json:"detail"`
	} `json:"recommendations"`
}

type modelUsage struct {
	Input      *float64 `json:"inputTokens"`
	Output     *float64 `json:"outputTokens"`
	CacheRead  *float64 `json:"cacheReadInputTokens"`
	CacheWrite *float64 `json:"cacheCreationInputTokens"`
}

// usageAnswer is the part of Claude Code's get_usage answer the Markdown
// reads; a key that must be there but may be null is a RawMessage.
type usageAnswer struct {
	Session *struct {
		Cost       *float64              `json:"total_cost_usd"`
		APIMs      *float64              `json:"total_api_duration_ms"`
		Ms         *float64              `json:"total_duration_ms"`
		ModelUsage map[string]modelUsage `json:"model_usage"`
	} `json:"session"`
	SubscriptionType    json.RawMessage `json:"subscription_type"`
	RateLimitsAvailable *bool           `json:"rate_limits_available"`
	RateLimits          json.RawMessage `json:"rate_limits"`
	Behaviors           json.RawMessage `json:"behaviors"`
}

type rateLimits struct {
	FiveHour    *usageWindow    `json:"five_hour"`
	SevenDay    *usageWindow    `json:"seven_day"`
	OAuthApps   *usageWindow    `json:"seven_day_oauth_apps"`
	Opus        *usageWindow    `json:"seven_day_opus"`
	Sonnet      *usageWindow    `json:"seven_day_sonnet"`
	ModelScoped *[]modelWindow  `json:"model_scoped"`
	ExtraUsage  json.RawMessage `json:"extra_usage"`
}

type behaviors struct {
	Day  *behaviorPeriod `json:"day"`
	Week *behaviorPeriod `json:"week"`
}

// CommandMarkdown is the Markdown of Claude Code's get_usage answer raw;
// false when the answer is not one it can read.
func CommandMarkdown(raw json.RawMessage, loc *time.Location) (string, bool) {
	var generic any
	var a usageAnswer
	if json.Unmarshal(raw, &generic) != nil || !validUsage(generic) || json.Unmarshal(raw, &a) != nil {
		return "", false
	}
	var sub *string
	var limits *rateLimits
	var beh *behaviors
	_ = json.Unmarshal(a.SubscriptionType, &sub)
	_ = json.Unmarshal(a.RateLimits, &limits)
	_ = json.Unmarshal(a.Behaviors, &beh)
	lines := []string{"## Usage"}
	if sub != nil && *sub != "" {
		lines = append(lines, "", "> Claude "+mdtext.Escape(*sub)+" subscription usage")
	}
	if *a.RateLimitsAvailable && limits != nil {
		lines = append(lines, limitLines(limits, loc)...)
	}
	lines = append(lines, sessionLines(a)...)
	if beh != nil {
		lines = append(lines, "", "---", "", "### What’s using your limits?", "", "> Approximate, overlapping measures · this machine only · excludes claude.ai")
		lines = appendContributions(lines, "Last 24h", beh.Day)
		lines = appendContributions(lines, "Last 7d", beh.Week)
	}
	return strings.Join(lines, "\n"), true
}

func limitLines(l *rateLimits, loc *time.Location) []string {
	var out []string
	out = appendLimit(out, "5-hour limit", l.FiveHour, loc)
	out = appendLimit(out, "Weekly · all models", l.SevenDay, loc)
	var scoped []modelWindow
	if l.ModelScoped != nil {
		scoped = *l.ModelScoped
	}
	for _, m := range scoped {
		out = appendLimit(out, "Weekly · "+*m.DisplayName, &m.usageWindow, loc)
	}
	if len(scoped) == 0 {
		out = appendLimit(out, "Weekly · Opus", l.Opus, loc)
		out = appendLimit(out, "Weekly · Sonnet", l.Sonnet, loc)
	}
	if len(out) == 0 {
		return nil
	}
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return append([]string{"", "### Limits", ""}, out...)
}

func appendLimit(lines []string, label string, w *usageWindow, loc *time.Location) []string {
	if w == nil || w.Utilization == nil {
		return lines
	}
	return append(lines, "**"+mdtext.Escape(label)+"** — **"+jsNumber(*w.Utilization)+"%**"+formatReset(w.ResetsAt, loc), "", "`"+usageBar(*w.Utilization)+"`", "")
}

func sessionLines(a usageAnswer) []string {
	var in, out, read, write float64
	for _, m := range a.Session.ModelUsage {
		in, out, read, write = in+*m.Input, out+*m.Output, read+*m.CacheRead, write+*m.CacheWrite
	}
	return []string{"", "---", "", "### This session", "", "| Cost | API time | Active |", "|:--|:--|:--|",
		"| $" + toFixed2(*a.Session.Cost) + " | " + formatDuration(*a.Session.APIMs) + " | " + formatDuration(*a.Session.Ms) + " |",
		"", "| Breakdown | Tokens |", "|:--|--:|",
		"| Input | " + formatCount(in) + " |", "| Output | " + formatCount(out) + " |",
		"| Cache read | " + formatCount(read) + " |", "| Cache write | " + formatCount(write) + " |"}
}

// appendContributions lists a period's requests and sessions, its
// recommendations in Claude Code's order, and its three largest MCP
// servers.
func appendContributions(lines []string, label string, p *behaviorPeriod) []string {
	lines = append(lines, "", "**"+label+"** · "+jsNumber(*p.RequestCount)+" requests · "+jsNumber(*p.SessionCount)+" sessions")
	if p.Recommendations != nil && len(*p.Recommendations) > 0 {
		lines = append(lines, "")
		for _, r := range *p.Recommendations {
			detail := ""
			if r.Detail != nil && *r.Detail != "" {
				detail = " · " + mdtext.Escape(*r.Detail)
			}
			lines = append(lines, "- **"+jsNumber(*r.Pct)+"%** "+mdtext.Escape(*r.Title)+detail)
		}
	}
	servers := slices.Clone(*p.MCPServers)
	if len(servers) == 0 {
		return lines
	}
	slices.SortStableFunc(servers, func(a, b struct {
		Name *string  `json:"name"`
		Pct  *float64 `json:"pct"`
	}) int {
		return cmpFloat(*b.Pct, *a.Pct)
	})
	lines = append(lines, "", "| MCP server | Usage |", "|:--|--:|")
	for _, s := range servers[:min(3, len(servers))] {
		lines = append(lines, "| "+mdtext.Escape(*s.Name)+" | `"+usageBar(*s.Pct)+"` "+jsNumber(*s.Pct)+"% |")
	}
	return lines
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// usageBar is a bar of 20 cells for a percentage; any use shows a cell.
func usageBar(percent float64) string {
	const cells = 20
	p := math.Max(0, math.Min(100, percent))
	filled := 0
	if p != 0 {
		filled = max(1, int(jsRound(p/100*cells)))
	}
	return strings.Repeat("█", filled) + strings.Repeat("░", cells-filled)
}

// formatDuration is milliseconds as "Ns", "Nm" or "Nm Ns".
func formatDuration(ms float64) string {
	s := int64(math.Max(0, jsRound(ms/1000)))
	if s < 60 {
		return strconv.FormatInt(s, 10) + "s"
	}
	if s%60 == 0 {
		return strconv.FormatInt(s/60, 10) + "m"
	}
	return strconv.FormatInt(s/60, 10) + "m " + strconv.FormatInt(s%60, 10) + "s"
}

// formatCount is a count in English compact notation with at most one
// fraction digit (999, 1.2K, 15M), as Intl.NumberFormat gives it.
func formatCount(v float64) string {
	units := []string{"", "K", "M", "B", "T"}
	i := 0
	for i < len(units)-1 && math.Abs(v) >= 1000 {
		v /= 1000
		i++
	}
	r := jsRound(v*10) / 10
	if math.Abs(r) >= 1000 && i < len(units)-1 {
		r /= 1000
		i++
	}
	if i == 0 && v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(r, 'f', -1, 64) + units[i]
}

// formatReset is " · Resets <date>" for a window's reset time, in loc.
func formatReset(v *string, loc *time.Location) string {
	if v == nil || *v == "" {
		return ""
	}
	t, err := time.Parse(time.RFC3339Nano, *v)
	if err != nil {
		return " · Resets " + mdtext.Escape(*v)
	}
	return " · Resets " + t.In(loc).Format("Jan 2, 3:04 PM MST")
}

// toFixed2 is Number.prototype.toFixed(2) of a non-negative number: the
// nearest hundredth, the larger one on an exact tie.
func toFixed2(v float64) string {
	x := new(big.Float).SetPrec(200).SetFloat64(v)
	x.Mul(x, big.NewFloat(100))
	n, _ := x.Int(nil) // floor for v ≥ 0
	frac := new(big.Float).SetPrec(200).Sub(x, new(big.Float).SetInt(n))
	if frac.Cmp(big.NewFloat(0.5)) >= 0 {
		n.Add(n, big.NewInt(1))
	}
	s := n.String()
	for len(s) < 3 {
		s = "0" + s
	}
	return s[:len(s)-2] + "." + s[len(s)-2:]
}

// jsRound is Math.round: halves go up.
func jsRound(v float64) float64 { return math.Floor(v + 0.5) }

// jsNumber is a number as JavaScript prints it in a template.
func jsNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// validUsage checks the fields the Markdown reads as the reference does
// (its zod schema): counts are finite and not negative, percentages at
// most 100, a nullable key must still be there; other keys may be
// anything.
func validUsage(v any) bool {
	o, ok := v.(map[string]any)
	if !ok {
		return false
	}
	sess, ok := o["session"].(map[string]any)
	if !ok || !fields(sess, isCount, "total_cost_usd", "total_api_duration_ms", "total_duration_ms") {
		return false
	}
	models, ok := sess["model_usage"].(map[string]any)
	if !ok {
		return false
	}
	for _, m := range models {
		mo, ok := m.(map[string]any)
		if !ok || !fields(mo, isCount, "inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens") {
			return false
		}
	}
	if _, ok := o["rate_limits_available"].(bool); !ok {
		return false
	}
	return has(o, "subscription_type", nullable(str)) && has(o, "rate_limits", nullable(validLimits)) &&
		has(o, "behaviors", nullable(func(v any) bool {
			b, ok := v.(map[string]any)
			return ok && has(b, "day", validPeriod) && has(b, "week", validPeriod)
		}))
}

func validLimits(v any) bool {
	l, ok := v.(map[string]any)
	if !ok {
		return false
	}
	window := func(v any) bool {
		w, ok := v.(map[string]any)
		return ok && has(w, "utilization", nullable(percent)) && has(w, "resets_at", nullable(str))
	}
	for _, k := range []string{"five_hour", "seven_day", "seven_day_oauth_apps", "seven_day_opus", "seven_day_sonnet"} {
		if !optional(l, k, nullable(window)) {
			return false
		}
	}
	extra := func(v any) bool {
		e, ok := v.(map[string]any)
		return ok && has(e, "is_enabled", boolean) && has(e, "monthly_limit", nullable(isCount)) &&
			has(e, "used_credits", nullable(isCount)) && has(e, "utilization", nullable(percent)) && optional(e, "currency", nullable(str))
	}
	return optional(l, "model_scoped", list(func(v any) bool {
		m, ok := v.(map[string]any)
		return ok && has(m, "display_name", str) && window(m)
	})) && optional(l, "extra_usage", nullable(extra))
}

func validPeriod(v any) bool {
	p, ok := v.(map[string]any)
	if !ok || !fields(p, isCount, "request_count", "session_count") {
		return false
	}
	return has(p, "mcp_servers", list(func(v any) bool {
		s, ok := v.(map[string]any)
		return ok && has(s, "name", str) && has(s, "pct", percent)
	})) && optional(p, "recommendations", list(func(v any) bool {
		r, ok := v.(map[string]any)
		return ok && has(r, "key", str) && has(r, "pct", percent) && has(r, "title", str) && optional(r, "detail", str)
	}))
}

func fields(o map[string]any, check func(any) bool, keys ...string) bool {
	for _, k := range keys {
		if !has(o, k, check) {
			return false
		}
	}
	return true
}

// has: the key is there and its value passes check.
func has(o map[string]any, k string, check func(any) bool) bool {
	v, ok := o[k]
	return ok && check(v)
}

// optional: the key is absent or its value passes check.
func optional(o map[string]any, k string, check func(any) bool) bool {
	v, ok := o[k]
	return !ok || check(v)
}

func nullable(check func(any) bool) func(any) bool {
	return func(v any) bool { return v == nil || check(v) }
}

func list(check func(any) bool) func(any) bool {
	return func(v any) bool {
		a, ok := v.([]any)
		return ok && !slices.ContainsFunc(a, func(e any) bool { return !check(e) })
	}
}

func isCount(v any) bool {
	n, ok := v.(float64)
	return ok && n >= 0 && !math.IsInf(n, 0)
}

func percent(v any) bool { return isCount(v) && v.(float64) <= 100 }

func str(v any) bool {
	_, ok := v.(string)
	return ok
}

func boolean(v any) bool {
	_, ok := v.(bool)
	return ok
}
