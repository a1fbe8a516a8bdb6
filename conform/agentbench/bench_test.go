package agentbench

import (
	"cmp"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/scenario"
)

// The benchmarks run `airwire agent` and the reference adapter (node) as
// real processes, in the same run, on the same CLI (the fake one, or the
// real one with EnvRealCLI), and report each
// measure for both and the ratio reference/ours (targets: ≥ 30×
// for initialize, ≥ 8× for RSS, ≥ 10× for CPU per chunk). Only ratios are
// meant to be compared across runs: the machines are shared and noisy.
// Run them with `make bench`, or:
//
//	go test -run '^$' -bench 'Agent(Initialize|SessionRSS|TurnCPU)$' -benchtime 3x ./conform/agentbench/
//	go test -run '^$' -bench 'V2' -benchtime 3x ./conform/agentbench/

// setup is the client a benchmark plays and the adapters it measures.
type setup struct {
	profile scenario.Profile
	// version is the ACP version of the client's initialize (1 or 2).
	version int
	// only, when set, names the one adapter measured ("ref").
	only string
}

// forProfiles runs a benchmark as a plain client and as an AIR client
// declaring every extension (the three ratios must hold with AIR on too):
// sub-benchmarks plain and air.
func forProfiles(b *testing.B, f func(*testing.B, setup)) {
	for _, p := range []scenario.Profile{scenario.ProfilePlain, scenario.ProfileAir} {
		b.Run(string(p), func(b *testing.B) { f(b, setup{profile: p, version: 1}) })
	}
}

// forV2 runs a benchmark as an ACP v2 client (initialize with
// protocolVersion 2, no capabilities; the turn ends at its idle
// state_update): sub-benchmark ref measures the reference alone,
// ours-vs-ref both adapters in the same run with the ratios, as the v1
// benchmarks do. ours-vs-ref fails, saying so, while airwire agent does not
// serve ACP v2.
func forV2(b *testing.B, f func(*testing.B, setup)) {
	b.Run("ref", func(b *testing.B) { f(b, setup{profile: scenario.ProfilePlain, version: 2, only: "ref"}) })
	b.Run("ours-vs-ref", func(b *testing.B) { f(b, setup{profile: scenario.ProfilePlain, version: 2}) })
}

// use sets the bench up for s.
func (bn *bench) use(s setup) {
	bn.profile, bn.version = s.profile, s.version
	if s.only != "" {
		bn.adapters = slices.DeleteFunc(bn.adapters, func(c contender) bool { return c.name != s.only })
	}
}

// fatal ends a benchmark on err, saying when an adapter does not serve ACP v2.
func fatal(b *testing.B, err error) {
	b.Helper()
	if errors.Is(err, errNoV2) {
		b.Fatalf("%v: a v2 benchmark needs an adapter that serves ACP v2", err)
	}
	b.Fatal(err)
}

// both says whether a run measured ours and the reference, so that their
// ratio means something.
func both[V any](m map[string]V) bool {
	_, ours := m["ours"]
	_, ref := m["ref"]
	return ours && ref
}

// turnDeltas is how many text deltas one benchmark turn streams.
const turnDeltas = 10000

// BenchmarkAgentInitialize: the wall time from the spawn of an adapter to
// its initialize response. One op spawns each adapter once.
func BenchmarkAgentInitialize(b *testing.B) { forProfiles(b, benchInitialize) }

// BenchmarkAgentInitializeV2 is BenchmarkAgentInitialize for an ACP v2
// client (forV2).
func BenchmarkAgentInitializeV2(b *testing.B) { forV2(b, benchInitialize) }

