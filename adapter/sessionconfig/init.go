package sessionconfig

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/claude"
)

// Model is one entry of the CLI's `models` list.
type Model struct {
	Value                 string   `json:"value"`
	ResolvedModel         string   `json:"resolvedModel,omitempty"`
	DisplayName           string   `json:"displayName"`
	Description           string   `json:"description"`
	SupportsEffort        bool     `json:"supportsEffort"`
	SupportedEffortLevels []string `json:"supportedEffortLevels"`
	SupportsFastMode      bool     `json:"supportsFastMode"`
	SupportsAutoMode      bool     `json:"supportsAutoMode"`
}

// Command is one entry of the CLI's slash `commands`.
type Command = claude.Command

// Init is what the session's shapes need from the CLI's `initialize`
// control response.
type Init struct {
	Commands               []Command       `json:"commands"`
	Models                 []Model         `json:"models"`
	Agents                 []Agent         `json:"agents"`
	Account                json.RawMessage `json:"account"`
	FastModeState          string          `json:"fast_mode_state"`
	FastModeDisabledReason string          `json:"fast_mode_disabled_reason"`
}

// ParseInit decodes the `response` object of the CLI's initialize
// control response.
func ParseInit(resp json.RawMessage) (Init, error) {
	var in Init
	err := json.Unmarshal(resp, &in)
	return in, err
}

// Settings is what the reference reads from `get_settings`: whether
// ultracode can run and whether the session requests it (nil: not said).
type Settings struct {
	UltracodeAvailable *bool
	UltracodeRequested *bool
}

// ParseSettings decodes the `response` object of a get_settings control
// response; a malformed one says nothing.
func ParseSettings(resp json.RawMessage) Settings {
	var r struct {
		Applied struct {
			UltracodeAvailable *bool `json:"ultracodeAvailable"`
			UltracodeRequested *bool `json:"ultracodeRequested"`
		} `json:"applied"`
	}
	_ = json.Unmarshal(resp, &r)
	return Settings{UltracodeAvailable: r.Applied.UltracodeAvailable, UltracodeRequested: r.Applied.UltracodeRequested}
}
