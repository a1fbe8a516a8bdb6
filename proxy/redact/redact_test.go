package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestSecretKey(t *testing.T) {
	for k, want := range map[string]bool{
		"apiKey": true, "api_key": true, "x-api-key": true, "ANTHROPIC_API_KEY": true, "token": true,
		"accessToken": true, "refresh_token": true, "authorization": true, "Authorization": true,
		"password": true, "clientSecret": true, "cookie": true, "authToken": true,
		"inputTokens": false, "max_tokens": false, "outputTokens": false, "cache_read_input_tokens": false,
		"tokenSource": false, "sessionId": false, "text": false, "key": false, "apiKeySource": false,
	} {
		if got := SecretKey([]byte(k)); got != want {
			t.Errorf("SecretKey(%q) = %v, want %v", k, got, want)
		}
	}
}

func TestSecretEnv(t *testing.T) {
	for k, want := range map[string]bool{
		"ANTHROPIC_API_KEY": true, "ANTHROPIC_AUTH_TOKEN": true, "CLAUDE_CODE_OAUTH_TOKEN": true,
		"AWS_SECRET_ACCESS_KEY": true, "GITHUB_TOKEN": true, "DB_PASSWORD": true,
		"HOME": false, "PATH": false, "KEYBOARD_LAYOUT": false, "CLAUDE_CONFIG_DIR": false, "AUTHOR": false,
	} {
		if got := SecretEnv(k); got != want {
			t.Errorf("SecretEnv(%q) = %v, want %v", k, got, want)
		}
	}
}

func TestFrame(t *testing.T) {
	r := New(WithEnv([]string{"ANTHROPIC_API_KEY=sk-test-123456", "HOME=/root", "SHORT_TOKEN=abc"}))
	tests := []struct {
		name     string
		in       string
		gone     []string
		keep     []string
		redacted int
	}{
		{name: "secret key", in: `{"params":{"apiKey":"hunter22","n":1}}`, gone: []string{"hunter22"}, keep: []string{`"n":1`, r.Token([]byte("hunter22"))}, redacted: 1},
		{name: "env value anywhere", in: `{"text":"key is sk-test-123456 ok"}`, gone: []string{"sk-test-123456"}, keep: []string{r.Token([]byte("sk-test-123456"))}, redacted: 1},
		{name: "sk-ant shaped", in: `{"text":"use sk-ant-api03-AbC_dEf-123456789 now"}`, gone: []string{"sk-ant-api03"}, keep: []string{"use <redacted:", "> now"}, redacted: 1},
		{name: "bearer", in: `{"headers":{"x":"Bearer abcdefgh.ijk"}}`, gone: []string{"abcdefgh"}, keep: []string{"Bearer <redacted:"}, redacted: 1},
		{name: "short env values ignored", in: `{"text":"abc"}`, keep: []string{`"abc"`}},
		{name: "counters kept", in: `{"usage":{"inputTokens":5,"max_tokens":"9"}}`, keep: []string{`"max_tokens":"9"`}},
		{name: "nested secret in array", in: `{"a":[{"token":"tok-secret-1"}]}`, gone: []string{"tok-secret-1"}, redacted: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, out, n, err := r.Frame([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(out) {
				t.Fatalf("redacted frame is not JSON: %s", out)
			}
			for _, g := range tt.gone {
				if bytes.Contains(out, []byte(g)) {
					t.Errorf("%q survived: %s", g, out)
				}
			}
			for _, k := range tt.keep {
				if !bytes.Contains(out, []byte(k)) {
					t.Errorf("%q missing: %s", k, out)
				}
			}
			if n != tt.redacted {
				t.Errorf("redacted %d, want %d", n, tt.redacted)
			}
		})
	}
}

func TestSameSecretSameToken(t *testing.T) {
	r := New(WithValues("sk-test-123456"))
	_, a, _, _ := r.Frame([]byte(`{"apiKey":"sk-test-123456"}`))
	b, _ := r.Text([]byte("ANTHROPIC_API_KEY=sk-test-123456"))
	tok := r.Token([]byte("sk-test-123456"))
	if !strings.Contains(string(a), tok) || !strings.Contains(string(b), tok) {
		t.Fatalf("tokens differ: %s / %s", a, b)
	}
	if len(tok) != len("<redacted:")+8+1 {
		t.Fatalf("token %q has the wrong shape", tok)
	}
}

// Add makes a value a secret from then on, as WithValues does at New:
// a value too short to be one is ignored, and adding twice changes nothing.
func TestAddMakesAValueSecret(t *testing.T) {
	r := New()
	const v = "gw-secret-value-4e7d"
	if out, n := r.Text([]byte("k: " + v)); n != 0 || string(out) != "k: "+v {
		t.Fatalf("before Add: %s (%d)", out, n)
	}
	r.Add(v, v, "short")
	out, n := r.Text([]byte("k: " + v + ", short"))
	if n != 1 || string(out) != "k: "+r.Token([]byte(v))+", short" {
		t.Errorf("after Add: %s (%d)", out, n)
	}
}
