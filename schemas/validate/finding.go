package validate

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Severity grades a finding.
type Severity int

const (
	// SeverityError breaks the contract or the schema; airwire validate
	// exits 1.
	SeverityError Severity = iota
	// SeverityWarning is suspicious but allowed by the contract's letter.
	SeverityWarning
)

func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// MarshalText writes "error" or "warning".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Side selects whose messages are checked.
type Side int

const (
	// SideBoth checks every message.
	SideBoth Side = iota
	// SideAgent checks what the agent sent.
	SideAgent
	// SideClient checks what the editor (the ACP client) sent.
	SideClient
)

// ParseSide reads "agent", "client" or "both".
func ParseSide(s string) (Side, error) {
	switch strings.ToLower(s) {
	case "both", "":
		return SideBoth, nil
	case "agent":
		return SideAgent, nil
	case "client", "editor":
		return SideClient, nil
	}
	return SideBoth, fmt.Errorf("unknown side %q: want agent, client or both", s)
}

func (s Side) String() string {
	switch s {
	case SideAgent:
		return "agent"
	case SideClient:
		return "client"
	}
	return "both"
}

// Sender of a client-lane message.
const (
	DirEditor = "editor"
	DirAgent  = "agent"
	LaneACP   = "client"
)

// Message is one client-lane JSON-RPC message, as the journal stored it.
type Message struct {
	Seq  uint64
	Lane string // "client"
	Dir  string // DirEditor or DirAgent: who sent it
	Msg  json.RawMessage
}

// Finding is one problem with one message.
type Finding struct {
	Seq    uint64 `json:"seq"`
	Lane   string `json:"lane"`
	Dir    string `json:"dir"`
	Method string `json:"method,omitempty"`
	// Pointer is the RFC 6901 pointer into the JSON-RPC message.
	Pointer string `json:"pointer"`
	// Rule is a contract rule id (e.g. "diff-patch-text") or a schema id
	// (an AIR schema $id, or "acp:#/$defs/<Def>").
	Rule string `json:"rule"`
	// Section is the contract section of air-extensions.md, or "ACP schema".
	Section  string   `json:"section"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

func (f Finding) String() string {
	return fmt.Sprintf("seq %d %s/%s %s %s: %s [%s; %s] %s", f.Seq, f.Lane, f.Dir, f.Severity, f.Pointer, f.Message, f.Rule, f.Section, f.Method)
}

// Stats count what was checked.
type Stats struct {
	Messages    int `json:"messages"`
	AIRPayloads int `json:"air_payloads"`
	Errors      int `json:"errors"`
	Warnings    int `json:"warnings"`
}
