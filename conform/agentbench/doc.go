// Package agentbench benchmarks `airwire agent` against the reference
// adapter (@agentclientprotocol/claude-agent-acp under node), both run as
// real processes in the same run on the same fake Claude CLI, and reports
// each measure for both and the ratio reference/ours (spawn →
// initialize response, RSS after session/new, adapter CPU per streamed
// text chunk; session/list on 10,000 stored transcripts, a plain
// first page and an AIR page of 50 cold and warm, and the RSS with that
// index). The *V2 variants of the first three measure an ACP v2 client
// (initialize asking protocolVersion 2, a turn ended by its idle
// state_update): the reference alone (sub-benchmark ref), and both with
// the ratios (ours-vs-ref), which fails when an adapter does not serve v2.
// With AIRWIRE_BENCH_REAL_CLI=1 both adapters run the real Claude CLI of
// make deps against an airwire mock model API instead of the fake CLI
// (realcli_test.go). The benchmarks are in bench_test.go and sessionlist_test.go
// (transcripts_test.go generates the transcripts once and caches them
// under the temporary directory); `make bench` runs them.
// They skip when `make deps` has not installed node and the reference.
//
// The package API is what the benchmarks measure with:
//
//   - RSS, TreeRSS and Descendants read a process's resident set, and that
//     of its process tree, from /proc;
//   - CPUTime (utime + stime, 10 ms ticks, exited threads included) and
//     ThreadCPUTime (schedstat of the live threads, ns) read a process's
//     CPU time;
//   - StreamScript writes the fake CLI script whose every turn streams one
//     text block as a given number of text_delta events (Delta(i) is the
//     text of the i-th).
//
// It reads Linux's /proc only.
package agentbench
