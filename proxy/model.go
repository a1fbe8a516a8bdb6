package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/lookup"
)

// DefaultModelUpstream is the model API used when the agent's environment
// has no ANTHROPIC_BASE_URL.
const DefaultModelUpstream = "https://api.anthropic.com"

// DefaultModelMaxBody is the largest request or response body journaled
// whole (32 MiB, the Messages API's own request limit). A larger body is
// forwarded whole, streamed, and journaled as its first bytes and size.
const DefaultModelMaxBody = 32 << 20

// modelPrefixKeep is how much of an oversized body or event is journaled.
const modelPrefixKeep = 256

// spawnWait bounds how long a model request waits for its CLI's spawn entry
// to be queued (the shim reports the spawn right after starting the CLI).
const spawnWait = 5 * time.Second

// RedactedHeader replaces the value of a credential header (x-api-key,
// authorization, …) in every journal, with or without --no-redact: it is
// neither the secret nor a hash of it.
const RedactedHeader = "<redacted:header>"

// credentialHeaders are never journaled (canonical names).
var credentialHeaders = lookup.Set{
	"X-Api-Key", "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie",
}

// hopHeaders are hop-by-hop (RFC 9110 §7.6.1): not forwarded.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// ModelProxy is the model lane: a loopback HTTP reverse proxy between the
// Claude CLIs and the model API. Each CLI reaches it under its own path
// prefix (/cli-3/v1/messages), which the proxy strips before forwarding to
// the upstream. Bodies pass byte for byte, SSE events are forwarded one by
// one as they arrive, and every part of each exchange is journaled on lane
// model through the Recorder, before it is forwarded.
type ModelProxy struct {
	r         *Recorder
	upstream  *url.URL
	transport http.RoundTripper
	maxBody   int
	srv       *http.Server
	ln        net.Listener
	reqs      atomic.Uint64

	mu     sync.Mutex
	closed bool
	active sync.WaitGroup
}

// ModelOption configures ListenModel.
type ModelOption func(*ModelProxy)

// WithModelMaxBody sets the largest body (and SSE event) journaled whole.
func WithModelMaxBody(n int) ModelOption { return func(m *ModelProxy) { m.maxBody = n } }

// ListenModel starts the model-lane proxy on 127.0.0.1 (a free port),
// forwarding to upstream (a base URL such as https://api.anthropic.com).
func ListenModel(r *Recorder, upstream string, opts ...ModelOption) (*ModelProxy, error) {
	u, err := parseUpstream(upstream)
	if err != nil {
		return nil, err
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DisableCompression = true // never add Accept-Encoding nor decode: bytes stay as sent
	m := &ModelProxy{r: r, upstream: u, transport: t, maxBody: min(DefaultModelMaxBody, r.maxLine)}
	for _, o := range opts {
		o(m)
	}
	m.ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	// The server's own complaints must not reach the editor through our stderr.
	m.srv = &http.Server{Handler: m, ReadHeaderTimeout: 30 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = m.srv.Serve(m.ln) }()
	return m, nil
}

// URL is the proxy's base URL, http://127.0.0.1:PORT; a CLI uses URL()+"/"+proc.
func (m *ModelProxy) URL() string { return "http://" + m.ln.Addr().String() }

// Close stops the proxy: open exchanges are cut (and journaled as
// cancelled) and Close waits until each has queued its last entry.
func (m *ModelProxy) Close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	_ = m.srv.Close()
	m.active.Wait()
}

func (m *ModelProxy) enter() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false
	}
	m.active.Add(1)
	return true
}

// exchange is one HTTP request and its response, as journaled.
type exchange struct {
	proc   string
	route  *procRoute // where its CLI's requests go
	method string     // "POST /v1/messages"
	id     json.RawMessage
	bytes  int64 // response body bytes forwarded
}

func (x *exchange) entry(kind journal.Kind, dir journal.Dir) journal.Entry {
	return journal.Entry{Kind: kind, Lane: journal.LaneModel, Dir: dir, Proc: x.proc, Method: x.method, ID: x.id}
}

// procRoute is where the model lane sends one CLI's requests, and the
// headers whose values it never journals besides credentialHeaders.
type procRoute struct {
	upstream *url.URL // nil: the proxy's own
	secret   lookup.Set
}