func benchInitialize(b *testing.B, s setup) {
	bn := newBench(b, 1, 1)
	bn.use(s)
	took := map[string][]float64{}
	b.ResetTimer()
	for range b.N {
		for _, ad := range bn.adapters {
			a := bn.start(b, ad.name, ad.argv)
			d, err := a.initialize()
			a.stop(b)
			if err != nil {
				fatal(b, err)
			}
			took[ad.name] = append(took[ad.name], float64(d)/float64(time.Millisecond))
		}
	}
	ours, ref := median(took["ours"]), median(took["ref"])
	b.ReportMetric(ref, "ref-ms")
	if !both(took) {
		b.Logf("spawn → initialize response (median of %d): reference %.1f ms", b.N, ref)
		return
	}
	b.ReportMetric(ours, "ours-ms")
	b.ReportMetric(ref/ours, "ref/ours")
	b.Logf("spawn → initialize response (median of %d): ours %.1f ms, reference %.1f ms: %.1f× faster (target ≥ 30×)", b.N, ours, ref, ref/ours)
}

// BenchmarkAgentSessionRSS: the RSS of the adapter process, and of the
// adapter with every process under it (the CLI), right after the
// session/new response. One op spawns each adapter once.
func BenchmarkAgentSessionRSS(b *testing.B) { forProfiles(b, benchSessionRSS) }

// BenchmarkAgentSessionRSSV2 is BenchmarkAgentSessionRSS for an ACP v2
// client (forV2).
func BenchmarkAgentSessionRSSV2(b *testing.B) { forV2(b, benchSessionRSS) }

func benchSessionRSS(b *testing.B, s setup) {
	bn := newBench(b, 1, 1)
	bn.use(s)
	rss, tree := map[string][]float64{}, map[string][]float64{}
	procs := map[string]int{}
	b.ResetTimer()
	for range b.N {
		for _, ad := range bn.adapters {
			a := bn.start(b, ad.name, ad.argv)
			if _, err := a.open(); err != nil {
				fatal(b, err)
			}
			own, err1 := RSS(a.cmd.Process.Pid)
			all, n, err2 := TreeRSS(a.cmd.Process.Pid)
			a.stop(b)
			if err1 != nil || err2 != nil {
				b.Fatalf("%s: RSS: %v, %v", ad.name, err1, err2)
			}
			rss[ad.name] = append(rss[ad.name], float64(own)/(1<<20))
			tree[ad.name] = append(tree[ad.name], float64(all)/(1<<20))
			procs[ad.name] = n
		}
	}
	ours, ref := median(rss["ours"]), median(rss["ref"])
	oursTree, refTree := median(tree["ours"]), median(tree["ref"])
	b.ReportMetric(ref, "ref-MiB")
	b.ReportMetric(refTree, "ref-tree-MiB")
	if !both(rss) {
		b.Logf("RSS after session/new (median of %d): reference %.1f MiB, with the processes under it %.1f MiB (%d processes)", b.N, ref, refTree, procs["ref"])
		return
	}
	b.ReportMetric(ours, "ours-MiB")
	b.ReportMetric(ref/ours, "ref/ours")
	b.ReportMetric(oursTree, "ours-tree-MiB")
	b.ReportMetric(refTree/oursTree, "ref/ours-tree")
	b.Logf("RSS after session/new (median of %d): ours %.1f MiB, reference %.1f MiB: %.1f× less (target ≥ 8×)", b.N, ours, ref, ref/ours)
	b.Logf("  with the processes under the adapter: ours %.1f MiB (%d processes), reference %.1f MiB (%d processes): %.1f× less",
		oursTree, procs["ours"], refTree, procs["ref"], refTree/oursTree)
}

// BenchmarkAgentTurnCPU: the adapter's own CPU time (user + system, all
// threads; the CLI's is not counted) for a prompt whose turn streams
// 10,000 text deltas, per delta. One op starts each adapter, opens a
// session and plays two such turns: the first ("cold", what a fresh
// session costs, the reference's JIT compiling included) and the second
// ("warm", the steady state). Every turn must stream 10,000
// agent_message_chunk notifications.
func BenchmarkAgentTurnCPU(b *testing.B) { forProfiles(b, benchTurnCPU) }

// BenchmarkAgentTurnCPUV2 is BenchmarkAgentTurnCPU for an ACP v2 client
// (forV2): each turn ends at its idle state_update, which must say
// end_turn.
func BenchmarkAgentTurnCPUV2(b *testing.B) { forV2(b, benchTurnCPU) }

