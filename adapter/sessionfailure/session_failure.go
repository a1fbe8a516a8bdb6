package sessionfailure

import (
	"fmt"
	"strings"

	"github.com/airwire/airwire/internal/uuid"
)

// Kind is the adapter's name for a failure condition; it picks the
// category, the actions and the fallback title (contract "Categories and
// actions").
type Kind string

// The kinds of the "Categories and actions" table.
const (
	AccessDenied     Kind = "access_denied"     // verification_required, cloud_credential_error
	QuotaExhausted   Kind = "quota_exhausted"   // billing_error, account_on_hold, a usage or spend limit
	RateLimited      Kind = "rate_limited"      // rate_limit
	ContextExhausted Kind = "context_exhausted" // max_output_tokens, a turn limit
	BudgetExhausted  Kind = "budget_exhausted"  // a configured session budget
	BadRequest       Kind = "bad_request"       // invalid_request, model_not_found
	Overloaded       Kind = "overloaded"        // overloaded
	ProviderError    Kind = "provider_error"    // server_error, an unknown provider error
	InternalError    Kind = "internal_error"    // an adapter internal error
	TransportLost    Kind = "transport_lost"    // transport loss (also an api_retry with no HTTP response)
	WorkerShutdown   Kind = "worker_shutdown"   // worker shutdown
	Advisory         Kind = "advisory"          // a model fallback notice
	// AuthRequired gets no record: the prompt ends with the ACP
	// authRequired error instead.
	AuthRequired Kind = "auth_required"
)

// Severities ("Record").
const (
	Warning = "warning"
	Error   = "error"
)

// policy is one row of the table: the category, the actions of an error,
// and the adapter's own title for when Claude sent no text. The contract
// leaves that title's words to the adapter; they are the reference's, so
// a client sees the same text from either.
type policy struct {
	category string
	actions  []string
	fallback string
}

// policies are the rows of the table, as static data (a map literal would
// be built by init code at every start of the binary).
var policies = [...]struct {
	kind Kind
	policy
}{
	{AccessDenied, policy{"service", []string{"retry"}, "Claude could not access the account or provider credentials."}},
	{QuotaExhausted, policy{"limit", []string{}, "The Claude account has no available quota."}},
	{RateLimited, policy{"limit", []string{"retry"}, "Claude is temporarily rate limited."}},
	{ContextExhausted, policy{"limit", []string{"new_session"}, "This Claude turn reached its configured limit."}},
	{BudgetExhausted, policy{"limit", []string{"new_session"}, "This Claude session reached its configured budget."}},
	{BadRequest, policy{"request", []string{}, "Claude could not process this request."}},
	{Overloaded, policy{"service", []string{"retry"}, "Claude is temporarily overloaded."}},
	{ProviderError, policy{"service", []string{"retry"}, "The model provider reported an error."}},
	{InternalError, policy{"service", []string{"retry", "new_session"}, "Claude Agent encountered an internal error."}},
	{TransportLost, policy{"connection", []string{"new_session"}, "The connection to Claude was lost."}},
	{WorkerShutdown, policy{"connection", []string{"new_session"}, "The Claude worker is shutting down."}},
	{Advisory, policy{"unknown", []string{}, "Claude reported a notice."}},
}

// policyOf is k's row; an unknown kind is a provider error ("An unknown
// SDK error kind becomes `service`").
func policyOf(k Kind) policy {
	for _, row := range policies {
		if row.kind == k {
			return row.policy
		}
	}
	return policyOf(ProviderError)
}

