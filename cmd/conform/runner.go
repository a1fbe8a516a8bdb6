package conform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/reports"
)

// BrokenAfter is how many runs must end before the adapter answered
// initialize, with no run getting further, for conform to stop: the adapter
// (or its command line) is broken, and every other run would fail the same
// way.
const BrokenAfter = 2

// outcome is one finished run, or a scenario file that did not load (file).
type outcome struct {
	job
	file string
	err  error
	out  *conform.Outcome
	took time.Duration
	// run is the outcome as the reports show it (set by runner.report).
	run reports.Run
	// reported is closed once the runner reported the outcome.
	reported chan struct{}
}

func (o outcome) name() string {
	if o.file != "" {
		return o.file
	}
	return conform.GoldenName(o.sc, o.p)
}

// runner starts the runs, reports each as it ends (a failure with its
// explanation at once) and decides when to stop early: --fail-fast, an
// adapter that never answers initialize, or a cancelled context.
type runner struct {
	opts   *ConformOptions
	w      io.Writer
	total  int
	start  time.Time
	done   int
	failed []string
	// verdicts notes, by run name, a failure the summary names besides
	// its name (a cassette that does not apply).
	verdicts map[string]string
	// cancelled counts runs ended by the runner's own stop or the caller's
	// cancel: they are not failures.
	cancelled int
	// applied counts the values declared deviations masked, leftOut the
	// golden lines they left out, over all runs.
	applied, leftOut int
	// unixOnly counts the runs of Unix-only scenarios left out on Windows.
	unixOnly int
	// held are the runs that ended before initialize was answered, while
	// no run has got further; reached is true once one did.
	held    []outcome
	reached bool
	// stopped says why the runner stopped early ("" when it did not).
	stopped string
	stop    context.CancelFunc
	// g holds the goldens; baseline lists the expected failures (nil:
	// none); rep collects every run for the reports.
	g        *golden.Golden
	baseline *reports.Baseline
	rep      *reports.Report
}

func newRunner(opts *ConformOptions, total int, g *golden.Golden, baseline *reports.Baseline, rep *reports.Report) *runner {
	return &runner{opts: opts, w: opts.IO.ErrOut, total: total, start: opts.Now(), stop: func() {},
		verdicts: map[string]string{}, g: g, baseline: baseline, rep: rep}
}

// statusWord is the status column of the progress lines.
func statusWord(s reports.Status) string {
	switch s {
	case reports.StatusPass:
		return "ok  "
	case reports.StatusFail:
		return "FAIL"
	case reports.StatusExpectedFail:
		return "xfail"
	}
	return ""
}

