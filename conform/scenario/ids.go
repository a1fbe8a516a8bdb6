package scenario

import (
	"fmt"
	"time"
)

// IDs hands out deterministic UUIDs: 00000000-0000-4000-8NNN-CCCCCCCCCCCC,
// where NNN is the namespace and C a counter starting at 1. Scripted ids are
// stable from run to run, so goldens keep them verbatim, and two namespaces
// never collide (the fake CLI uses one per process generation, transcripts
// use their own).
type IDs struct {
	ns uint16
	n  uint64
}

// Namespaces of deterministic ids.
const (
	// NSFakeCLI is the first namespace of fake CLI frames; a resumed or
	// forked process adds its generation.
	NSFakeCLI uint16 = 0x000
	// NSTranscript is the namespace of rows in stored scenario transcripts.
	NSTranscript uint16 = 0x100
	// NSSession is the namespace of session ids the fake CLI makes up when
	// the host gives none.
	NSSession uint16 = 0x200
)

// NewIDs returns a generator for namespace ns (0..0xfff).
func NewIDs(ns uint16) *IDs { return &IDs{ns: ns & 0xfff} }

// UUID returns the next id.
func (g *IDs) UUID() string {
	g.n++
	return FixedUUID(g.ns, g.n)
}

// FixedUUID formats the id of counter n in namespace ns.
func FixedUUID(ns uint16, n uint64) string {
	return fmt.Sprintf("00000000-0000-4000-8%03x-%012x", ns&0xfff, n&0xffffffffffff)
}

// ToolID is the default tool_use id of a tool: toolu_<lowercase name>, e.g.
// toolu_bash for Bash. Characters outside [a-z0-9_] become _.
func ToolID(name string) string {
	b := []byte("toolu_")
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
			b = append(b, c)
		default:
			b = append(b, '_')
		}
	}
	return string(b)
}

// Clock is a deterministic clock for scripted timestamps: it starts at
// ClockBase and moves one millisecond per call.
type Clock struct {
	// Base replaces ClockBase when set.
	Base time.Time
	n    int64
}

// ClockBaseMilli is the first timestamp of every scripted run
// (2026-01-01T00:00:00Z) in Unix milliseconds. A constant, not a
// package-level time.Date: that would be init code run at every start.
const ClockBaseMilli = 1_767_225_600_000

// ClockBase is the first timestamp of every scripted run.
func ClockBase() time.Time { return time.UnixMilli(ClockBaseMilli).UTC() }

// Next returns the next timestamp in the CLI's format (RFC 3339, millisecond
// precision, Z).
func (c *Clock) Next() string {
	c.n++
	base := c.Base
	if base.IsZero() {
		base = ClockBase()
	}
	return base.Add(time.Duration(c.n) * time.Millisecond).Format("2006-01-02T15:04:05.000Z")
}
