package agentinfo

import (
	"encoding/json"
	"unicode"
	"unicode/utf8"

	"github.com/airwire/airwire/internal/lazyre"
)

// StatusUpdateMethod is the notification that pushes the agent's identity
// (agentCapabilities._meta.authStatus announces it).
const StatusUpdateMethod = "_auth/status_update"

// ProbeArgs are the CLI arguments of the identity probe
// (`cli:run spawn {"argv":["auth","status","--json"]}` in the goldens).
var ProbeArgs = []string{"auth", "status", "--json"}

// Kinds of AuthStatus.
const (
	KindNone     = "none"     // known to be logged out
	KindAPIKey   = "api_key"  // an Anthropic API key
	KindAccount  = "account"  // a claude.ai subscription login
	KindGateway  = "gateway"  // a model gateway owns the credentials
	KindExternal = "external" // a cloud backend (Bedrock, Vertex, …)
)

// AuthStatus is the `authStatus` payload.
type AuthStatus struct {
	Kind    string   `json:"kind"`
	Label   string   `json:"label"`
	Detail  string   `json:"detail,omitempty"`
	Account *Account `json:"account,omitempty"`
}

// Account identifies a subscription login.
type Account struct {
	Plan         string `json:"plan,omitempty"`
	Email        string `json:"email,omitempty"`
	Organization string `json:"organization,omitempty"`
}

// Notification returns the params of StatusUpdateMethod.
func (a AuthStatus) Notification() json.RawMessage {
	out, _ := json.Marshal(map[string]AuthStatus{"authStatus": a})
	return out
}

// NotLoggedIn is the status of a known logout.
func NotLoggedIn() AuthStatus { return AuthStatus{Kind: KindNone, Label: "Not logged in"} }

// Gateway is the status under ACP gateway authentication; detail is the
// host of baseURL when there is one.
func Gateway(host string) AuthStatus {
	return AuthStatus{Kind: KindGateway, Label: "Custom model gateway", Detail: host}
}

// apiKeySourceDetail is the detail shown for an API key source (""
// for an unknown one). Switches, not package-level map literals: those are
// built by init code at every start of every airwire verb.
func apiKeySourceDetail(source string) string {
	switch source {
	case "apiKeyHelper":
		return "API key helper"
	case "env", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN":
		return source
	}
	return ""
}

// externalProviderLabel is the label of a known external API provider.
func externalProviderLabel(provider string) (string, bool) {
	switch provider {
	case "bedrock":
		return "AWS Bedrock", true
	case "vertex":
		return "Google Vertex AI", true
	case "foundry":
		return "Azure AI Foundry", true
	case "anthropicAws":
		return "Anthropic on AWS", true
	case "anthropicGoogleCloud":
		return "Anthropic on Google Cloud", true
	case "mantle":
		return "Mantle", true
	}
	return "", false
}

// authFields is what both sources (the probe and the session account) say.
type authFields struct {
	APIProvider      string `json:"apiProvider"`
	SubscriptionType string `json:"subscriptionType"`
	APIKeySource     string `json:"apiKeySource"`
	Email            string `json:"email"`
	Organization     string `json:"organization"`
}

// FromCLIStatus maps the stdout of `claude auth status --json` (also the
// stdout of its exit-1 logged-out run). ok is false when it is not the
// expected object: the agent then reports nothing. apiKeyHelper is the
// settings' apiKeyHelper command, if any.
func FromCLIStatus(stdout []byte, apiKeyHelper string) (status AuthStatus, ok bool) {
	var probe struct {
		LoggedIn *bool  `json:"loggedIn"`
		OrgName  string `json:"orgName"`
		authFields
	}
	if json.Unmarshal(stdout, &probe) != nil || probe.LoggedIn == nil {
		return AuthStatus{}, false
	}
	probe.Organization = probe.OrgName
	external := probe.APIProvider != "" && probe.APIProvider != "firstParty"
	if !external && !*probe.LoggedIn && probe.APIKeySource == "" {
		return NotLoggedIn(), true
	}
	return mapAuth(probe.authFields, apiKeyHelper), true
}

// FromInitialize maps the `account` of the CLI's initialize response
// (FromAccount); ok is false when it has none.
func FromInitialize(resp json.RawMessage, apiKeyHelper string) (status AuthStatus, ok bool) {
	var r struct {
		Account json.RawMessage `json:"account"`
	}
	if json.Unmarshal(resp, &r) != nil || len(r.Account) == 0 {
		return AuthStatus{}, false
	}
	return FromAccount(r.Account, apiKeyHelper)
}