// runAll runs jobs on opts.Jobs workers until they are done or the runner
// stops; each run gets its own --run-timeout.
func (r *runner) runAll(ctx context.Context, jobs []job, options func(job) conform.Options, g *golden.Golden) {
	if r.stopped != "" || len(jobs) == 0 {
		return
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	r.stop = stop
	work := make(chan job)
	results := make(chan outcome)
	var wg sync.WaitGroup
	for range min(r.opts.Jobs, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if runCtx.Err() != nil {
					return // stopped: the job is not run
				}
				o := r.runOne(runCtx, j, options(j), g)
				o.reported = make(chan struct{})
				results <- o
				<-o.reported // the stop decision comes before the next job
			}
		}()
	}
	go func() {
		defer close(work)
		for _, j := range jobs {
			select {
			case work <- j:
			case <-runCtx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	for o := range results {
		if runCtx.Err() != nil && errors.Is(o.err, context.Canceled) {
			r.cancelled++
		} else {
			r.report(o)
		}
		close(o.reported)
	}
}

func (r *runner) runOne(ctx context.Context, j job, o conform.Options, g *golden.Golden) outcome {
	t0 := r.opts.Now()
	rctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	out, err := r.opts.Run(rctx, o, g, r.opts.Keep)
	if out == nil {
		out = &conform.Outcome{}
	}
	if r.opts.Keep && err == nil && out.Dir != "" {
		// --keep keeps the failed runs only: a full suite would otherwise
		// leave a folder per run behind.
		os.RemoveAll(out.Dir)
		out.Dir = ""
	}
	return outcome{job: j, err: err, out: out, took: r.opts.Now().Sub(t0)}
}

// report prints one finished run: its status line, and for a failure the
// explanation right away (held back while it may be the broken-adapter
// case, which is said once).
func (r *runner) report(o outcome) {
	r.done++
	o.run = runOf(o, r.g, r.opts.Keep)
	mislisted := r.baseline.Mark(&o.run)
	r.rep.Add(o.run)
	status := statusWord(o.run.Status)
	if o.run.Status == reports.StatusFail {
		r.failed = append(r.failed, o.name())
		if o.run.Failure.Check == reports.CheckCassette {
			r.verdicts[o.name()] = " (cassette does not apply: run it with --live)"
		}
	}
	if mislisted != "" {
		fmt.Fprintf(r.w, "airwire conform: %s\n", mislisted)
	}
	note := ""
	if f := o.run.Failure; f != nil && f.Check == reports.CheckCassette {
		note = ", cassette does not apply"
	}
	if n := len(o.out.AgentFindings); n > 0 {
		note = ", " + cmdutil.Plural(n, "validator finding", "validator findings")
	}
	note += deviationNote(o.out.Deviations, o.out.LeftOut)
	r.applied += len(o.out.Deviations)
	r.leftOut += len(o.out.LeftOut)
	fmt.Fprintf(r.w, "[%*d/%d] %s %s (%.1fs%s)\n", len(fmt.Sprint(r.total)), r.done, r.total, status, o.name(), o.took.Seconds(), note)
	if r.opts.Keep && o.err != nil && o.out.Dir != "" {
		fmt.Fprintf(r.w, "    kept %s\n", o.out.Dir)
	}
	var re *conform.RunError
	switch {
	case o.file != "":
		r.explain(o)
	case errors.As(o.err, &re) && re.BeforeInitialize && !r.reached:
		r.held = append(r.held, o)
		if r.stopped == "" && len(r.held) >= min(BrokenAfter, r.total) {
			r.halt("broken")
			fmt.Fprintf(r.w, "\nairwire conform: stopping: the agent never answered initialize in its first %s; every run would fail the same way. The first one:\n%v\n", cmdutil.Plural(len(r.held), "run", "runs"), r.held[0].err)
		}
		return
	default:
		r.reached = true
		for _, h := range r.held {
			r.explain(h)
		}
		r.held = nil
		if o.err != nil {
			r.explain(o)
		}
	}
	if o.run.Status == reports.StatusFail && r.opts.FailFast {
		r.halt("fail-fast")
	}
}

// halt stops the runner: no new run starts, the running ones are cancelled.
func (r *runner) halt(why string) {
	if r.stopped == "" {
		r.stopped = why
		r.stop()
	}
}

// explain prints why a run failed; for an expected failure, only the
// baseline entry that lists it.
func (r *runner) explain(o outcome) {
	if e := o.run.Baseline; e != nil {
		fmt.Fprintf(r.w, "    expected failure (%s:%d: %s): %s\n", e.File, e.Line, e.Reason, firstLine(o.run.Failure.Message))
		return
	}
	fmt.Fprintf(r.w, "\n--- FAIL %s\n%v\n", o.name(), o.err)
	if f := o.run.Failure; f != nil && len(f.Differences) > 1 {
		writeDifferences(r.w, f)
	}
	for _, d := range o.out.Deviations {
		fmt.Fprintf(r.w, "masked by declared deviation %d: line %d %s\n", d.Entry, d.Line, d.Path)
	}
	for _, l := range o.out.LeftOut {
		fmt.Fprintf(r.w, "left out by declared deviation %d: golden line %d\n", l.Entry, l.Line)
	}
	if len(o.out.LeftOut) > 0 {
		fmt.Fprintln(r.w, "(the differences number the golden's lines without those left out)")
	}
	fmt.Fprintln(r.w)
}

// finish prints the summary and returns the command's error. Every job
// that did not run becomes a skipped run of the report; a baseline entry
// whose run passed fails the command (a stale baseline).
func (r *runner) finish(ctx context.Context, jobs []job) error {
	for _, h := range r.held {
		if r.stopped != "broken" {
			r.explain(h)
		}
	}
	r.addSkipped(jobs)
	took := r.opts.Now().Sub(r.start).Round(100 * time.Millisecond)
	r.rep.DurationMS = took.Milliseconds()
	span := took.String() // the summary's parenthesis: the lanes compared, the wall time, and the CLI of a live run
	if r.opts.EditorLane {
		span = "editor lane only, " + span
	}
	if r.rep.CLI != "" {
		span += ", Claude CLI " + r.rep.CLI
	}
	notRun := r.total - r.done
	r.rep.Sort()
	r.rep.Group()
	stale := r.baseline.Stale(r.rep.Runs)
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(r.w, "airwire conform: interrupted: %d of %s finished, %d failed\n", r.done, cmdutil.Plural(r.total, "run", "runs"), len(r.failed))
		return ctx.Err()
	case r.stopped == "broken":
		return cmdutil.Mismatchf("the agent never answered initialize: %s failed before it could, %d of %d not run (%s)", cmdutil.Plural(len(r.failed), "run", "runs"), notRun, r.total, span)
	case r.stopped == "fail-fast":
		return cmdutil.Mismatchf("stopped at the first failure (--fail-fast): %s; %d of %s not run (%s)", r.failed[0], notRun, cmdutil.Plural(r.total, "run", "runs"), span)
	case len(r.failed) > 0:
		r.printFailed()
		r.printStale(stale)
		return cmdutil.Mismatchf("%d of %s failed (%s)", len(r.failed), cmdutil.Plural(r.total, "run", "runs"), span)
	case len(stale) > 0:
		r.printStale(stale)
		return cmdutil.Mismatchf("the expected-failures baseline is stale: %s now (%s)", cmdutil.Plural(len(stale), "listed run passes", "listed runs pass"), span)
	}
	extra := ""
	if r.applied > 0 {
		extra = "; " + cmdutil.Plural(r.applied, "declared deviation", "declared deviations") + " applied"
	}
	if r.leftOut > 0 {
		extra += "; " + cmdutil.Plural(r.leftOut, "golden line", "golden lines") + " left out"
	}
	if n := r.unixOnly; n > 0 {
		extra += "; " + cmdutil.Plural(n, "run", "runs") + " of Unix-only scenarios not run on Windows"
	}
	if n := r.rep.Summary.ExpectedFail; n > 0 {
		fmt.Fprintf(r.opts.IO.Out, "%s, %d %s as %s expects (%s%s)\n", cmdutil.Plural(r.total-n, "run matches", "runs match"), n, pick(n, "fails", "fail"), r.baseline.File, span, extra)
		return nil
	}
	if r.total == 1 {
		fmt.Fprintf(r.opts.IO.Out, "the 1 run matches (%s%s)\n", span, extra)
		return nil
	}
	fmt.Fprintf(r.opts.IO.Out, "all %d runs match (%s%s)\n", r.total, span, extra)
	return nil
}

// printFailed prints the causes of the failures, most runs first, then
// the failed runs, each naming its causes.
func (r *runner) printFailed() {
	r.rep.WriteCauses(r.w)
	causes := map[string]string{}
	for _, run := range r.rep.Runs {
		if c := reports.CauseList(run.Failure); c != "" && run.Status == reports.StatusFail {
			causes[run.ID()] = " (" + c + ")"
		}
	}
	fmt.Fprintf(r.w, "failed:\n")
	for _, n := range r.failed {
		fmt.Fprintf(r.w, "  %s%s%s\n", n, r.verdicts[n], causes[n])
	}
}

// addSkipped adds the jobs that never reported to the report as skipped.
func (r *runner) addSkipped(jobs []job) {
	ran := map[string]bool{}
	for _, run := range r.rep.Runs {
		ran[run.ID()] = true
	}
	for _, j := range jobs {
		if name := conform.GoldenName(j.sc, j.p); !ran[name] {
			run := reports.Run{Scenario: j.sc.Name, Profile: string(j.p), Status: reports.StatusSkip, Covers: j.sc.Covers,
				Golden: r.g.File(name)}
			if cassette.OnWindows && j.sc.Unix != "" {
				run.Notes = []string{"not run on Windows: " + j.sc.Unix}
			}
			r.rep.Add(run)
		}
	}
}

func (r *runner) printStale(stale []string) {
	if len(stale) == 0 {
		return
	}
	fmt.Fprintf(r.w, "stale expected failures (remove these lines):\n")
	for _, s := range stale {
		fmt.Fprintf(r.w, "  %s\n", s)
	}
}

// pick is one when n is 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// writeDifferences lists all of a failed run's differences (up to the
// bound golden.MaxDiffs), one a line, values clipped.
func writeDifferences(w io.Writer, f *reports.Failure) {
	if f.MoreDifferences {
		fmt.Fprintf(w, "differences (the first %d; more were found, not listed):\n", len(f.Differences))
	} else {
		fmt.Fprintf(w, "differences (%d):\n", len(f.Differences))
	}
	for _, d := range f.Differences {
		fmt.Fprintf(w, "  line %d %s\n", d.Line, reports.DifferenceLine(d))
	}
}
