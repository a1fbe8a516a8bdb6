package wirediff

import (
	"fmt"
	"strings"
)

// Category groups rules the way a team chooses them (buf breaking's
// categories): WIRE and AIR are breaking, CLI is breaking for the adapter's
// own behaviour, ADDITIVE and COSMETIC never fail the gate.
type Category string

const (
	// CategoryWire is a change that breaks any ACP client.
	CategoryWire Category = "WIRE"
	// CategoryAIR is a change that breaks AIR clients only (under
	// _meta.jetbrains, "AIR metadata keys").
	CategoryAIR Category = "AIR"
	// CategoryCLI is a change in what the adapter sends the Claude CLI: no
	// editor sees it, the CLI's behaviour may change.
	CategoryCLI Category = "CLI"
	// CategoryAdditive is a change a client may ignore.
	CategoryAdditive Category = "ADDITIVE"
	// CategoryCosmetic is a change of text meant for people.
	CategoryCosmetic Category = "COSMETIC"
)

// Categories lists every category, the breaking ones first.
var Categories = []Category{CategoryWire, CategoryAIR, CategoryCLI, CategoryAdditive, CategoryCosmetic}

// DefaultBreaking is the strictest gate: every category that can break.
var DefaultBreaking = []Category{CategoryWire, CategoryAIR, CategoryCLI}

// Breakable reports whether c may be chosen as breaking.
func (c Category) Breakable() bool {
	return c == CategoryWire || c == CategoryAIR || c == CategoryCLI
}

// ParseCategories reads a comma-separated list of breaking categories.
func ParseCategories(s string) ([]Category, error) {
	var out []Category
	for _, f := range strings.Split(s, ",") {
		c := Category(strings.ToUpper(strings.TrimSpace(f)))
		if !c.Breakable() {
			return nil, fmt.Errorf("%q is not a breaking category (WIRE, AIR, CLI)", f)
		}
		out = append(out, c)
	}
	return out, nil
}

// Rule is one classification: a stable id, its category and what it
// guards, in one sentence.
type Rule struct {
	ID       string   `json:"id"`
	Category Category `json:"category"`
	Purpose  string   `json:"purpose"`
}

// Rule ids. They never change once released: CI configurations name them.
const (
	WireFieldRemoved      = "WIRE_FIELD_REMOVED"
	WireTypeChanged       = "WIRE_TYPE_CHANGED"
	WireEnumValueChanged  = "WIRE_ENUM_VALUE_CHANGED"
	WireValueChanged      = "WIRE_VALUE_CHANGED"
	WireKeyOutsideMeta    = "WIRE_KEY_ADDED_OUTSIDE_META"
	WireItemAdded         = "WIRE_ITEM_ADDED"
	WireMessageMissing    = "WIRE_MESSAGE_MISSING"
	WireMessageAdded      = "WIRE_MESSAGE_ADDED"
	WireRequestAdded      = "WIRE_REQUEST_ADDED"
	WireMessageMoved      = "WIRE_MESSAGE_MOVED"
	WireMethodNowErrors   = "WIRE_METHOD_NOW_ERRORS"
	WireAIRKeyToNonAIR    = "WIRE_AIR_KEY_TO_NON_AIR_CLIENT"
	AIRFieldRemoved       = "AIR_FIELD_REMOVED"
	AIRTypeChanged        = "AIR_TYPE_CHANGED"
	AIREnumValueChanged   = "AIR_ENUM_VALUE_CHANGED"
	AIRValueChanged       = "AIR_VALUE_CHANGED"
	CLITrafficChanged     = "CLI_TRAFFIC_CHANGED"
	MetaKeyAdded          = "ADDITIVE_META_KEY_ADDED"
	NotificationKindAdded = "ADDITIVE_NOTIFICATION_KIND_ADDED"
	OptionAdded           = "ADDITIVE_OPTION_ADDED"
	TextChanged           = "COSMETIC_TEXT_CHANGED"
)

// Rules is every rule, in the order --list-rules prints them.
var Rules = []Rule{
	{WireFieldRemoved, CategoryWire, "A key or array item the old release sent is gone, and a client reading it gets nothing."},
	{WireTypeChanged, CategoryWire, "A value changed its JSON type (string, number, boolean, null, object, array), which a typed client fails to decode."},
	{WireEnumValueChanged, CategoryWire, "A value of an enumerated key (sessionUpdate, stopReason, kind, optionId, status, ...) changed, and a client switching on it takes another branch."},
	{WireValueChanged, CategoryWire, "A value that is neither an enumeration nor display text changed (an id, a path, a number, a flag)."},
	{WireKeyOutsideMeta, CategoryWire, "A new key appeared outside _meta, the only namespace ACP leaves open for extensions, so a strict client may reject it."},
	{WireItemAdded, CategoryWire, "An array outside _meta gained an item (one more permission option, one more content block)."},
	{WireMessageMissing, CategoryWire, "A message the old release sent in this session is no longer sent."},
	{WireMessageAdded, CategoryWire, "A message of a kind the session already had is sent once more, which changes the state a client builds."},
	{WireRequestAdded, CategoryWire, "The agent sends a request the old release did not, and the client must now answer it."},
	{WireMessageMoved, CategoryWire, "A message is sent at another place within its session, so a client sees events in another order."},
	{WireMethodNowErrors, CategoryWire, "A request the old release answered with a result is now answered with an error."},
	{WireAIRKeyToNonAIR, CategoryWire, "A _meta.jetbrains key is sent to a client that did not declare AIR (\"Negotiation\", \"Compatibility rule\")."},
	{AIRFieldRemoved, CategoryAIR, "A key under _meta.jetbrains the old release sent is gone, which AIR clients read."},
	{AIRTypeChanged, CategoryAIR, "A value under _meta.jetbrains changed its JSON type."},
	{AIREnumValueChanged, CategoryAIR, "An enumerated value under _meta.jetbrains (category, action, kind, ...) changed."},
	{AIRValueChanged, CategoryAIR, "Another value under _meta.jetbrains changed."},
	{CLITrafficChanged, CategoryCLI, "What the adapter sends the Claude CLI changed (a message missing, extra, moved or different)."},
	{MetaKeyAdded, CategoryAdditive, "A new key appeared under _meta (not _meta.jetbrains to a non-AIR client), which clients that do not know it ignore."},
	{NotificationKindAdded, CategoryAdditive, "A notification of a kind this session never had before is sent, which a client that does not know it may ignore."},
	{OptionAdded, CategoryAdditive, "An array of elements named by their id (configOptions, ...) gained an element, which a client lists or ignores without the others changing."},
	{TextChanged, CategoryCosmetic, "Display text changed (a title, description, label, message or text) but not its type or presence."},
}

// RuleByID returns the rule with id; it panics on an unknown id, which is
// a bug in this package.
func RuleByID(id string) Rule {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	panic("wirediff: unknown rule " + id)
}
