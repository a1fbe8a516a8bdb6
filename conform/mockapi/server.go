package mockapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxBodyBytes bounds a request body; a larger one gets a 413.
const MaxBodyBytes = 32 << 20

// Request is what the server was asked and how it answered, passed to the
// hook set with WithRequestHook and written by WithLog.
type Request struct {
	// Seq numbers requests from 1, in arrival order; the request-id header
	// is req_mock_<Seq>. Message ids name what answered: msg_mock_t<turn>_<attempt>
	// for a turn (both from 1), msg_mock_<kind> for a side request.
	Seq    int
	Method string
	Path   string
	Kind   Kind
	// Turn is the index in Script.Turns that answered, or -1.
	Turn int
	// Status is the HTTP status answered; ErrorType is error.type when it
	// is not 200.
	Status    int
	ErrorType string
	// Model, Stream and MaxTokens echo the request body.
	Model     string
	Stream    bool
	MaxTokens int
	// LastUser is the last user message's text (system reminders removed)
	// and tool_result ids, at most 200 characters.
	LastUser string
}

// Server answers Messages API requests from a Script. It is an http.Handler
// and safe for concurrent requests.
type Server struct {
	script *Script
	hook   func(Request)
	log    io.Writer

	mu        sync.Mutex
	seq       int
	attempts  []int // per turn: matching requests so far
	unmatched []Request
	captured  map[string]string // Turn.Capture values taken so far
	// loose is WithLoosePrompts; done marks its turns that answered.
	loose bool
	done  []bool
}

// Option configures a Server.
type Option func(*Server)

// WithRequestHook calls fn once per request, before the answer is written
// (so a hanging stream is reported at once). fn must be safe for concurrent
// calls.
func WithRequestHook(fn func(Request)) Option { return func(s *Server) { s.hook = fn } }

// WithLog writes one line per request to w: sequence, method, path, what
// answered, status.
func WithLog(w io.Writer) Option { return func(s *Server) { s.log = w } }

// New returns a Server for script, which must be valid (see Validate); a nil
// script answers only side requests.
func New(script *Script, opts ...Option) *Server {
	if script == nil {
		script = &Script{}
	}
	s := &Server{script: script, attempts: make([]int, len(script.Turns))}
	for _, o := range opts {
		o(s)
	}
	return s
}

var _ http.Handler = (*Server)(nil)

// ServeHTTP answers POST /v1/messages, POST /v1/messages/count_tokens
// (query strings such as ?beta=true are ignored) and GET /v1/models (the
// script's Models), and 404s anything else.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.seq++
	rec := Request{Seq: s.seq, Method: r.Method, Path: r.URL.Path, Kind: KindOther, Turn: -1}
	s.mu.Unlock()
	w.Header().Set("request-id", fmt.Sprintf("req_mock_%d", rec.Seq))
	w.Header().Set("anthropic-ratelimit-unified-status", "allowed")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.messages(w, r, &rec)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		s.countTokens(w, r, &rec)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models" && len(s.script.Models) > 0:
		s.models(w, r, &rec)
	default:
		s.fail(w, &rec, APIError{Status: 404, Message: fmt.Sprintf("mock-api: no handler for %s %s", r.Method, r.URL.Path)})
	}
}

// readBody reads a bounded body; on failure it answers and returns false.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, rec *Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		s.fail(w, rec, APIError{Status: 413, Message: fmt.Sprintf("mock-api: request body exceeds %d bytes", MaxBodyBytes)})
		return nil, false
	case err != nil:
		s.fail(w, rec, APIError{Status: 400, Message: "mock-api: reading the request body: " + err.Error()})
		return nil, false
	}
	return body, true
}

func (s *Server) countTokens(w http.ResponseWriter, r *http.Request, rec *Request) {
	rec.Kind = KindCountTokens
	body, ok := s.readBody(w, r, rec)
	if !ok {
		return
	}
	rec.Status = http.StatusOK
	s.report(*rec, "")
	writeJSON(w, http.StatusOK, map[string]any{"input_tokens": max(1, len(body)/4)})
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request, rec *Request) {
	body, ok := s.readBody(w, r, rec)
	if !ok {
		return
	}
	var req messagesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.fail(w, rec, APIError{Status: 400, Message: "mock-api: request body is not a Messages request: " + err.Error()})
		return
	}
	u := lastUserMessage(req.Messages)
	rec.Kind, rec.Model, rec.Stream, rec.MaxTokens, rec.LastUser = classify(&req, u), req.Model, req.Stream, req.MaxTokens, u.describe()
	// Message ids name what answered, never the request count: the CLI's
	// side requests (titles, suggestions, checks) come at times of their own.
	rep := reply{id: "msg_mock_" + rec.Kind.String(), model: req.Model, stopReason: "end_turn"}
	if rep.model == "" {
		rep.model = "claude-mock"
	}
	switch rec.Kind {
	case KindTitle:
		if e := s.script.Side.TitleError; e != nil {
			s.fail(w, rec, *e)
			return
		}
		title, _ := json.Marshal(map[string]string{"title": textOrDefault(s.script.Side.Title, "Mock session")})
		rep.blocks = []Block{{Text: string(title)}}
	case KindSuggestion:
		rep.blocks = []Block{{Text: textOrDefault(s.script.Side.Suggestion, s.sideDefault())}}
	case KindSide:
		rep.blocks = []Block{{Text: s.sideDefault()}}
		if req.MaxTokens == 1 {
			rep.stopReason = "max_tokens"
		}
	default:
		turn, attempt, apiErr, matched := s.pick(u)
		rec.Turn = turn
		rep.id = fmt.Sprintf("msg_mock_t%d_%d", turn+1, attempt)
		if !matched && s.loose {
			rep.id, rep.blocks = "msg_mock_nomore", []Block{{Text: NoMoreTurns}}
			break
		}
		if !matched {
			s.failUnmatched(w, rec, "mock-api: no turn matches the last user message: "+u.describe())
			return
		}
		if apiErr != nil {
			s.fail(w, rec, *apiErr)
			return
		}
		t := s.script.Turns[turn]
		vals, err := s.capture(t, u)
		if err != nil {
			s.failUnmatched(w, rec, fmt.Sprintf("mock-api: turn %d: %v: %s", turn, err, u.describe()))
			return
		}
		rep.blocks, rep.stopReason, rep.usage, rep.stream = fill(t.Reply, vals), t.stopReason(), t.Usage, t.Stream
	}
	rec.Status = http.StatusOK
	s.report(*rec, "")
	if !req.Stream {
		writeJSON(w, http.StatusOK, rep.message())
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	w.Header().Set("cache-control", "no-cache")
	w.WriteHeader(http.StatusOK)
	writeStream(w, r.Context().Done(), rep)
}

