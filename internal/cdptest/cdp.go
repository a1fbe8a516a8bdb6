// Package cdptest drives headless Chromium from tests: a small Chrome
// DevTools Protocol client that starts the browser with its debugging port
// on 127.0.0.1, talks to the page over a WebSocket (RFC 6455, the client
// side only: masked text frames out, whole messages in) and sends real
// mouse and keyboard input, as a person would. The HTML report's and the
// journal view's browser tests use it.
package cdptest

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/procgroup"
)

// wsConn is a client WebSocket connection.
type wsConn struct {
	c net.Conn
	r *bufio.Reader
}

// dialWS opens the WebSocket at a ws:// address.
func dialWS(ctx context.Context, addr string) (*wsConn, error) {
	u, err := url.Parse(addr)
	if err != nil || u.Scheme != "ws" {
		return nil, fmt.Errorf("not a ws:// address: %q", addr)
	}
	c, err := (&net.Dialer{}).DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 16)
	rand.Read(key)
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
		u.RequestURI(), u.Host, base64.StdEncoding.EncodeToString(key))
	r := bufio.NewReaderSize(c, 1<<16)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		c.Close()
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	return &wsConn{c: c, r: r}, nil
}

// writeText sends one masked text frame.
func (w *wsConn) writeText(p []byte) error {
	hdr := []byte{0x81}
	switch n := len(p); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	mask := make([]byte, 4)
	rand.Read(mask)
	hdr = append(hdr, mask...)
	body := make([]byte, len(p))
	for i, b := range p {
		body[i] = b ^ mask[i%4]
	}
	_, err := w.c.Write(append(hdr, body...))
	return err
}

// readMessage returns the next whole text or binary message.
func (w *wsConn) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(w.r, h[:]); err != nil {
			return nil, err
		}
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(w.r, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(w.r, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		if h[1]&0x80 != 0 || n > 64<<20 {
			return nil, errors.New("websocket: a masked or oversized frame from the server")
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(w.r, p); err != nil {
			return nil, err
		}
		switch h[0] & 0x0f {
		case 0x8:
			return nil, io.EOF
		case 0x9, 0xa: // ping, pong: Chromium sends none unasked
			continue
		}
		msg = append(msg, p...)
		if h[0]&0x80 != 0 {
			return msg, nil
		}
	}
}

// Page is a DevTools session on one page.
type Page struct {
	t  testing.TB
	ws *wsConn
	id int
	// events holds the methods of the events seen since the last call of
	// WaitEvent.
	events []string
}

// Call sends a command and returns its result, failing the test on an
// error; events that arrive meanwhile are noted.
func (p *Page) Call(method string, params any, result any) {
	p.t.Helper()
	p.id++
	req, _ := json.Marshal(map[string]any{"id": p.id, "method": method, "params": params})
	p.ws.c.SetDeadline(time.Now().Add(30 * time.Second))
	if err := p.ws.writeText(req); err != nil {
		p.t.Fatalf("cdp %s: %v", method, err)
	}
	for {
		b, err := p.ws.readMessage()
		if err != nil {
			p.t.Fatalf("cdp %s: %v", method, err)
		}
		var m struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(b, &m); err != nil {
			p.t.Fatalf("cdp %s: %v", method, err)
		}
		switch {
		case m.Method != "":
			p.events = append(p.events, m.Method)
		case m.ID != p.id:
		case m.Error != nil:
			p.t.Fatalf("cdp %s: %s", method, m.Error.Message)
		default:
			if result != nil {
				if err := json.Unmarshal(m.Result, result); err != nil {
					p.t.Fatalf("cdp %s: %v", method, err)
				}
			}
			return
		}
	}
}

// WaitEvent waits until the page sends the event method.
func (p *Page) WaitEvent(method string) {
	p.t.Helper()
	p.ws.c.SetDeadline(time.Now().Add(30 * time.Second))
	for {
		for _, e := range p.events {
			if e == method {
				p.events = nil
				return
			}
		}
		b, err := p.ws.readMessage()
		if err != nil {
			p.t.Fatalf("waiting for %s: %v", method, err)
		}
		var m struct{ Method string }
		json.Unmarshal(b, &m)
		if m.Method != "" {
			p.events = append(p.events, m.Method)
		}
	}
}

// Open loads a page and waits for its load event (its script has run).
func (p *Page) Open(pageURL string) {
	p.t.Helper()
	p.events = nil
	p.Call("Page.navigate", map[string]any{"url": pageURL}, nil)
	p.WaitEvent("Page.loadEventFired")
}

// Eval runs a JavaScript expression in the page and decodes its value
// (returned by value, so a plain object or array arrives as JSON).
func (p *Page) Eval(expr string, v any) {
	p.t.Helper()
	var r struct {
		Result           struct{ Value json.RawMessage }
		ExceptionDetails *struct{ Text string }
	}
	p.Call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r)
	if r.ExceptionDetails != nil {
		p.t.Fatalf("eval %s: %s", expr, r.ExceptionDetails.Text)
	}
	if v != nil {
		if err := json.Unmarshal(r.Result.Value, v); err != nil {
			p.t.Fatalf("eval %s: %v (%s)", expr, err, r.Result.Value)
		}
	}
}

