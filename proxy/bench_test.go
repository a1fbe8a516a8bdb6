package proxy_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/testroot"
)

// The benchmarks measure airwire record against a direct pipe to the same
// agent, in the same run, and report ratios: the machines are noisy.
// Run them with `make bench` (go test -run '^$' -bench . -benchtime 1x).

var benchAgent struct {
	once sync.Once
	path string
	err  error
}

// buildBenchBins returns airwire (testroot.Binary) and the test agent,
// built once.
func buildBenchBins(b *testing.B) (string, string) {
	b.Helper()
	airwire := testroot.Binary(b)
	benchAgent.once.Do(func() {
		dir, err := os.MkdirTemp("", "airwire-bench-")
		if err != nil {
			benchAgent.err = err
			return
		}
		benchAgent.path = filepath.Join(dir, "agent")
		if out, err := exec.Command("go", "build", "-o", benchAgent.path, "./testdata/agent").CombinedOutput(); err != nil {
			benchAgent.err = fmt.Errorf("build ./testdata/agent: %v\n%s", err, out)
		}
	})
	if benchAgent.err != nil {
		b.Fatal(benchAgent.err)
	}
	return airwire, benchAgent.path
}

// pingPong sends n small messages one at a time and returns each round trip.
func pingPong(b *testing.B, cmd *exec.Cmd, n int) []time.Duration {
	b.Helper()
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	r := bufio.NewReader(out)
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"session/update","params":{"sessionId":"s","n":1}}` + "\n")
	rtt := make([]time.Duration, 0, n)
	for i := 0; i < n+200; i++ { // the first 200 warm up
		t0 := time.Now()
		if _, err := in.Write(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := r.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
		if i >= 200 {
			rtt = append(rtt, time.Since(t0))
		}
	}
	sort.Slice(rtt, func(i, j int) bool { return rtt[i] < rtt[j] })
	return rtt
}

func pct(d []time.Duration, p float64) time.Duration { return d[int(float64(len(d)-1)*p)] }

// BenchmarkRecordLatency: ping-pong of 10,000 small messages through an echo
// agent, direct and through airwire record (journal on, redaction on).
func BenchmarkRecordLatency(b *testing.B) {
	airwire, agent := buildBenchBins(b)
	const n = 10000
	for i := 0; i < b.N; i++ {
		direct := pingPong(b, exec.Command(agent, "echo"), n)
		j := filepath.Join(b.TempDir(), "j.jsonl")
		proxied := pingPong(b, exec.Command(airwire, "record", "-q", "--journal", j, "--", agent, "echo"), n)
		b.ReportMetric(float64(pct(direct, .5).Microseconds()), "direct-p50-µs")
		b.ReportMetric(float64(pct(direct, .99).Microseconds()), "direct-p99-µs")
		b.ReportMetric(float64(pct(proxied, .5).Microseconds()), "record-p50-µs")
		b.ReportMetric(float64(pct(proxied, .99).Microseconds()), "record-p99-µs")
		b.ReportMetric(float64((pct(proxied, .5) - pct(direct, .5)).Microseconds()), "added-p50-µs")
		b.ReportMetric(float64((pct(proxied, .99) - pct(direct, .99)).Microseconds()), "added-p99-µs")
	}
}

// pushThrough writes total bytes of 4 KiB JSON lines into cmd's stdin and
// returns the time until cmd exits.
func pushThrough(b *testing.B, cmd *exec.Cmd, total int64) time.Duration {
	b.Helper()
	line := bytes.Repeat([]byte("x"), 4096)
	copy(line, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","text":"`)
	copy(line[4096-4:], "\"}}\n")
	block := bytes.Repeat(line, 64) // 256 KiB per write
	in, _ := cmd.StdinPipe()
	cmd.Stdout = io.Discard
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	for sent := int64(0); sent < total; sent += int64(len(block)) {
		if _, err := in.Write(block); err != nil {
			b.Fatal(err)
		}
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatal(err)
	}
	return time.Since(t0)
}

// BenchmarkRecordThroughput: 1 GiB of 4 KiB lines into a sink agent, direct
// and through airwire record (every line parsed, redaction-scanned and
// journaled to disk).
func BenchmarkRecordThroughput(b *testing.B) {
	airwire, agent := buildBenchBins(b)
	total := int64(1 << 30)
	if testing.Short() {
		total = 64 << 20
	}
	for i := 0; i < b.N; i++ {
		direct := pushThrough(b, exec.Command(agent, "sink"), total)
		j := filepath.Join(b.TempDir(), "j.jsonl")
		proxied := pushThrough(b, exec.Command(airwire, "record", "-q", "--journal", j, "--", agent, "sink"), total)
		mb := float64(total) / (1 << 20)
		b.ReportMetric(mb/direct.Seconds(), "direct-MiB/s")
		b.ReportMetric(mb/proxied.Seconds(), "record-MiB/s")
		b.ReportMetric(direct.Seconds()/proxied.Seconds(), "ratio")
	}
}

// TestMain removes the airwire binary the benchmarks built.
func TestMain(m *testing.M) { os.Exit(testroot.RunTests(m)) }
