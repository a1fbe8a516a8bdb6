package jsonrpc

import (
	"context"
	"encoding/json"
	"testing"
)

// A mapped call's answer, a result or an error, sync or async, is written
// as the map makes it; another call's answer is not touched.
func TestMapResponse(t *testing.T) {
	var c *Conn
	h := HandlerFunc(func(ctx context.Context, r *Request) (any, error) {
		if r.Method == "mapped" || r.Method == "mapped-fail" {
			c.MapResponse(r.ID, func(res json.RawMessage, err error) (any, error) {
				if err != nil {
					return nil, &WireError{Code: -32800, Message: "mapped " + err.Error()}
				}
				return map[string]json.RawMessage{"wrapped": res}, nil
			})
		}
		switch r.Method {
		case "mapped-fail":
			return nil, &WireError{Code: -32603, Message: "boom"}
		case "async":
			c.MapResponse(r.ID, func(res json.RawMessage, err error) (any, error) { return json.RawMessage(`"later"`), nil })
			go func() { _ = c.Respond(r.ID, 1, nil) }()
			return nil, ErrAsyncResponse
		}
		return map[string]int{"a": 1}, nil
	})
	var p *peer
	c, p = newPeer(t, JSONRPC{}, h)
	for _, tc := range []struct{ method, want string }{
		{"mapped", `{"wrapped":{"a":1}}`},
		{"plain", `{"a":1}`},
		{"mapped-fail", `{"code":-32800,"message":"mapped jsonrpc -32603: boom"}`},
		{"async", `"later"`},
	} {
		p.send(`{"jsonrpc":"2.0","id":1,"method":"` + tc.method + `"}`)
		m := p.next()
		got := m["result"]
		if got == nil {
			got = m["error"]
		}
		raw, _ := json.Marshal(got)
		if string(raw) != tc.want {
			t.Errorf("%s answered %s, want %s", tc.method, raw, tc.want)
		}
	}
}
