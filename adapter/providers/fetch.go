package providers

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
)

// param is one query parameter; a page's params come in order.
type param struct{ name, value string }

// pageParser reads one listing page: its ids, the params of the next page
// (nil for none) and false for a body it does not understand.
type pageParser func(page map[string]json.RawMessage) (ids []string, next []param, ok bool)

// lister reads one listing endpoint page by page.
type lister struct {
	client  *http.Client
	headers http.Header
	parse   pageParser
}

// pages reads endpoint from first on, at most maxListingPages pages, and
// keeps what it read when the gateway has still more. listed is false
// when a page answers 4xx: the gateway has no listing, nothing is
// narrowed.
func (l lister) pages(parent context.Context, endpoint string, first []param) (ids []string, listed bool, err error) {
	u, err := parseHTTPURL(endpoint)
	if err != nil {
		return nil, false, &ListingError{msg: "Model listing failed: Invalid URL", cause: err}
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	fail := func(reason string, cause error) error {
		return &ListingError{msg: "Model listing GET " + path + " " + reason, cause: cause}
	}
	if pw, _ := u.User.Password(); u.User.Username() != "" || pw != "" {
		// The reference's fetch refuses such a URL (and repeats it in its
		// error); Go's client would send the credentials as Basic auth.
		return nil, false, fail("cannot be sent: the base URL carries credentials", nil)
	}
	ctx, cancel := context.WithTimeout(parent, listingTimeout)
	defer cancel()
	ids = []string{}
	for page, query := 0, first; page < maxListingPages && query != nil; page++ {
		status, body, over, err := l.get(ctx, withQuery(u, query))
		if err != nil {
			return nil, false, fail("failed: "+failureReason(parent, ctx, err), err)
		}
		if status >= 400 && status < 500 {
			return nil, false, nil
		}
		if status < 200 || status > 299 {
			return nil, false, fail("returned "+strconv.Itoa(status)+": "+truncateUTF16(bodyText(body), maxReportedBody), nil)
		}
		var parsed map[string]json.RawMessage
		pageIDs, next, ok := []string(nil), []param(nil), false
		if !over && json.Unmarshal([]byte(bodyText(body)), &parsed) == nil {
			pageIDs, next, ok = l.parse(parsed)
		}
		if !ok {
			return nil, false, fail("returned an unexpected body", nil)
		}
		ids, query = append(ids, pageIDs...), next
	}
	return ids, true, nil
}

// get sends one GET and reads its answer.
func (l lister) get(ctx context.Context, target string) (status int, body []byte, over bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, nil, false, err
	}
	req.Header = l.headers.Clone()
	resp, err := l.client.Do(req)
	if err != nil {
		return 0, nil, false, err
	}
	defer resp.Body.Close()
	body, over, err = readBody(resp.Body)
	if err != nil {
		return 0, nil, false, errors.Join(errRead, err)
	}
	return resp.StatusCode, body, over, nil
}

// listingHeaders are the headers of a listing request: the bearer
// placeholder the CLI sends, JSON, then the protocol's own (name, value
// pairs), and the provider headers last, which win over them matched
// case-insensitively, the way ANTHROPIC_CUSTOM_HEADERS overrides the CLI's
// headers. A header that cannot be sent is named, never its value.
func listingHeaders(provider []Header, protocol ...string) (http.Header, error) {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+AuthPlaceholder)
	h.Set("Accept", "application/json")
	for i := 0; i+1 < len(protocol); i += 2 {
		h.Set(protocol[i], protocol[i+1])
	}
	for _, ph := range provider {
		value, ok := headerValue(ph.Value)
		if !isToken(ph.Name) || !ok {
			return nil, &ListingError{msg: `Model listing cannot send the invalid header "` + ph.Name + `"`}
		}
		h.Set(ph.Name, value)
	}
	return h, nil
}

// isToken reports whether name is an HTTP header name.
func isToken(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// headerValue is v as fetch sends it: trimmed of HTTP white space, one
// byte per character. ok is false for a character past U+00FF, which
// fetch refuses, and for a control character other than a tab, which fetch
// or Go's client refuses.
func headerValue(v string) (string, bool) {
	v = strings.Trim(v, " \t\r\n")
	b := make([]byte, 0, len(v))
	for _, r := range v {
		if r > 0xff || (r < ' ' && r != '\t') || r == 0x7f {
			return "", false
		}
		b = append(b, byte(r))
	}
	return string(b), true
}