// Record is one `sessionFailure` payload ("Record").
type Record struct {
	ID       string   `json:"id"`
	Revision int      `json:"revision"`
	Category string   `json:"category"`
	Severity string   `json:"severity"`
	Title    string   `json:"title"`
	Details  string   `json:"details,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Actions  []string `json:"actions"`
}

// Meta is the `_meta` object that carries r: `jetbrains.air.sessionFailure`
// next to `version: 1` (contract "AIR metadata keys").
func (r Record) Meta() map[string]any {
	return map[string]any{"jetbrains": map[string]any{"air": map[string]any{"version": 1, "sessionFailure": r}}}
}

// State holds one session's incident ids and revisions ("Identity and
// revisions"). It is not safe for concurrent use; the caller serialises.
type State struct {
	sessionID string
	epoch     string
	revisions map[string]int
	next      int // the next session incident or notice number
	// notice is the last record when it was a notice: an equal
	// consecutive notice reuses its id.
	notice *Record
}

// New starts the incident state of a session; its epoch is fresh, so the
// ids of a new adapter process never collide with an earlier one's.
func New(sessionID string) *State {
	return &State{sessionID: sessionID, epoch: uuid.New(), revisions: map[string]int{}, next: 1}
}

// record makes the next revision of id.
func (s *State) record(id string, k Kind, severity, title string) Record {
	p := policyOf(k)
	if title = SafeTitle(title); title == "" {
		title = p.fallback
	}
	actions := p.actions
	if severity == Warning {
		actions = []string{}
	}
	s.revisions[id]++
	return Record{ID: id, Revision: s.revisions[id], Category: p.category, Severity: severity, Title: title, Actions: actions}
}

// Turn is a live turn's record: its failure, or an api_retry warning that
// reuses the id of the active turn failure; each call raises the revision
// of "<turnId>:error".
func (s *State) Turn(k Kind, turnID, title, severity string) Record {
	s.notice = nil
	return s.record(turnID+":error", k, severity, title)
}

// Session is a session-scoped incident (no turn to carry it): a new id
// "<sessionId>:session-error:<epoch>:<n>" each time.
func (s *State) Session(k Kind, title, severity string) Record {
	s.notice = nil
	id := fmt.Sprintf("%s:session-error:%s:%d", s.sessionID, s.epoch, s.next)
	s.next++
	return s.record(id, k, severity, title)
}

// Notice is an advisory warning "<sessionId>:notice:<epoch>:<n>"; an
// equal consecutive notice reuses its id with a higher revision.
func (s *State) Notice(title, details string) Record {
	id := ""
	if s.notice != nil && s.notice.Title == SafeTitle(title) {
		id = s.notice.ID
	} else {
		id = fmt.Sprintf("%s:notice:%s:%d", s.sessionID, s.epoch, s.next)
		s.next++
	}
	r := s.record(id, Advisory, Warning, title)
	r.Details = details
	s.notice = &r
	return r
}

// Replayed is a usage-limit failure replayed from history under its live
// id ("History replay"): "<userMessageUuid>:error", or
// "<sessionId>:history-error:<messageUuid>" when no user message precedes
// it (turnID then empty).
func (s *State) Replayed(turnID, messageUUID, title string) Record {
	id := turnID + ":error"
	if turnID == "" {
		id = s.sessionID + ":history-error:" + messageUUID
	}
	return s.record(id, QuotaExhausted, Error, title)
}

// ProviderKind maps the error marker of Claude's assistant message (and
// whether its text is the SDK's usage-limit message) to a Kind.
func ProviderKind(errorKind string, usageLimit bool) Kind {
	if usageLimit {
		return QuotaExhausted
	}
	switch errorKind {
	case "authentication_failed", "oauth_org_not_allowed":
		return AuthRequired
	case "billing_error", "account_on_hold":
		return QuotaExhausted
	case "verification_required", "cloud_credential_error":
		return AccessDenied
	case "rate_limit":
		return RateLimited
	case "overloaded":
		return Overloaded
	case "invalid_request", "model_not_found":
		return BadRequest
	case "max_output_tokens":
		return ContextExhausted
	}
	return ProviderError
}

// ResultKind maps the subtype of a failed result that has its own row
// (a budget, a turn limit, structured output retries); ok is false for
// the others, whose kind comes from the assistant's error marker.
func ResultKind(subtype string) (Kind, bool) {
	switch subtype {
	case "error_max_budget_usd":
		return BudgetExhausted, true
	case "error_max_turns":
		return ContextExhausted, true
	case "error_max_structured_output_retries":
		return ProviderError, true
	}
	return "", false
}

// usageLimitPrefixes are the stable starts of the SDK's synthetic
// usage-limit messages ("History replay": not model prose).
var usageLimitPrefixes = []string{
	"You've hit your", "You've reached your", "You're out of usage credits",
	"Your org is out of usage · add funds to continue", "Your org is out of usage · contact your admin",
	"Your seat type doesn't include usage credits", "Your seat type doesn't include usage",
	"Your usage allocation has been disabled by your admin", "Your group's usage limit is set to $0",
	"Fable 5 requires usage credits", "You're out of extra usage", "Your seat type doesn't include extra usage",
}

// IsUsageLimit reports the SDK's synthetic usage-limit message: a
// `<synthetic>` message whose text starts with a stable SDK prefix.
func IsUsageLimit(model, text string) bool {
	if model != "<synthetic>" {
		return false
	}
	return HasUsageLimitPrefix(text)
}

// HasUsageLimitPrefix reports whether text starts like a usage-limit
// message of the SDK.
func HasUsageLimitPrefix(text string) bool {
	for _, p := range usageLimitPrefixes {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}
