// Package reports turns the runs of `airwire conform` into files a release
// gate reads: a JSON report (the versioned format of docs/report.md), JUnit
// XML for a CI's test tab, and a static HTML page a person reads when the
// gate fails. It also holds the two policies around a run set: the
// expected-failures baseline (a known failure passes the gate, a failure
// that changed or went away fails it) and the split of the runs into CI
// shards balanced by recorded duration.
//
// The model is Report, one per `airwire conform` invocation or merge, with
// one Run per scenario × profile:
//
//	rep := &reports.Report{Agent: "node dist/index.js", Sections: scenario.Sections}
//	rep.Add(run) // for each run
//	rep.WriteJSON("report.json"); rep.WriteJUnit("junit.xml"); rep.WriteHTML("html")
//
// Read loads a JSON report (checking Schema), Merge joins the reports of
// the shards of one suite run (each run must appear exactly once).
//
// LoadBaseline reads an expected-failures file; Baseline.Mark turns a
// failure it lists into StatusExpectedFail, and Baseline.Stale returns the
// entries whose runs pass now. ParseShard reads "i/n", Partition splits run
// ids into n shards (longest first onto the lightest shard), Durations
// reads the per-run durations of an earlier report.
//
// The package never runs anything and never decides what a run's outcome
// is: cmd/conform builds each Run from conform.Check's outcome.
package reports