func benchTurnCPU(b *testing.B, s setup) {
	bn := newBench(b, 2, turnDeltas)
	bn.use(s)
	cold, warm := map[string]turnCPU{}, map[string]turnCPU{}
	b.ResetTimer()
	for range b.N {
		for _, ad := range bn.adapters {
			a := bn.start(b, ad.name, ad.argv)
			session, err := a.open()
			if err != nil {
				fatal(b, err)
			}
			for _, sum := range []map[string]turnCPU{cold, warm} {
				m, err := a.turnCPU(b, session)
				if err != nil {
					fatal(b, err)
				}
				sum[ad.name] = sum[ad.name].add(m)
			}
			a.stop(b)
		}
	}
	chunks := float64(b.N * turnDeltas)
	for _, w := range []struct {
		label, turn string
		sum         map[string]turnCPU
	}{{"", "first", cold}, {"warm-", "second (warm)", warm}} {
		ours, ref := w.sum["ours"].perChunk(chunks), w.sum["ref"].perChunk(chunks)
		b.ReportMetric(ref, "ref-"+w.label+"µs/chunk")
		if !both(w.sum) {
			b.Logf("adapter CPU per streamed chunk, %s turn of %d deltas (%d): reference %.2f µs (/proc/PID/stat: %.2f µs)", w.turn, turnDeltas, b.N,
				ref, float64(w.sum["ref"].stat)/float64(time.Microsecond)/chunks)
			continue
		}
		b.ReportMetric(ours, "ours-"+w.label+"µs/chunk")
		b.ReportMetric(ref/ours, "ref/ours-"+w.label+"cpu")
		b.Logf("adapter CPU per streamed chunk, %s turn of %d deltas (%d of each): ours %.2f µs, reference %.2f µs: %.1f× less (target ≥ 10×)",
			w.turn, turnDeltas, b.N, ours, ref, ref/ours)
		b.Logf("  from /proc/PID/stat (10 ms ticks): ours %.2f µs, reference %.2f µs",
			float64(w.sum["ours"].stat)/float64(time.Microsecond)/chunks, float64(w.sum["ref"].stat)/float64(time.Microsecond)/chunks)
	}
}

// turnCPU is the CPU time of an adapter over turns, from the threads'
// schedstat (ns; 0 where the kernel has none) and from /proc/PID/stat
// (10 ms ticks, exited threads included).
type turnCPU struct{ threads, stat time.Duration }

func (t turnCPU) add(u turnCPU) turnCPU { return turnCPU{t.threads + u.threads, t.stat + u.stat} }

// perChunk is the CPU time in µs per chunk: schedstat's when the kernel
// keeps it, else stat's.
func (t turnCPU) perChunk(chunks float64) float64 {
	return float64(cmp.Or(t.threads, t.stat)) / float64(time.Microsecond) / chunks
}

// turnCPU plays one turn on session and returns the adapter's CPU time over
// it. A turn that does not stream turnDeltas chunks is an error of the
// benchmark, reported but not fatal, so the numbers still print.
func (a *adapter) turnCPU(b testing.TB, session string) (turnCPU, error) {
	pid := a.cmd.Process.Pid
	stat0, err := CPUTime(pid)
	if err != nil {
		return turnCPU{}, err
	}
	threads0, terr := ThreadCPUTime(pid)
	n, err := a.prompt(session)
	if err != nil {
		return turnCPU{}, err
	}
	if n != turnDeltas {
		b.Errorf("%s: a turn of %d text deltas streamed %d agent_message_chunk notifications", a.name, turnDeltas, n)
	}
	stat1, err := CPUTime(pid)
	if err != nil {
		return turnCPU{}, err
	}
	m := turnCPU{stat: stat1 - stat0}
	if threads1, err := ThreadCPUTime(pid); err == nil && terr == nil {
		m.threads = threads1 - threads0
	}
	return m, nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
