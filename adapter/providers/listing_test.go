package providers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

const secret = "s3cr3t-token-value"

// gateway is a test gateway that answers each request with answer and
// records what it was sent.
type gateway struct {
	mu       sync.Mutex
	requests []*http.Request
	answer   func(w http.ResponseWriter, r *http.Request, n int)
}

func (g *gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.requests = append(g.requests, r)
	n := len(g.requests)
	g.mu.Unlock()
	g.answer(w, r, n)
}

func serve(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, n int)) (*gateway, string) {
	t.Helper()
	g := &gateway{answer: answer}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return g, srv.URL
}

func listingError(t *testing.T, err error) *ListingError {
	t.Helper()
	var le *ListingError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T) is not a *ListingError", err, err)
	}
	if strings.Contains(le.Error(), secret) {
		t.Errorf("the error names a header value: %s", le.Error())
	}
	return le
}

// An anthropic gateway is read page by page, after_id following last_id,
// with the CLI's auth placeholder and the Models API's headers, and only
// the non-blank string ids of its entries are kept.
func TestListFollowsAnthropicPages(t *testing.T) {
	g, base := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			fmt.Fprint(w, "\ufeff"+`{"data":[{"id":"claude-opus-5-5"},{"id":" "},{"id":5},"x",null],"has_more":true,"last_id":"m~1 *é"}`)
			return
		}
		fmt.Fprint(w, `{"data":[{"id":"claude-sonnet-5"}],"has_more":false,"last_id":"z"}`)
	})
	c := &Config{APIType: "anthropic", BaseURL: base + "/gw//", Listed: []string{"stale"}, RegionPrefix: "eu"}
	if err := List(context.Background(), nil, c); err != nil {
		t.Fatal(err)
	}
	if !c.Narrow || c.RegionPrefix != "" || !reflect.DeepEqual(c.Listed, []string{"claude-opus-5-5", "claude-sonnet-5"}) {
		t.Fatalf("got %+v", c)
	}
	if len(g.requests) != 2 {
		t.Fatalf("%d requests", len(g.requests))
	}
	wantQueries := []string{"limit=1000", "limit=1000&after_id=m%7E1+*%C3%A9"}
	for i, r := range g.requests {
		if r.URL.Path != "/gw/v1/models" || r.URL.RawQuery != wantQueries[i] {
			t.Errorf("request %d: %s?%s", i, r.URL.Path, r.URL.RawQuery)
		}
		h := r.Header
		if h.Get("Authorization") != "Bearer acp-proxy" || h.Get("Accept") != "application/json" ||
			h.Get("Anthropic-Version") != "2023-06-01" {
			t.Errorf("request %d headers %v", i, h)
		}
	}
}

// Provider headers replace the listing's own, whatever their case, and go
// out trimmed, one byte per character as fetch sends them.
func TestListSendsProviderHeaders(t *testing.T) {
	g, base := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		fmt.Fprint(w, `{"data":[]}`)
	})
	c := &Config{APIType: "anthropic", BaseURL: base, Headers: []Header{
		{"AUTHORIZATION", " Bearer " + secret + "\t"}, {"anthropic-VERSION", "2099-01-01"},
		{"x-team", "café"}, {"X-Team", "air"}, {"x-empty", ""},
	}}
	if err := List(context.Background(), nil, c); err != nil {
		t.Fatal(err)
	}
	if !c.Narrow || c.Listed == nil || len(c.Listed) != 0 {
		t.Errorf("an empty listing narrows to nothing: %+v", c)
	}
	h := g.requests[0].Header
	want := map[string][]string{
		"Authorization": {"Bearer " + secret}, "Anthropic-Version": {"2099-01-01"},
		"X-Team": {"air"}, "X-Empty": {""}, "Accept": {"application/json"},
	}
	for k, v := range want {
		if !reflect.DeepEqual(h[k], v) {
			t.Errorf("%s: %q, want %q", k, h[k], v)
		}
	}
	g.requests = nil
	c.Headers = []Header{{"x-team", "café"}}
	if err := List(context.Background(), nil, c); err != nil {
		t.Fatal(err)
	}
	if got := g.requests[0].Header.Get("X-Team"); got != "caf\xe9" {
		t.Errorf("Latin-1 value sent as %q", got)
	}
}