// setRoute keeps the route a CLI's shim reported (cliRoute JSON). An
// upstream that is not an http(s) URL is left out, with a note that does
// not repeat it: the proxy's own upstream serves that CLI.
func (r *Recorder) setRoute(proc string, payload []byte) {
	var c cliRoute
	if len(payload) == 0 || json.Unmarshal(payload, &c) != nil {
		return
	}
	pr := &procRoute{}
	for _, h := range c.Secret {
		pr.secret = append(pr.secret, http.CanonicalHeaderKey(h))
	}
	if c.Upstream != "" {
		u, err := parseUpstream(c.Upstream)
		if err != nil {
			r.Note(journal.LaneModel, "", proc+": the model API base URL the agent gave this CLI is not an http(s) URL; its requests go to the recording's")
		}
		pr.upstream = u
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.routes == nil {
		r.routes = map[string]*procRoute{}
	}
	r.routes[proc] = pr
}

// route is CLI proc's route (never nil).
func (r *Recorder) route(proc string) *procRoute {
	r.mu.Lock()
	defer r.mu.Unlock()
	if pr := r.routes[proc]; pr != nil {
		return pr
	}
	return &procRoute{}
}

// parseUpstream parses a model API base URL: http or https, with a host.
func parseUpstream(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the model API base URL %q is not an http(s) URL", s)
	}
	return u, nil
}

// ServeHTTP proxies one request of one CLI.
func (m *ModelProxy) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if !m.enter() {
		http.Error(w, "airwire record: the recording has ended", http.StatusServiceUnavailable)
		return
	}
	defer m.active.Done()
	proc, rest, ok := splitProc(req.URL.EscapedPath())
	if ok {
		ok = m.r.awaitSpawn(proc, spawnWait)
	}
	if !ok {
		m.r.Note(journal.LaneModel, "", fmt.Sprintf("a model API request for %s %s names no CLI process of this recording; answered 404", req.Method, req.URL.Path))
		apiError(w, http.StatusNotFound, "airwire record: the path does not start with a CLI process name (/cli-N/…)")
		return
	}
	x := &exchange{proc: proc, route: m.r.route(proc), method: req.Method + " " + rest, id: json.RawMessage(strconv.FormatUint(m.reqs.Add(1), 10))}
	body, whole, err := readCapped(req.Body, m.maxBody)
	if err != nil {
		m.end(x, journal.ReasonCancelled, "the CLI stopped sending the request body: "+err.Error())
		return
	}
	m.journalRequest(x, req, rest, body, whole)
	out, err := m.outgoing(req, x, rest, body, whole)
	if err != nil {
		m.end(x, journal.ReasonFailed, err.Error())
		apiError(w, http.StatusBadGateway, "airwire record: "+err.Error())
		return
	}
	resp, err := m.transport.RoundTrip(out)
	if err != nil {
		if req.Context().Err() != nil {
			m.end(x, journal.ReasonCancelled, "the CLI closed the connection before the response: "+err.Error())
			return
		}
		m.end(x, journal.ReasonFailed, "the model API could not be reached: "+err.Error())
		apiError(w, http.StatusBadGateway, "airwire record: the model API could not be reached: "+err.Error())
		return
	}
	defer resp.Body.Close()
	m.respond(req.Context(), w, x, resp)
}

// splitProc cuts "/cli-3/v1/messages" into "cli-3" and "/v1/messages"
// (the path as sent, escapes kept).
func splitProc(path string) (proc, rest string, ok bool) {
	p, rest, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	n, found := strings.CutPrefix(p, "cli-")
	if !found || n == "" || strings.Trim(n, "0123456789") != "" {
		return "", "", false
	}
	return p, "/" + rest, true
}

// readCapped reads r up to max bytes. whole says r ended within them; when
// it did not, the bytes read are returned and r holds the rest (or r
// failed: err, with what was read before).
func readCapped(r io.Reader, max int) ([]byte, bool, error) {
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, int64(max)+1))
	if err != nil {
		return buf.Bytes(), false, err
	}
	if n > int64(max) {
		return buf.Bytes(), false, nil
	}
	return buf.Bytes(), true, nil
}

