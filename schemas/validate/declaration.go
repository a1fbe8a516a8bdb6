package validate

import (
	"encoding/json"
	"fmt"
	"math"
)

// RuleMalformedDeclaration is the gate finding after a malformed client
// declaration ("Negotiation > Client declaration": "A malformed
// declaration enables no capability"): the client declared
// _meta.jetbrains.air, so it is AIR, but a version that is not a finite
// integer of at least 1, or capabilities that are not an array, enable
// none of the capabilities it lists. Any payload, update or method that
// needs one is then this finding instead of air-gate.
const RuleMalformedDeclaration = "client-declaration-malformed"

// declarationProblem says why an AIR client declaration enables no
// capability ("" when it is well formed). The version is read as the
// adapter's JavaScript reads a JSON number: 1.0 and 1e0 are the integer 1.
func declarationProblem(decl map[string]any) string {
	v, hasVersion := decl["version"]
	n, isNum := v.(json.Number)
	f, err := n.Float64()
	switch {
	case !hasVersion:
		return "it has no version"
	case !isNum || err != nil || math.IsInf(f, 0) || f != math.Trunc(f):
		return fmt.Sprintf("version %s is not a finite integer", idJSON(v))
	case f < 1:
		return fmt.Sprintf("version %s is below 1", idJSON(v))
	}
	if _, ok := decl["capabilities"].([]any); !ok {
		return fmt.Sprintf("capabilities %s is not an array", idJSON(decl["capabilities"]))
	}
	return ""
}

// airGate reports a key, update or method that needs a client capability the
// client did not declare: air-gate, or RuleMalformedDeclaration when the
// client listed it in a malformed declaration.
func (c *checker) airGate(ptr, section, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if why := c.v.st.declMalformed; why != "" {
		c.add(ptr, RuleMalformedDeclaration, SectionClientDecl, SeverityError,
			"%s: the client's _meta.jetbrains.air declaration is malformed (%s), and a malformed declaration enables no capability (%s)", msg, why, section)
		return
	}
	c.add(ptr, "air-gate", section, SeverityError, "%s", msg)
}
