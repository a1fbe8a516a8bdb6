// Package redact holds airwire's before-save hook: it replaces secrets in
// what the recorder is about to write, never in what it forwards.
//
// A secret becomes "<redacted:" + 8 hex digits + ">": the start of an
// HMAC-SHA256 of the secret under a random key that each Redactor (each
// journal) draws in New and never writes anywhere. Within one journal the
// same secret always maps to the same token, so traffic can still be
// matched after redaction; the token cannot be reversed with a dictionary,
// and tokens of two journals cannot be compared. Three things are secrets:
//
//   - string values of JSON members whose name looks secret (apiKey, token,
//     authorization, password, secret, cookie, …; see SecretKey);
//   - strings shaped like keys: "sk-ant-…" and the credential after "Bearer ";
//   - the values of secret-looking environment variables (see SecretEnv),
//     wherever they appear.
//
// Redaction never breaks JSON: replacements happen inside string values and
// the tokens hold no character that needs escaping.
package redact

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/lookup"
)

// Redactor finds and replaces secrets. The zero value is not usable; call New.
type Redactor struct {
	mu     sync.RWMutex
	values [][]byte // secret values from the environment and Add, longest first
	key    []byte   // the HMAC key of Token; never leaves the Redactor
}

// Option configures New.
type Option func(*Redactor)

// WithEnv treats the values of secret-looking variables in environ
// (KEY=VALUE pairs) as secrets. Values shorter than 6 bytes are ignored: they
// would match everywhere.
func WithEnv(environ []string) Option {
	return func(r *Redactor) {
		for _, kv := range environ {
			k, v, ok := strings.Cut(kv, "=")
			if ok && len(v) >= 6 && SecretEnv(k) {
				r.values = append(r.values, []byte(v))
			}
		}
	}
}

// WithValues treats each given value as a secret.
func WithValues(vals ...string) Option {
	return func(r *Redactor) {
		for _, v := range vals {
			if len(v) >= 6 {
				r.values = append(r.values, []byte(v))
			}
		}
	}
}

// New returns a Redactor with a fresh random key.
func New(opts ...Option) *Redactor {
	r := &Redactor{key: make([]byte, 32)}
	_, _ = rand.Read(r.key) // crypto/rand.Read never fails (Go 1.24+)
	for _, o := range opts {
		o(r)
	}
	sort.Slice(r.values, func(i, j int) bool { return len(r.values[i]) > len(r.values[j]) })
	return r
}

// Add treats each given value as a secret from now on (values shorter than
// 6 bytes are ignored, as by WithValues): a CLI's gateway headers, known
// once the CLI starts.
func (r *Redactor) Add(vals ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range vals {
		if len(v) >= 6 && !slices.ContainsFunc(r.values, func(b []byte) bool { return string(b) == v }) {
			r.values = append(r.values, []byte(v))
		}
	}
	sort.SliceStable(r.values, func(i, j int) bool { return len(r.values[i]) > len(r.values[j]) })
}

// Token is the replacement for secret: the same for the same secret within
// this Redactor, unrelated to the token another Redactor gives it.
func (r *Redactor) Token(secret []byte) string {
	m := hmac.New(sha256.New, r.key)
	m.Write(secret)
	return "<redacted:" + hex.EncodeToString(m.Sum(nil)[:4]) + ">"
}

var envParts = lookup.Set{
	"KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD",
	"PASSWD", "PASS", "CREDENTIAL", "CREDENTIALS", "AUTH",
	"COOKIE", "PAT", "PRIVATE", "SESSIONKEY",
}

// SecretEnv reports whether an environment variable's name looks secret:
// one of its _-separated parts is KEY, TOKEN, SECRET, PASSWORD, AUTH, … .
func SecretEnv(name string) bool {
	for _, p := range strings.Split(strings.ToUpper(name), "_") {
		if envParts.Has(p) {
			return true
		}
	}
	return false
}

var keyExact = lookup.Set{
	"apikey", "xapikey", "token", "authorization", "proxyauthorization",
	"password", "passwd", "secret", "cookie", "setcookie",
	"credentials", "credential", "privatekey", "authtoken", "bearer",
}

var keySuffixes = []string{"apikey", "secret", "password", "token", "privatekey", "credentials"}

