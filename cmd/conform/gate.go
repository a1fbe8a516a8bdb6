package conform

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/reports"
)

// loadBaseline reads --expected-failures (nil without it) and checks that
// every entry names a run of the suite (known: scenario -> its profiles).
func loadBaseline(opts *ConformOptions, known map[string][]string) (*reports.Baseline, error) {
	if opts.ExpectedFailures == "" {
		return nil, nil
	}
	b, err := reports.LoadBaseline(opts.ExpectedFailures)
	if err != nil {
		return nil, cmdutil.FlagErrorf("--expected-failures: %v", err)
	}
	if err := b.Known(known, profileNames()); err != nil {
		return nil, cmdutil.FlagErrorf("--expected-failures: %v", err)
	}
	return b, nil
}

// shardJobs keeps the jobs of --shard i/n (all of them without it); the
// scenario files that did not load stay with shard 1.
func shardJobs(opts *ConformOptions, jobs []job, bad []badScenario, g *golden.Golden) (*reports.ShardSpec, []job, []badScenario, error) {
	if opts.Shard == "" {
		return nil, jobs, bad, nil
	}
	spec, err := reports.ParseShard(opts.Shard)
	if err != nil {
		return nil, nil, nil, cmdutil.FlagErrorf("--shard: %v", err)
	}
	weight, err := shardWeight(opts, g)
	if err != nil {
		return nil, nil, nil, err
	}
	ids := make([]string, len(jobs))
	byID := map[string]job{}
	for i, j := range jobs {
		ids[i] = conform.GoldenName(j.sc, j.p)
		byID[ids[i]] = j
	}
	var mine []job
	for _, id := range reports.Partition(ids, weight, spec.Total)[spec.Index-1] {
		mine = append(mine, byID[id])
	}
	if spec.Index != 1 {
		bad = nil
	}
	return &spec, mine, bad, nil
}

// shardWeight weighs a run by its duration in the --durations report (a
// run it lacks: the mean of those it has), else by its golden's line
// count (1 without a golden).
func shardWeight(opts *ConformOptions, g *golden.Golden) (func(string) float64, error) {
	if opts.Durations != "" {
		d, err := reports.Durations(opts.Durations)
		if err != nil {
			return nil, cmdutil.FlagErrorf("--durations: %v", err)
		}
		mean := 1.0
		if len(d) > 0 {
			sum := 0.0
			for _, v := range d {
				sum += v
			}
			mean = sum / float64(len(d))
		}
		return func(id string) float64 {
			if v, ok := d[id]; ok {
				return v
			}
			return mean
		}, nil
	}
	return func(id string) float64 {
		b, err := os.ReadFile(g.File(id))
		if err != nil {
			return 1
		}
		return float64(bytes.Count(b, []byte("\n")) + 1)
	}, nil
}

// newReport starts the report of this invocation.
func newReport(opts *ConformOptions, agent []string, shard *reports.ShardSpec) *reports.Report {
	return &reports.Report{Airwire: opts.Version, Agent: strings.Join(agent, " "), Started: opts.Now(),
		Shard: shard, Baseline: opts.ExpectedFailures, Sections: scenario.Outline()}
}

// writeReports writes the reports the flags ask for.
func writeReports(opts *ConformOptions, rep *reports.Report) error {
	rep.Sort()
	rep.Group()
	var errs []error
	if opts.JSON != "" {
		errs = append(errs, rep.WriteJSON(opts.JSON))
	}
	if opts.JUnit != "" {
		errs = append(errs, rep.WriteJUnit(opts.JUnit))
	}
	if opts.HTML != "" {
		errs = append(errs, rep.WriteHTML(opts.HTML))
		fmt.Fprintf(opts.IO.ErrOut, "airwire conform: HTML report: %s\n", filepath.Join(opts.HTML, reports.HTMLFile))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("writing the reports: %w", err)
	}
	return nil
}