// outgoing builds the upstream request: same method, headers (minus
// hop-by-hop) and body bytes, path rest under the upstream's base path.
func (m *ModelProxy) outgoing(req *http.Request, x *exchange, rest string, body []byte, whole bool) (*http.Request, error) {
	u := *m.upstream
	if x.route.upstream != nil {
		u = *x.route.upstream // the gateway the agent gave this CLI
	}
	u.RawQuery, u.Fragment = "", ""
	target := strings.TrimSuffix(u.String(), "/") + rest
	if req.URL.RawQuery != "" {
		target += "?" + req.URL.RawQuery
	}
	var rd io.Reader = bytes.NewReader(body)
	size := int64(len(body))
	if !whole {
		rd, size = io.MultiReader(rd, req.Body), req.ContentLength
	}
	out, err := http.NewRequestWithContext(req.Context(), req.Method, target, rd)
	if err != nil {
		return nil, err
	}
	out.Header = req.Header.Clone()
	removeHop(out.Header)
	out.ContentLength = size
	if size == 0 && whole {
		out.Body = http.NoBody
	}
	return out, nil
}

func removeHop(h http.Header) {
	for _, f := range h.Values("Connection") {
		for _, k := range strings.Split(f, ",") {
			if k = strings.TrimSpace(k); k != "" {
				h.Del(k)
			}
		}
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
}

// apiError answers in the Messages API's error shape, so the CLI shows the message.
func apiError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": "api_error", "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// journalHeaders is h as a JSON object, the values of credentialHeaders
// and of secret (canonical names) replaced; n counts the replaced values.
func journalHeaders(h http.Header, secret lookup.Set) (out map[string][]string, n int) {
	out = make(map[string][]string, len(h))
	for k, v := range h {
		if c := http.CanonicalHeaderKey(k); credentialHeaders.Has(c) || secret.Has(c) {
			r := make([]string, len(v))
			for i := range r {
				r[i] = RedactedHeader
			}
			v, n = r, n+len(r)
		}
		out[k] = v
	}
	return out, n
}

// journalRequest queues the request head and its body (if any).
func (m *ModelProxy) journalRequest(x *exchange, req *http.Request, rest string, body []byte, whole bool) {
	path := rest
	if req.URL.RawQuery != "" {
		path += "?" + req.URL.RawQuery
	}
	hdr, n := journalHeaders(req.Header, x.route.secret)
	head := marshalPlain(struct {
		Method  string              `json:"method"`
		Path    string              `json:"path"`
		Headers map[string][]string `json:"headers"`
	}{req.Method, path, hdr})
	e := x.entry(journal.KindMsg, journal.DirCLI)
	e.Redacted = n
	m.r.model(e, itemModelHead, head)
	if len(body) == 0 && whole {
		return
	}
	m.body(x.entry(journal.KindMsg, journal.DirCLI), body, whole, req.ContentLength, req.Header)
}

// marshalPlain is json.Marshal without HTML escaping, so header values
// such as RedactedHeader read as they are.
func marshalPlain(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// end queues the exchange's last entry: how it ended.
func (m *ModelProxy) end(x *exchange, reason, detail string) {
	e := x.entry(journal.KindNote, journal.DirModel)
	e.Reason = reason
	if detail != "" {
		e.Text = &detail
	}
	e.Bytes = int(x.bytes)
	m.r.model(e, itemModelHead, nil)
}

// body queues a request or response body: whole, or its first bytes when
// it is over the limit; as sent when it is content-encoded.
func (m *ModelProxy) body(e journal.Entry, b []byte, whole bool, size int64, h http.Header) {
	e.Bytes = len(b)
	if size > 0 {
		e.Bytes = int(size)
	}
	switch {
	case !whole:
		e.Reason, b = journal.ReasonBodyTooLong, b[:min(len(b), modelPrefixKeep)]
	case encoded(h):
		e.Reason = journal.ReasonBodyEncoded
	}
	m.r.model(e, itemModelBody, b)
}

func encoded(h http.Header) bool {
	ce := h.Get("Content-Encoding")
	return ce != "" && !strings.EqualFold(ce, "identity")
}
