package scenario

import "github.com/airwire/airwire/internal/lookup"

// Uncovered holds the contract subsections ("Section > Subsection") that no
// scenario's covers names, each with the reason: a subsection that says
// nothing the wire shows, or one whose branch no scenario reaches yet.
// TestSubsectionCoverage fails when a subsection is neither covered nor
// listed here, or listed here and covered.
var Uncovered = lookup.Map{
	{"Permission presentation > Client requirements", "requirements on the client (render, keep option ids, settle on cancel); the suite's client is scripted and the adapter's wire does not change with them"},
	{"Recommended config values > SDK upgrade check", "a maintainer's procedure before an SDK update (a live vitest run), not wire behaviour"},
	{"Session index > Relation to the RFDs", "maps the extension to two ACP RFDs; documentation, no wire behaviour of its own"},
	{"Session index > Relation to ACP RFD #2161", "states how the archive differs from RFD #2161; the behaviours it names are those of Session index > Archive and List request, covered there"},
}