// keyPlural are names ending in a secret suffix that count tokens, not
// carry one (usage fields such as inputTokens, max_tokens).
func countingKey(k string) bool {
	return strings.HasSuffix(k, "tokens") || strings.HasPrefix(k, "max") || strings.HasPrefix(k, "num")
}

// SecretKey reports whether a JSON member name looks like it holds a
// secret: apiKey, api_key, x-api-key, token, accessToken, authorization,
// password, clientSecret, cookie, … . Counters such as inputTokens are not.
func SecretKey(key []byte) bool {
	if len(key) < 5 || len(key) > 64 {
		return false
	}
	var buf [64]byte
	n := 0
	for _, c := range key {
		switch {
		case c == '_' || c == '-' || c == '.':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	k := string(buf[:n])
	if keyExact.Has(k) {
		return true
	}
	if countingKey(k) {
		return false
	}
	for _, s := range keySuffixes {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

type span struct{ start, end int }

// Frame scans a JSON frame (see jsonrpc.Scan) and returns its parsed view
// and the frame with secrets replaced. out aliases frame when n is 0. On a
// scan error it returns the error and frame unchanged: callers then use Text.
func (r *Redactor) Frame(frame []byte) (m jsonrpc.Message, out []byte, n int, err error) {
	var spans []span
	m, err = jsonrpc.Scan(frame, func(key []byte, s, e int) {
		if e > s && SecretKey(key) && !isToken(frame[s:e]) {
			spans = append(spans, span{s, e})
		}
	})
	if err != nil {
		return m, frame, 0, err
	}
	out = frame
	if len(spans) > 0 {
		out = make([]byte, 0, len(frame))
		prev := 0
		for _, sp := range spans {
			out = append(out, frame[prev:sp.start]...)
			out = append(out, r.Token(frame[sp.start:sp.end])...)
			prev = sp.end
		}
		out = append(out, frame[prev:]...)
		n = len(spans)
	}
	out2, n2 := r.Text(out)
	return m, out2, n + n2, nil
}

func isToken(b []byte) bool { return bytes.HasPrefix(b, []byte("<redacted:")) }

var (
	skAnt  = []byte("sk-ant-")
	bearer = []byte("Bearer ")
)

func keyChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

func credChar(c byte) bool {
	return keyChar(c) || c == '.' || c == '~' || c == '+' || c == '/' || c == '='
}

// Text replaces key-shaped strings and environment secrets in b. It returns
// b itself when nothing was found.
func (r *Redactor) Text(b []byte) ([]byte, int) {
	n := 0
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, v := range r.values {
		if bytes.Contains(b, v) {
			c := bytes.Count(b, v)
			b = bytes.ReplaceAll(b, v, []byte(r.Token(v)))
			n += c
		}
	}
	if bytes.Contains(b, skAnt) {
		var k int
		b, k = r.replaceShaped(b, skAnt, 0, keyChar, 8)
		n += k
	}
	if bytes.Contains(b, bearer) {
		var k int
		b, k = r.replaceShaped(b, bearer, len(bearer), credChar, 8)
		n += k
	}
	return b, n
}

// replaceShaped replaces every run that starts with prefix and goes on with
// chars; keep bytes of the prefix stay in clear ("Bearer ").
func (r *Redactor) replaceShaped(b, prefix []byte, keep int, chars func(byte) bool, minLen int) ([]byte, int) {
	var out []byte
	n, prev, i := 0, 0, 0
	for {
		j := bytes.Index(b[i:], prefix)
		if j < 0 {
			break
		}
		s := i + j
		e := s + len(prefix)
		for e < len(b) && chars(b[e]) {
			e++
		}
		if e-(s+keep) < minLen || (s > 0 && keep == 0 && keyChar(b[s-1])) {
			i = s + len(prefix)
			continue
		}
		out = append(out, b[prev:s+keep]...)
		out = append(out, r.Token(b[s+keep:e])...)
		prev, i = e, e
		n++
	}
	if n == 0 {
		return b, 0
	}
	return append(out, b[prev:]...), n
}

// Argv redacts each argument.
func (r *Redactor) Argv(argv []string) ([]string, int) {
	out := make([]string, len(argv))
	n := 0
	for i, a := range argv {
		b, k := r.Text([]byte(a))
		out[i], n = string(b), n+k
	}
	return out, n
}
