package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/airwire/airwire/adapter/jsstr"
)

// An organization can restrict which models its gateway serves, and the
// gateway's listing returns only those: `GET /v1/models` for an anthropic
// gateway, `GET /foundation-models` (Bedrock ListFoundationModels) for a
// bedrock one. They are listed once, when the provider is set, and the
// model picker then offers only the listed models (Narrow).
const (
	anthropicLimit   = "1000"
	maxListingPages  = 20
	maxReportedBody  = 500
	maxListingBody   = 16 << 20
	anthropicVersion = "2023-06-01"
)

// listingTimeout bounds a whole listing, every page of it.
var listingTimeout = 10 * time.Second

// bedrockRegionPrefixes are the cross-region inference profile prefixes
// the CLI knows (`eu.anthropic.claude-sonnet-5`), in the order a model id
// is matched against them.
var bedrockRegionPrefixes = []string{"us", "eu", "apac", "jp", "au", "us-gov", "global"}

// ListingError is a gateway listing that failed: a network error, a status
// other than 2xx or 4xx, a body that is not the expected listing, or the
// 10 s timeout. It fails providers/set. The message names the request path
// and the reason, in the reference's words, never a header value; the
// underlying error, if any, is Unwrap's, for logs.
type ListingError struct {
	msg   string
	cause error
}

func (e *ListingError) Error() string { return e.msg }
func (e *ListingError) Unwrap() error { return e.cause }

// List lists the models c's gateway serves and records them in c: Listed
// and Narrow, and for bedrock the RegionPrefix picked from them. A vertex
// gateway is not listed, and a gateway that answers 4xx has no listing:
// both leave Narrow false. client nil is http.DefaultClient; ctx bounds the
// listing on top of its own timeout.
func List(ctx context.Context, client *http.Client, c *Config) error {
	c.Listed, c.Narrow, c.RegionPrefix = nil, false, ""
	if client == nil {
		client = http.DefaultClient
	}
	switch c.APIType {
	case "anthropic":
		ids, listed, err := listAnthropic(ctx, client, c)
		if err != nil || !listed {
			return err
		}
		c.Listed, c.Narrow = ids, true
	case "bedrock":
		ids, listed, err := listBedrock(ctx, client, c)
		if err != nil || !listed {
			return err
		}
		c.RegionPrefix, c.Listed = SelectRegion(ids)
		c.Narrow = true
	}
	return nil
}

// listAnthropic follows the Models API's has_more / last_id pagination.
func listAnthropic(ctx context.Context, client *http.Client, c *Config) ([]string, bool, error) {
	headers, err := listingHeaders(c.Headers, "anthropic-version", anthropicVersion)
	if err != nil {
		return nil, false, err
	}
	l := lister{client: client, headers: headers, parse: anthropicPage}
	first := []param{{"limit", anthropicLimit}}
	return l.pages(ctx, strings.TrimRight(c.BaseURL, "/")+"/v1/models", first)
}

func anthropicPage(page map[string]json.RawMessage) ([]string, []param, bool) {
	data, ok := rawArray(page["data"])
	if !ok {
		return nil, nil, false
	}
	var next []param
	if bytes.Equal(page["has_more"], []byte("true")) {
		if last, ok := rawString(page["last_id"]); ok {
			next = []param{{"limit", anthropicLimit}, {"after_id", last}}
		}
	}
	return stringField(data, "id"), next, true
}

// listBedrock reads the one page of ListFoundationModels and keeps the
// Anthropic models, such as `global.anthropic.claude-sonnet-5-5`.
func listBedrock(ctx context.Context, client *http.Client, c *Config) ([]string, bool, error) {
	headers, err := listingHeaders(c.Headers)
	if err != nil {
		return nil, false, err
	}
	l := lister{client: client, headers: headers, parse: bedrockPage}
	ids, listed, err := l.pages(ctx, strings.TrimRight(c.BaseURL, "/")+"/foundation-models", []param{})
	var kept []string
	for _, id := range ids {
		if strings.Contains(id, "anthropic.") {
			kept = append(kept, id)
		}
	}
	return kept, listed, err
}

func bedrockPage(page map[string]json.RawMessage) ([]string, []param, bool) {
	summaries, ok := rawArray(page["modelSummaries"])
	if !ok {
		return nil, nil, false
	}
	return stringField(summaries, "modelId"), nil, true
}

// RegionPrefix is the cross-region prefix of a Bedrock model id or ARN,
// "" when it has none.
func RegionPrefix(modelID string) string {
	id := strings.ToLower(modelID[strings.LastIndex(modelID, "/")+1:])
	for _, p := range bedrockRegionPrefixes {
		if strings.HasPrefix(id, p+".anthropic.") {
			return p
		}
	}
	return ""
}

// SelectRegion picks the region of listed Bedrock models: global when
// listed, else the prefix of the first id that has one. The ids of other
// prefixes, and those without one, are dropped, so the picker offers only
// models the CLI can call under that prefix; with no prefix at all every
// id is kept.
func SelectRegion(ids []string) (prefix string, kept []string) {
	for _, id := range ids {
		p := RegionPrefix(id)
		if p == "global" {
			prefix = p
			break
		}
		if prefix == "" {
			prefix = p
		}
	}
	kept = []string{}
	for _, id := range ids {
		if prefix == "" || RegionPrefix(id) == prefix {
			kept = append(kept, id)
		}
	}
	return prefix, kept
}

// stringField is the non-blank string field of each entry that has one.
func stringField(entries []json.RawMessage, name string) []string {
	ids := []string{}
	for _, e := range entries {
		var obj map[string]json.RawMessage
		if json.Unmarshal(e, &obj) != nil {
			continue
		}
		if s, ok := rawString(obj[name]); ok && jsstr.Trim(s) != "" {
			ids = append(ids, s)
		}
	}
	return ids
}

func rawArray(raw json.RawMessage) ([]json.RawMessage, bool) {
	var a []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &a) != nil {
		return nil, false
	}
	return a, true
}

func rawString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// errRead marks a failure while reading a response body.
var errRead = errors.New("reading the response body")

// failureReason is what the reference's fetch reports for err: its
// timeout, an abort, a cut response or a request that failed.
func failureReason(parent, ctx context.Context, err error) string {
	switch {
	case parent.Err() != nil:
		return "This operation was aborted"
	case ctx.Err() != nil:
		return "The operation was aborted due to timeout"
	case errors.Is(err, errRead):
		return "terminated"
	}
	return "fetch failed"
}

// truncateUTF16 keeps the first n UTF-16 code units of s, as JavaScript's
// slice does, without splitting a surrogate pair.
func truncateUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r > 0xffff {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// bodyText is a response body as Response.text() decodes it: UTF-8
// without its byte order mark, invalid bytes replaced.
func bodyText(b []byte) string {
	return strings.ToValidUTF8(string(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))), "\uFFFD")
}

// readBody reads at most maxListingBody bytes; over reports the body was
// longer.
func readBody(r io.Reader) (b []byte, over bool, err error) {
	b, err = io.ReadAll(io.LimitReader(r, maxListingBody+1))
	if len(b) > maxListingBody {
		return b[:maxListingBody], true, err
	}
	return b, false, err
}
