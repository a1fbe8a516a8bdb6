package acpv2

import (
	"encoding/json"
	"fmt"

	"github.com/airwire/airwire/internal/jsonrpc"
)

// EnvProtocol names the environment variable that picks the ACP versions
// the agent serves.
const EnvProtocol = "AIRWIRE_ACP_PROTOCOL"

// Protocols are the ACP versions the agent serves.
type Protocols string

const (
	// Auto serves both: a client that asks for version 2 or later gets the
	// draft v2, any other v1.
	Auto Protocols = "auto"
	// V1 serves v1 alone: a v2 client is negotiated down to v1.
	V1 Protocols = "v1"
	// V2 serves v2 alone: a v1 client's initialize is refused.
	V2 Protocols = "v2"
)

// ProtocolsFromEnv reads AIRWIRE_ACP_PROTOCOL: unset or empty is Auto; any
// value but auto, v1 and v2 is an error, so that a typo fails the start
// instead of serving both.
func ProtocolsFromEnv(value string) (Protocols, error) {
	switch p := Protocols(value); p {
	case "":
		return Auto, nil
	case Auto, V1, V2:
		return p, nil
	}
	v, _ := json.Marshal(value)
	return "", fmt.Errorf(`%s must be "auto", "v1", or "v2", not %s`, EnvProtocol, v)
}

// Select is the version served to a client that requested version
// requested; ok is false when none is (the initialize is refused with
// UnsupportedVersion).
func (p Protocols) Select(requested int64) (version int, ok bool) {
	switch {
	case p == V1:
		return 1, true
	case p != V1 && requested >= 2:
		return 2, true
	case p != V2 && requested >= 1:
		return 1, true
	}
	return 0, false
}

// UnsupportedVersion is the SDK's -32022 for a version the agent does not
// serve, with the versions it does.
func (p Protocols) UnsupportedVersion(requested int64) *jsonrpc.WireError {
	supported := []int{}
	if p != V2 {
		supported = append(supported, 1)
	}
	if p != V1 {
		supported = append(supported, 2)
	}
	data, _ := json.Marshal(map[string]any{"requested": requested, "supported": supported})
	return &jsonrpc.WireError{Code: -32022, Message: "Unsupported protocol version", Data: data}
}
