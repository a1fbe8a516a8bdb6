package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/airwire/airwire/internal/journal"
)

// sseRead is the read size of an SSE response: small, so a slow stream's
// events are forwarded as soon as they arrive.
const sseRead = 16 << 10

// endError is how a response body stopped early: the CLI (or the end of the
// recording) cut it, or the model API's side broke.
type endError struct {
	err     error
	fromCLI bool
}

// respond journals and forwards the response head, then its body, then
// journals how it ended. A model API that breaks mid-response makes the
// CLI's connection break too.
func (m *ModelProxy) respond(ctx context.Context, w http.ResponseWriter, x *exchange, resp *http.Response) {
	h := resp.Header.Clone()
	removeHop(h)
	hdr, n := journalHeaders(h, x.route.secret)
	head := marshalPlain(struct {
		Status  int                 `json:"status"`
		Headers map[string][]string `json:"headers"`
	}{resp.StatusCode, hdr})
	e := x.entry(journal.KindMsg, journal.DirModel)
	e.Redacted = n
	m.r.model(e, itemModelHead, head)
	for k, v := range h {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	var end *endError
	switch {
	case isSSE(resp.Header):
		end = m.streamSSE(w, x, resp.Body)
	case encoded(resp.Header):
		end = m.streamEncoded(w, x, resp.Body)
	default:
		end = m.copyBody(w, x, resp)
	}
	switch {
	case end == nil:
		m.end(x, journal.ReasonComplete, fmt.Sprintf("complete: %d response body bytes", x.bytes))
	case end.fromCLI || ctx.Err() != nil || errors.Is(end.err, context.Canceled):
		m.end(x, journal.ReasonCancelled, "the CLI closed the connection: "+end.err.Error())
	default:
		m.end(x, journal.ReasonDropped, "the model API's connection broke: "+end.err.Error())
		panic(http.ErrAbortHandler) // cut the CLI's connection the same way
	}
}

func isSSE(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "text/event-stream" && !encoded(h)
}

// copyBody forwards a non-SSE body: up to the limit it is read whole and
// journaled as one entry before it is forwarded; the rest of a larger one
// streams through.
func (m *ModelProxy) copyBody(w http.ResponseWriter, x *exchange, resp *http.Response) *endError {
	body, whole, rerr := readCapped(resp.Body, m.maxBody)
	if len(body) > 0 || !whole {
		m.body(x.entry(journal.KindMsg, journal.DirModel), body, whole && rerr == nil, resp.ContentLength, resp.Header)
	}
	if end := m.forward(w, x, body); end != nil {
		return end
	}
	if rerr != nil {
		return &endError{err: rerr}
	}
	if whole {
		return nil
	}
	buf := make([]byte, chunkSize)
	for {
		n, err := resp.Body.Read(buf)
		if end := m.forward(w, x, buf[:n]); end != nil {
			return end
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &endError{err: err}
		}
	}
}

// streamEncoded forwards a content-encoded body (gzip, br, …) as it
// arrives, each read journaled as sent (one non_json entry per read, before
// it is forwarded): it may be a compressed event stream.
func (m *ModelProxy) streamEncoded(w http.ResponseWriter, x *exchange, body io.Reader) *endError {
	buf := make([]byte, sseRead)
	for {
		n, err := body.Read(buf)
		if n > 0 {
			e := x.entry(journal.KindNonJSON, journal.DirModel)
			e.Reason, e.Bytes = journal.ReasonBodyEncoded, n
			m.r.model(e, itemModelEvent, buf[:n])
			if end := m.forward(w, x, buf[:n]); end != nil {
				return end
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &endError{err: err}
		}
	}
}

// forward writes b to the CLI and flushes.
func (m *ModelProxy) forward(w http.ResponseWriter, x *exchange, b []byte) *endError {
	if len(b) == 0 {
		return nil
	}
	n, err := w.Write(b)
	x.bytes += int64(n)
	if err == nil {
		err = http.NewResponseController(w).Flush()
	}
	if err != nil {
		return &endError{err: err, fromCLI: true}
	}
	return nil
}

// streamSSE forwards an event stream event by event: each complete event
// block is queued to the journal, then written to the CLI and flushed. An
// event block over the limit ends journaling for this response; its bytes
// and the rest still stream through.
func (m *ModelProxy) streamSSE(w http.ResponseWriter, x *exchange, body io.Reader) *endError {
	buf := make([]byte, sseRead)
	var pending []byte
	journaling := true
	for {
		n, rerr := body.Read(buf)
		chunk := buf[:n]
		if !journaling {
			if end := m.forward(w, x, chunk); end != nil {
				return end
			}
		} else if n > 0 {
			pending = append(pending, chunk...)
			done := 0
			for {
				k := sseBlockEnd(pending[done:])
				if k < 0 {
					break
				}
				m.r.model(x.entry(journal.KindMsg, journal.DirModel), itemModelEvent, pending[done:done+k])
				done += k
			}
			if end := m.forward(w, x, pending[:done]); end != nil {
				return end
			}
			pending = pending[:copy(pending, pending[done:])]
			if len(pending) > m.maxBody {
				e := x.entry(journal.KindNonJSON, journal.DirModel)
				e.Reason, e.Bytes = journal.ReasonSSETooLong, len(pending)
				m.r.model(e, itemModelEvent, pending[:min(len(pending), modelPrefixKeep)])
				journaling = false
				if end := m.forward(w, x, pending); end != nil {
					return end
				}
				pending = nil
			}
		}
		if rerr != nil {
			if len(pending) > 0 {
				e := x.entry(journal.KindNonJSON, journal.DirModel)
				e.Reason, e.Bytes = journal.ReasonSSETail, len(pending)
				m.r.model(e, itemModelEvent, pending)
				if end := m.forward(w, x, pending); end != nil {
					return end
				}
			}
			if rerr == io.EOF {
				return nil
			}
			return &endError{err: rerr}
		}
	}
}

// sseBlockEnd returns the length of the first complete event block in b
// (through its blank line), or -1. Lines end in LF or CRLF.
func sseBlockEnd(b []byte) int {
	lf := bytes.Index(b, []byte("\n\n"))
	crlf := bytes.Index(b, []byte("\r\n\r\n"))
	switch {
	case lf < 0 && crlf < 0:
		return -1
	case crlf < 0 || (lf >= 0 && lf < crlf):
		return lf + 2
	}
	return crlf + 4
}
