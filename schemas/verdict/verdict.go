package verdict

import (
	"fmt"
	"strings"

	"github.com/xeipuuv/gojsonschema"
)

// Violation is one schema failure.
type Violation struct {
	// Pointer is the RFC 6901 JSON pointer of the failing value, relative to
	// the validated document. For a missing or forbidden property it names
	// that property.
	Pointer string
	// Keyword is the gojsonschema error type: required, const, enum, pattern,
	// additional_property_not_allowed, invalid_type, ...
	Keyword string
	// Message is the human text.
	Message string
}

// Rule is the "keyword@pointer" form used by negative fixtures.
func (v Violation) Rule() string { return v.Keyword + "@" + v.Pointer }

func (v Violation) String() string { return v.Pointer + ": " + v.Message + " (" + v.Keyword + ")" }

const sep = "\x00"

// FromResult converts every error of r into a Violation.
func FromResult(r *gojsonschema.Result) []Violation {
	if r == nil || r.Valid() {
		return nil
	}
	out := make([]Violation, 0, len(r.Errors()))
	for _, e := range r.Errors() {
		out = append(out, FromError(e))
	}
	return out
}

// FromError converts one gojsonschema error.
func FromError(e gojsonschema.ResultError) Violation {
	segs := strings.Split(e.Context().String(sep), sep)
	if len(segs) > 0 && segs[0] == gojsonschema.STRING_CONTEXT_ROOT {
		segs = segs[1:]
	}
	switch e.Type() {
	case "required", "additional_property_not_allowed":
		if p, ok := e.Details()["property"].(string); ok {
			segs = append(segs, p)
		}
	}
	return Violation{Pointer: Pointer(segs...), Keyword: e.Type(), Message: e.Description()}
}

// Pointer builds an RFC 6901 pointer from raw segments.
func Pointer(segs ...string) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		s = strings.ReplaceAll(s, "~", "~0")
		b.WriteString(strings.ReplaceAll(s, "/", "~1"))
	}
	return b.String()
}

// Errorf is a convenience for a Violation built by hand.
func Errorf(pointer, keyword, format string, args ...any) Violation {
	return Violation{Pointer: pointer, Keyword: keyword, Message: fmt.Sprintf(format, args...)}
}