func TestListRefusesInvalidHeaders(t *testing.T) {
	g, base := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {})
	cases := []struct{ name, value string }{
		{"bad name", "v"},
		{"x-newline", "a\n" + secret},
		{"x-nul", secret + "\x00"},
		{"x-wide", secret + "€"},
		{"", secret},
	}
	for _, tc := range cases {
		for _, apiType := range []string{"anthropic", "bedrock"} {
			c := &Config{APIType: apiType, BaseURL: base, Headers: []Header{{"x-ok", secret}, {tc.name, tc.value}}}
			le := listingError(t, List(context.Background(), nil, c))
			if want := `Model listing cannot send the invalid header "` + tc.name + `"`; le.Error() != want {
				t.Errorf("got %q, want %q", le.Error(), want)
			}
			if c.Narrow {
				t.Errorf("%q narrowed", tc.name)
			}
		}
	}
	if len(g.requests) != 0 {
		t.Errorf("%d requests sent", len(g.requests))
	}
}

// A 4xx answer on any page means the gateway has no listing: nothing is
// narrowed, and providers/set goes on.
func TestListWithoutAListing(t *testing.T) {
	for _, status := range []int{400, 401, 404, 499} {
		_, base := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				fmt.Fprint(w, `{"data":[{"id":"a"}],"has_more":true,"last_id":"a"}`)
				return
			}
			http.Error(w, "no listing here", status)
		})
		for _, apiType := range []string{"anthropic", "bedrock"} {
			c := &Config{APIType: apiType, BaseURL: base}
			if apiType == "bedrock" {
				_, c.BaseURL = serve(t, func(w http.ResponseWriter, r *http.Request, n int) { w.WriteHeader(status) })
			}
			if err := List(context.Background(), nil, c); err != nil || c.Narrow || c.Listed != nil {
				t.Errorf("%s %d: %v %+v", apiType, status, err, c)
			}
		}
	}
}

func TestListFailures(t *testing.T) {
	long := strings.Repeat("é", 499) + "😀" + "tail"
	cases := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"server error", 500, `{"error":"boom"}`, `Model listing GET /v1/models returned 500: {"error":"boom"}`},
		{"long body cut at 500 UTF-16 units", 502, long, "Model listing GET /v1/models returned 502: " + strings.Repeat("é", 499)},
		{"redirect without location", 302, "moved", "Model listing GET /v1/models returned 302: moved"},
		{"not JSON", 200, "<html>", "Model listing GET /v1/models returned an unexpected body"},
		{"no data", 200, `{"models":[]}`, "Model listing GET /v1/models returned an unexpected body"},
		{"data not an array", 200, `{"data":{}}`, "Model listing GET /v1/models returned an unexpected body"},
		{"null", 200, `null`, "Model listing GET /v1/models returned an unexpected body"},
		{"array", 200, `[]`, "Model listing GET /v1/models returned an unexpected body"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, base := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.WriteHeader(tc.status)
				fmt.Fprint(w, tc.body)
			})
			c := &Config{APIType: "anthropic", BaseURL: base, Headers: []Header{{"authorization", secret}}}
			le := listingError(t, List(context.Background(), nil, c))
			if le.Error() != tc.want || c.Narrow {
				t.Errorf("got %q (narrow %v), want %q", le.Error(), c.Narrow, tc.want)
			}
		})
	}
}

// A gateway that always has more pages is read 20 pages deep, and what
// was read is kept.
func TestListStopsAfterTwentyPages(t *testing.T) {
	g, base := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		fmt.Fprintf(w, `{"data":[{"id":"m%d"}],"has_more":true,"last_id":"m%d"}`, n, n)
	})
	c := &Config{APIType: "anthropic", BaseURL: base}
	if err := List(context.Background(), nil, c); err != nil {
		t.Fatal(err)
	}
	if len(g.requests) != 20 || len(c.Listed) != 20 || c.Listed[19] != "m20" || !c.Narrow {
		t.Errorf("%d requests, listed %v", len(g.requests), c.Listed)
	}
}