// FromAccount maps the `account` of the CLI's initialize response. ok is
// false when it carries no identity signal (e.g. only
// `apiProvider:"firstParty"`): that is "nothing to add", never a logout.
func FromAccount(account json.RawMessage, apiKeyHelper string) (status AuthStatus, ok bool) {
	var f authFields
	if json.Unmarshal(account, &f) != nil {
		return AuthStatus{}, false
	}
	if f.APIKeySource == "" && f.SubscriptionType == "" && (f.APIProvider == "" || f.APIProvider == "firstParty") {
		return AuthStatus{}, false
	}
	return mapAuth(f, apiKeyHelper), true
}

var (
	centralRE    = lazyre.New(`(?i)\bcentral\b`)
	proxyStartRE = lazyre.New(`(?i)\bproxy\s+start\b`)
)

// mapAuth decides the kind: a gateway or cloud backend first, then an API
// key (it outranks a stored subscription login), then the subscription.
func mapAuth(f authFields, apiKeyHelper string) AuthStatus {
	switch {
	case f.APIProvider == "gateway":
		return Gateway("")
	case f.APIProvider != "" && f.APIProvider != "firstParty":
		label, ok := externalProviderLabel(f.APIProvider)
		if !ok {
			label = f.APIProvider
		}
		return AuthStatus{Kind: KindExternal, Label: label}
	case f.APIKeySource != "":
		if f.APIKeySource == "apiKeyHelper" && centralRE.MatchString(apiKeyHelper) && proxyStartRE.MatchString(apiKeyHelper) {
			return AuthStatus{Kind: KindGateway, Label: "JetBrains Air Gateway"}
		}
		return AuthStatus{Kind: KindAPIKey, Label: "Anthropic API key", Detail: apiKeySourceDetail(f.APIKeySource)}
	case f.SubscriptionType != "":
		return AuthStatus{Kind: KindAccount, Label: planLabel(f.SubscriptionType),
			Account: &Account{Plan: f.SubscriptionType, Email: f.Email, Organization: f.Organization}}
	}
	return NotLoggedIn()
}

var (
	claudePrefixRE = lazyre.New(`(?i)^claude(\s|$)`)
	wordRE         = lazyre.New(`\S+`)
)

// planLabel names the plan with exactly one "Claude", each word's first
// letter upper-cased (a newer CLI says "Claude Max", an older one "max").
func planLabel(plan string) string {
	titled := wordRE.ReplaceAllStringFunc(plan, func(w string) string {
		r, n := utf8.DecodeRuneInString(w)
		return string(unicode.ToUpper(r)) + w[n:]
	})
	if claudePrefixRE.MatchString(plan) {
		return titled
	}
	return "Claude " + titled
}

// SameIdentity reports whether a and b describe the same login: the key
// source for api_key, the email for account, the kind for the rest.
func SameIdentity(a, b AuthStatus) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KindAPIKey:
		return a.Detail == b.Detail
	case KindAccount:
		return a.email() == b.email()
	}
	return true
}

func (a AuthStatus) email() string {
	if a.Account == nil {
		return ""
	}
	return a.Account.Email
}

// Merge folds a fresh read into the last known status: for the same login
// the read wins field by field but keeps what it lacks; another login
// replaces it. prev nil means nothing known.
func Merge(prev *AuthStatus, next AuthStatus) AuthStatus {
	if prev == nil || !SameIdentity(*prev, next) {
		return next
	}
	merged := next
	if merged.Detail == "" {
		merged.Detail = prev.Detail
	}
	if prev.Account != nil || next.Account != nil {
		acc := Account{}
		for _, a := range []*Account{prev.Account, next.Account} {
			if a != nil {
				acc = overlay(acc, *a)
			}
		}
		merged.Account = &acc
	}
	return merged
}

func overlay(base, top Account) Account {
	if top.Plan != "" {
		base.Plan = top.Plan
	}
	if top.Email != "" {
		base.Email = top.Email
	}
	if top.Organization != "" {
		base.Organization = top.Organization
	}
	return base
}

// Same reports whether pushing next after last would tell the client
// nothing new; last nil (nothing pushed yet) is never the same.
func Same(last *AuthStatus, next AuthStatus) bool {
	if last == nil {
		return false
	}
	return last.Kind == next.Kind && last.Label == next.Label && last.Detail == next.Detail &&
		*orEmpty(last.Account) == *orEmpty(next.Account)
}

func orEmpty(a *Account) *Account {
	if a == nil {
		return &Account{}
	}
	return a
}