// failUnmatched answers a main-loop request that the script does not
// cover with a 400 carrying msg, and keeps it for Unmatched.
func (s *Server) failUnmatched(w http.ResponseWriter, rec *Request, msg string) {
	e := APIError{Status: 400, Message: msg}.withDefaults()
	rec.Status, rec.ErrorType = e.Status, e.Type
	s.mu.Lock()
	s.unmatched = append(s.unmatched, *rec) // before the answer, so a caller that got it sees it here
	s.mu.Unlock()
	s.fail(w, rec, e)
}

// capture takes t's Capture values from u and returns every value captured
// so far in the run, this turn's included (see Turn.Capture).
func (s *Server) capture(t Turn, u lastUser) (map[string]string, error) {
	got, err := capture(t.Capture, u)
	if err != nil && !s.loose {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.captured == nil {
		s.captured = map[string]string{}
	}
	for k, v := range got {
		s.captured[k] = v
	}
	vals := make(map[string]string, len(s.captured))
	for k, v := range s.captured {
		vals[k] = v
	}
	return vals, nil
}

// Unmatched returns the main-loop requests that no turn matched so far (each
// was answered 400). A conformance run should fail when it is not empty: the
// scenario's model script does not cover what the agent sent.
func (s *Server) Unmatched() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.unmatched...)
}

func (s *Server) sideDefault() string { return textOrDefault(s.script.Side.Default, "ok") }

// pick finds the first turn whose When holds for u and counts the attempt.
// It returns the scripted error due for this attempt, if any.
// attempt counts the turn's matches from 1.
func (s *Server) pick(u lastUser) (turn, attempt int, apiErr *APIError, matched bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.loose {
		return s.pickLoose(u)
	}
	for i, t := range s.script.Turns {
		if !t.When.matches(u) {
			continue
		}
		n := s.attempts[i]
		s.attempts[i]++
		switch {
		case n < len(t.Errors):
			return i, n + 1, &t.Errors[n], true
		case t.RepeatErrors:
			return i, n + 1, &t.Errors[len(t.Errors)-1], true
		}
		return i, n + 1, nil, true
	}
	return -1, 0, nil, false
}

// fail answers e in the API's error shape and reports it.
func (s *Server) fail(w http.ResponseWriter, rec *Request, e APIError) {
	e = e.withDefaults()
	rec.Status, rec.ErrorType = e.Status, e.Type
	s.report(*rec, e.Message)
	if e.RetryAfter != nil {
		w.Header().Set("retry-after", strconv.Itoa(*e.RetryAfter))
	}
	writeJSON(w, e.Status, map[string]any{"type": "error", "error": map[string]any{"type": e.Type, "message": e.Message}})
}

// report calls the hook and writes the log line.
func (s *Server) report(rec Request, detail string) {
	if s.hook != nil {
		s.hook(rec)
	}
	if s.log == nil {
		return
	}
	answer := rec.Kind.String()
	if rec.Turn >= 0 {
		answer = fmt.Sprintf("turn %d", rec.Turn)
	}
	line := fmt.Sprintf("mock-api: #%d %s %s → %s, %d", rec.Seq, rec.Method, rec.Path, answer, rec.Status)
	if rec.ErrorType != "" {
		line += " " + rec.ErrorType
	}
	if detail != "" {
		line += ": " + strings.TrimPrefix(detail, "mock-api: ")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintln(s.log, strings.ReplaceAll(line, "\n", " "))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, _ := json.Marshal(v)
	w.Header().Set("content-type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// CheckLoopback returns an error unless addr is host:port with host
// 127.0.0.1 (the only address a Server listens on).
func CheckLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("mock-api: address %q: %v (want 127.0.0.1:PORT)", addr, err)
	}
	if host != "127.0.0.1" {
		return fmt.Errorf("mock-api: refusing to listen on %q: only 127.0.0.1 is allowed", addr)
	}
	return nil
}

// Start listens on addr (127.0.0.1:0 when empty; any other host than
// 127.0.0.1 is refused) and serves in the background. It returns the base URL
// to put in ANTHROPIC_BASE_URL and a close func that stops the server and
// ends open streams.
func (s *Server) Start(addr string) (baseURL string, closeFn func() error, err error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if err := CheckLoopback(addr); err != nil {
		return "", nil, err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("mock-api: %w", err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	return "http://" + l.Addr().String(), srv.Close, nil
}

// Serve answers requests on l until it fails or is closed. The caller owns
// l and must make it a loopback listener.
func (s *Server) Serve(l net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	err := srv.Serve(l)
	if errors.Is(err, http.ErrServerClosed) || errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}