func TestListNetworkFailures(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	closed := srv.URL
	srv.Close()
	c := &Config{APIType: "anthropic", BaseURL: closed + "/gw", Headers: []Header{{"x-key", secret}}}
	le := listingError(t, List(context.Background(), nil, c))
	if le.Error() != "Model listing GET /gw/v1/models failed: fetch failed" || errors.Unwrap(le) == nil {
		t.Errorf("got %q, cause %v", le.Error(), errors.Unwrap(le))
	}

	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	_, slow := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer func(d time.Duration) { listingTimeout = d }(listingTimeout)
	listingTimeout = 50 * time.Millisecond
	c = &Config{APIType: "bedrock", BaseURL: slow, Headers: []Header{{"x-key", secret}}}
	le = listingError(t, List(context.Background(), nil, c))
	if le.Error() != "Model listing GET /foundation-models failed: The operation was aborted due to timeout" {
		t.Errorf("got %q", le.Error())
	}

	listingTimeout = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	le = listingError(t, List(ctx, nil, c))
	if le.Error() != "Model listing GET /foundation-models failed: This operation was aborted" {
		t.Errorf("got %q", le.Error())
	}
}

func TestListRefusesCredentialsInTheURL(t *testing.T) {
	g, base := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {})
	for _, creds := range []string{"user:" + secret + "@", ":" + secret + "@", "user@"} {
		c := &Config{APIType: "anthropic", BaseURL: strings.Replace(base, "//", "//"+creds, 1) + "/a"}
		le := listingError(t, List(context.Background(), nil, c))
		if le.Error() != "Model listing GET /a/v1/models cannot be sent: the base URL carries credentials" {
			t.Errorf("%s: got %q", creds, le.Error())
		}
	}
	if len(g.requests) != 0 {
		t.Errorf("%d requests sent", len(g.requests))
	}
}

// A bedrock gateway is read in one page of ListFoundationModels; its
// Anthropic models are kept, under the region prefix picked from them.
func TestListBedrock(t *testing.T) {
	page := map[string]any{"modelSummaries": []any{
		map[string]any{"modelId": "anthropic.claude-haiku-5-v1:0"},
		map[string]any{"modelId": "meta.llama-5"},
		map[string]any{"modelId": "eu.anthropic.claude-sonnet-5-v1:0"},
		map[string]any{"modelId": "us.anthropic.claude-opus-5-5-v1:0"},
		map[string]any{"modelId": "eu.anthropic.claude-opus-5-5-v1:0"},
		map[string]any{"name": "no id"},
	}, "nextToken": "ignored"}
	g, base := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		json.NewEncoder(w).Encode(page)
	})
	c := &Config{APIType: "bedrock", BaseURL: base + "/bedrock/"}
	if err := List(context.Background(), nil, c); err != nil {
		t.Fatal(err)
	}
	want := []string{"eu.anthropic.claude-sonnet-5-v1:0", "eu.anthropic.claude-opus-5-5-v1:0"}
	if !c.Narrow || c.RegionPrefix != "eu" || !reflect.DeepEqual(c.Listed, want) {
		t.Errorf("got %+v", c)
	}
	r := g.requests[0]
	if len(g.requests) != 1 || r.URL.Path != "/bedrock/foundation-models" || r.URL.RawQuery != "" ||
		r.Header.Get("Authorization") != "Bearer acp-proxy" || r.Header.Get("Anthropic-Version") != "" {
		t.Errorf("request %s?%s %v", r.URL.Path, r.URL.RawQuery, r.Header)
	}

	bad, badBase := serve(t, func(w http.ResponseWriter, r *http.Request, n int) { fmt.Fprint(w, `{"data":[]}`) })
	le := listingError(t, List(context.Background(), nil, &Config{APIType: "bedrock", BaseURL: badBase}))
	if le.Error() != "Model listing GET /foundation-models returned an unexpected body" || len(bad.requests) != 1 {
		t.Errorf("got %q", le.Error())
	}
}

// A vertex gateway is not listed.
func TestListVertex(t *testing.T) {
	g, base := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {})
	c := vertexConfig
	c.BaseURL, c.Listed, c.Narrow = base, []string{"stale"}, true
	if err := List(context.Background(), nil, &c); err != nil || c.Narrow || c.Listed != nil || len(g.requests) != 0 {
		t.Errorf("%v %+v, %d requests", err, c, len(g.requests))
	}
}

func TestWithQueryKeepsTheBaseQuery(t *testing.T) {
	u, err := parseHTTPURL("https://x/p?z=1&limit=5&y=a+b%20c*~&limit=6&%zz")
	if err != nil {
		t.Fatal(err)
	}
	got := withQuery(u, []param{{"limit", "1000"}, {"after_id", "m~1 *x/é"}})
	const want = "https://x/p?z=1&limit=1000&y=a+b+c*%7E&%25zz=&after_id=m%7E1+*x%2F%C3%A9"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
