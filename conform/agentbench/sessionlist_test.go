package agentbench

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/scenario"
)

// The session/list benchmarks: both adapters list the same
// 10,000 stored transcripts of one project (storedTranscripts), in the
// same run. Targets: the plain first page, and the AIR page of 50 cold
// (the first list after the spawn) and warm (the same list again), each
// ≥ 10× faster than the reference. Run them with `make bench`, or:
//
//	go test -run '^$' -bench AgentSessionList -benchtime 3x ./conform/agentbench/

// storedSessions is how many transcripts the benchmarks list.
const storedSessions = 10000

// listTimes are the session/list wall times of one adapter (ms).
type listTimes struct {
	plain, cold, warm, all []float64
	rss                    []float64 // MiB after cold and warm
	rssAll                 []float64 // MiB after every page was listed
	rows                   int       // rows of every page, summed
}

// BenchmarkAgentSessionList: the wall time of session/list, request to
// response, on 10,000 stored transcripts. One op spawns each adapter
// twice: as a plain client (the first page, the SDK list), then as an AIR
// client with sessionIndex (a page of 50 cold, the same page warm, then
// every page of 200 to the end); the RSS of the adapter is read after the
// warm page and after the last page.
func BenchmarkAgentSessionList(b *testing.B) {
	set, err := storedTranscripts(storedSessions)
	if err != nil {
		b.Fatal(err)
	}
	bn := newBench(b, 1, 1)
	bn.stored = &set
	b.Logf("%d stored transcripts of one project, %.0f MB (cached in %s)", set.count, float64(set.bytes)/1e6, set.projects)
	times := map[string]*listTimes{}
	b.ResetTimer()
	for range b.N {
		for _, ad := range bn.adapters {
			t := times[ad.name]
			if t == nil {
				t = &listTimes{}
				times[ad.name] = t
			}
			if err := bn.listPlain(b, ad, t); err != nil {
				b.Fatal(err)
			}
			if err := bn.listAIR(b, ad, t); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	reportLists(b, times["ours"], times["ref"])
}

// reportLists reports the medians and ratios.
func reportLists(b *testing.B, ours, ref *listTimes) {
	for _, m := range []struct {
		name, what string
		o, r       []float64
	}{
		{"plain", "plain client, first page", ours.plain, ref.plain},
		{"cold", "AIR page of 50, cold", ours.cold, ref.cold},
		{"warm", "AIR page of 50, warm", ours.warm, ref.warm},
	} {
		o, r := median(m.o), median(m.r)
		b.ReportMetric(o, "ours-"+m.name+"-ms")
		b.ReportMetric(r, "ref-"+m.name+"-ms")
		b.ReportMetric(r/o, "ref/ours-"+m.name)
		b.Logf("session/list, %s (median of %d): ours %.2f ms, reference %.1f ms: %.1f× faster (target ≥ 10×)", m.what, len(m.o), o, r, r/o)
	}
	b.Logf("every AIR page of 200 to the end: ours %.0f ms (%d rows), reference %.0f ms (%d rows)", median(ours.all), ours.rows/max(1, len(ours.all)), median(ref.all), ref.rows/max(1, len(ref.all)))
	b.ReportMetric(median(ours.rss), "ours-MiB")
	b.ReportMetric(median(ours.rssAll), "ours-all-MiB")
	b.Logf("RSS after the AIR pages of 50: ours %.1f MiB, reference %.1f MiB; after every page (every transcript indexed): ours %.1f MiB, reference %.1f MiB",
		median(ours.rss), median(ref.rss), median(ours.rssAll), median(ref.rssAll))
}

// listPlain spawns ad as a plain client and times its first page.
func (bn *bench) listPlain(b *testing.B, ad contender, t *listTimes) error {
	a := bn.start(b, ad.name, ad.argv)
	defer a.stop(b)
	if _, err := a.initialize(); err != nil {
		return err
	}
	d, _, err := a.list(map[string]any{"cwd": a.cwd})
	t.plain = append(t.plain, d)
	return err
}

// listAIR spawns ad as an AIR client with sessionIndex and times a page of
// 50 cold and warm, then every page of 200.
func (bn *bench) listAIR(b *testing.B, ad contender, t *listTimes) error {
	a := bn.start(b, ad.name, ad.argv)
	defer a.stop(b)
	caps, err := scenario.ClientCapabilities(scenario.ProfileAir, &scenario.CapabilityChange{AddAir: []string{"sessionIndex"}})
	if err != nil {
		return err
	}
	if _, err := a.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps,
		"clientInfo": map[string]any{"name": "airwire-agentbench", "version": "1.0.0"}}); err != nil {
		return err
	}
	page := func(limit int, cursor string) map[string]any {
		p := map[string]any{"cwd": a.cwd, "_meta": map[string]any{"jetbrains": map[string]any{"air": map[string]any{"version": 1, "list": map[string]any{"limit": limit}}}}}
		if cursor != "" {
			p["cursor"] = cursor
		}
		return p
	}
	for _, into := range []*[]float64{&t.cold, &t.warm} {
		d, n, err := a.list(page(50, ""))
		if err != nil {
			return err
		}
		if n.rows != 50 {
			return fmt.Errorf("%s: an AIR page of 50 holds %d rows", a.name, n.rows)
		}
		*into = append(*into, d)
	}
	rss, err := RSS(a.cmd.Process.Pid)
	if err != nil {
		return err
	}
	t.rss = append(t.rss, float64(rss)/(1<<20))
	start, cursor := time.Now(), ""
	for {
		_, n, err := a.list(page(200, cursor))
		if err != nil {
			return err
		}
		t.rows += n.rows
		if cursor = n.next; cursor == "" {
			break
		}
	}
	t.all = append(t.all, float64(time.Since(start))/float64(time.Millisecond))
	if rss, err = RSS(a.cmd.Process.Pid); err != nil {
		return err
	}
	t.rssAll = append(t.rssAll, float64(rss)/(1<<20))
	return nil
}

// listPage is what a session/list answered: its row count and cursor.
type listPage struct {
	rows int
	next string
}

// list sends session/list and returns its wall time (ms) and page.
func (a *adapter) list(params map[string]any) (float64, listPage, error) {
	start := time.Now()
	r, err := a.call("session/list", params)
	if err != nil {
		return 0, listPage{}, err
	}
	d := float64(r.at.Sub(start)) / float64(time.Millisecond)
	var res struct {
		Sessions   []json.RawMessage `json:"sessions"`
		NextCursor *string           `json:"nextCursor"`
	}
	if err := json.Unmarshal(r.result, &res); err != nil {
		return d, listPage{}, fmt.Errorf("%s: session/list result: %v", a.name, err)
	}
	p := listPage{rows: len(res.Sessions)}
	if res.NextCursor != nil {
		p.next = *res.NextCursor
	}
	return d, p, nil
}