// Click scrolls the first element matching selector into view, as a
// person scrolls to it, and clicks its centre with the mouse.
func (p *Page) Click(selector string) {
	p.t.Helper()
	var at struct{ X, Y float64 }
	p.Eval(fmt.Sprintf(`(function () { var e = document.querySelector(%q); e.scrollIntoView({block: "center"});
		var r = e.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`, selector), &at)
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		p.Call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": at.X, "y": at.Y, "button": "left", "clickCount": 1}, nil)
	}
}

// Choose focuses a <select> (as Tab would) and types text, which picks the
// first option starting with it, as typing on a closed list does.
func (p *Page) Choose(selector, text string) {
	p.t.Helper()
	p.Eval(fmt.Sprintf(`document.querySelector(%q).focus(), true`, selector), nil)
	for _, r := range text {
		p.Call("Input.dispatchKeyEvent", map[string]any{"type": "keyDown", "key": string(r), "text": string(r)}, nil)
		p.Call("Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": string(r)}, nil)
	}
}

// Screenshot returns a PNG of what the window shows, without scrolling.
func (p *Page) Screenshot() []byte {
	p.t.Helper()
	var r struct{ Data string }
	p.Call("Page.captureScreenshot", map[string]any{"format": "png"}, &r)
	b, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		p.t.Fatal(err)
	}
	return b
}

// Start starts headless Chromium (a 1400×1000 window) with its
// debugging port on 127.0.0.1 and returns a DevTools session on its page;
// the browser ends with the test.
func Start(t testing.TB, bin string) *Page {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := exec.Command(bin, append(Flags(t), "--remote-debugging-address=127.0.0.1",
		"--remote-debugging-port=0", "about:blank")...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	// Chromium's renderers and helpers are in its group: all of them end,
	// and are reaped, before the test removes the profile they write to.
	g, err := procgroup.Start(cmd, procgroup.WithParentDeath(time.Second))
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cancel()
		g.Stop(exited, 5*time.Second)
		<-exited
		g.Release(5 * time.Second)
	})
	devtoolsLine := regexp.MustCompile(`DevTools listening on (ws://127\.0\.0\.1:\d+)/`)
	base, seen := "", []string{}
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := devtoolsLine.FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
			break
		}
		seen = append(seen, sc.Text())
	}
	if base == "" {
		t.Fatalf("chromium did not open its debugging port:\n%s", strings.Join(seen, "\n"))
	}
	go io.Copy(io.Discard, stderr)
	ws, err := dialWS(ctx, pageTarget(t, base))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.c.Close() })
	p := &Page{t: t, ws: ws}
	p.Call("Page.enable", map[string]any{}, nil)
	return p
}

// pageTarget is the WebSocket address of the browser's first page.
func pageTarget(t testing.TB, base string) string {
	t.Helper()
	resp, err := http.Get("http" + strings.TrimPrefix(base, "ws") + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var targets []struct{ Type, WebSocketDebuggerURL string }
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		t.Fatal(err)
	}
	for _, tg := range targets {
		if tg.Type == "page" && tg.WebSocketDebuggerURL != "" {
			return tg.WebSocketDebuggerURL
		}
	}
	t.Fatalf("chromium lists no page: %+v", targets)
	return ""
}

// NoChromium says what to do when chromium is not on PATH, and whether
// that fails the test: under CI=true it does, since a browser test that
// skips in CI tests nothing.
func NoChromium(ci string) (fail bool, msg string) {
	return ci == "true", `chromium is not installed, so the page cannot be opened in a browser: run "make deps" as root ` +
		`(it installs Debian's chromium), or "sudo apt-get install -y chromium", or put a Chromium named chromium on PATH`
}

// Bin finds Debian's chromium; without it the test fails under CI=true
// and is skipped elsewhere.
func Bin(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err == nil {
		return bin
	}
	fail, msg := NoChromium(os.Getenv("CI"))
	if fail {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Flags run headless Chromium as root can (no sandbox), in a 1400×1000
// window, without reaching the network.
func Flags(t testing.TB) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--force-color-profile=srgb",
		"--hide-scrollbars", "--user-data-dir=" + t.TempDir(), "--window-size=1400,1000"}
}
