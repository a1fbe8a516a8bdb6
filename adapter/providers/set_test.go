package providers

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// dataJSON is e's data as the JSON-RPC error carries it.
func dataJSON(t *testing.T, e *ParamError) string {
	t.Helper()
	if e.Data == nil {
		return "null"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e.Data); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}

func paramError(t *testing.T, err error) *ParamError {
	t.Helper()
	var pe *ParamError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ParamError", err, err)
	}
	return pe
}

// Each check of providers/set answers with the reference's message and
// data, in the reference's order, a value named as a template string
// prints it and written back in data as the client sent it.
func TestParseSetRefuses(t *testing.T) {
	const supported = `"supported":["anthropic","bedrock","vertex"]`
	cases := []struct{ name, params, message, data string }{
		{"unknown id", `{"providerId":"backup","apiType":"anthropic","baseUrl":"https://gateway.example.com"}`,
			`Unknown provider ID "backup"; expected "main".`, `{"providerId":"backup"}`},
		{"missing id", `{"apiType":"anthropic","baseUrl":"https://gateway.example.com"}`,
			`Unknown provider ID "undefined"; expected "main".`, `{}`},
		{"numeric id", `{"providerId":1.50,"apiType":"anthropic"}`,
			`Unknown provider ID "1.5"; expected "main".`, `{"providerId":1.5}`},
		{"null id", `{"providerId":null}`,
			`Unknown provider ID "null"; expected "main".`, `{"providerId":null}`},
		{"object id", `{"providerId":{"b":1,"a":"<&>"}}`,
			`Unknown provider ID "[object Object]"; expected "main".`, `{"providerId":{"b":1,"a":"<&>"}}`},
		{"no params", ``, `Unknown provider ID "undefined"; expected "main".`, `{}`},
		{"null params", `null`, `Unknown provider ID "undefined"; expected "main".`, `{}`},
		{"unsupported apiType", `{"providerId":"main","apiType":"openai","baseUrl":"https://gateway.example.com"}`,
			`Unsupported apiType "openai" for provider "main".`, `{"apiType":"openai",` + supported + `}`},
		{"missing apiType", `{"providerId":"main","baseUrl":"https://gateway.example.com"}`,
			`Unsupported apiType "undefined" for provider "main".`, `{` + supported + `}`},
		{"array apiType", `{"providerId":"main","apiType":["anthropic",null,"x"]}`,
			`Unsupported apiType "anthropic,,x" for provider "main".`, `{"apiType":["anthropic",null,"x"],` + supported + `}`},
		{"ftp baseUrl", `{"providerId":"main","apiType":"anthropic","baseUrl":"ftp://gateway.example.com"}`,
			msgBaseURL, `{"baseUrl":"ftp://gateway.example.com"}`},
		{"blank baseUrl", `{"providerId":"main","apiType":"anthropic","baseUrl":"  "}`,
			msgBaseURL, `{"baseUrl":"  "}`},
		{"missing baseUrl", `{"providerId":"main","apiType":"bedrock"}`, msgBaseURL, `{}`},
		{"numeric baseUrl", `{"providerId":"main","apiType":"bedrock","baseUrl":42}`, msgBaseURL, `{"baseUrl":42}`},
		{"headers not an object", `{"providerId":"main","apiType":"anthropic","baseUrl":"https://g.example.com","headers":"x"}`,
			msgHeaders, `null`},
		{"header not a string", `{"providerId":"main","apiType":"anthropic","baseUrl":"https://g.example.com","headers":{"a":1}}`,
			msgHeaders, `null`},
		{"vertex without region", `{"providerId":"main","apiType":"vertex","baseUrl":"https://vertex-gateway.example.com","_meta":{"claudeCode":{"vertex":{"projectId":"airwire-test"}}}}`,
			msgVertex, `null`},
		{"vertex blank project", `{"providerId":"main","apiType":"vertex","baseUrl":"https://v.example.com","_meta":{"claudeCode":{"vertex":{"projectId":"\ufeff ","region":"us-east5"}}}}`,
			msgVertex, `null`},
		{"vertex numeric region", `{"providerId":"main","apiType":"vertex","baseUrl":"https://v.example.com","_meta":{"claudeCode":{"vertex":{"projectId":"p","region":5}}}}`,
			msgVertex, `null`},
		{"vertex without _meta", `{"providerId":"main","apiType":"vertex","baseUrl":"https://v.example.com"}`,
			msgVertex, `null`},
		{"vertex _meta array", `{"providerId":"main","apiType":"vertex","baseUrl":"https://v.example.com","_meta":[1]}`,
			msgVertex, `null`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSet(json.RawMessage(tc.params))
			pe := paramError(t, err)
			if pe.Message != tc.message || pe.Error() != tc.message {
				t.Errorf("message %q, want %q", pe.Message, tc.message)
			}
			if got := dataJSON(t, pe); got != tc.data {
				t.Errorf("data %s, want %s", got, tc.data)
			}
		})
	}
}

func TestParseSetRefusesParamsThatAreNotAnObject(t *testing.T) {
	for _, params := range []string{`[]`, `"main"`, `{"providerId":`, `{} {}`} {
		_, err := ParseSet(json.RawMessage(params))
		if pe := paramError(t, err); pe.Message != "providers/set params must be a JSON object." || pe.Data != nil {
			t.Errorf("%s: %+v", params, pe)
		}
	}
}

// A valid routing keeps the client's values as sent and its header order,
// with array-index names first as JavaScript enumerates them; the last of
// two equal names wins in the place of the first.
func TestParseSetAccepts(t *testing.T) {
	cases := []struct {
		name, params string
		want         Config
	}{
		{"anthropic with headers",
			`{"providerId":"main","apiType":"anthropic","baseUrl":"https://gw.example.com/anthropic/","headers":{"x-b":"1","x-a":"2","7":"n","x-b":"3"}}`,
			Config{APIType: "anthropic", BaseURL: "https://gw.example.com/anthropic/",
				Headers: []Header{{"7", "n"}, {"x-b", "3"}, {"x-a", "2"}}}},
		{"bedrock, null headers, vertex meta ignored",
			`{"providerId":"main","apiType":"bedrock","baseUrl":"http://127.0.0.1:8080","headers":null,"_meta":{"claudeCode":{"vertex":{"projectId":"p","region":"r"}}}}`,
			Config{APIType: "bedrock", BaseURL: "http://127.0.0.1:8080"}},
		{"vertex",
			`{"providerId":"main","apiType":"vertex","baseUrl":"https://vertex-gateway.example.com","headers":{"x-gateway-team":"airwire"},"_meta":{"claudeCode":{"vertex":{"projectId":" airwire-test","region":"us-east5"}}}}`,
			Config{APIType: "vertex", BaseURL: "https://vertex-gateway.example.com",
				Headers:       []Header{{"x-gateway-team", "airwire"}},
				VertexProject: " airwire-test", VertexRegion: "us-east5"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSet(json.RawMessage(tc.params))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestCurrent(t *testing.T) {
	c := Config{APIType: "bedrock", BaseURL: "https://b.example.com", Headers: []Header{{"a", "b"}}}
	want := map[string]string{"apiType": "bedrock", "baseUrl": "https://b.example.com"}
	if got := c.Current(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
}

// Base URLs are judged as the WHATWG URL parser the reference uses judges
// them (the expectations are what Node's URL answers).
func TestValidBaseURL(t *testing.T) {
	cases := map[string]bool{
		"https://gateway.example.com":     true,
		"http://127.0.0.1:8080/anthropic": true,
		" https://x ":                     true,
		"http:x":                          true,
		"HTTPS://X.com":                   true,
		"http:///x":                       true,
		`http:\\x\y`:                      true,
		"http://[::1]:80/":                true,
		"http://user:pw@x/":               true,
		"http://x:":                       true,
		"https://bücher.de/":              true,
		"":                                false,
		"  ":                              false,
		"\ufeff":                          false,
		"http://":                         false,
		"ftp://x":                         false,
		"gateway.example.com":             false,
		"localhost:8080":                  false,
		"http://x:99999":                  false,
		"http://x:8a":                     false,
		"http://a b":                      false,
	}
	for s, want := range cases {
		if got := ValidBaseURL(s); got != want {
			t.Errorf("ValidBaseURL(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestGateway(t *testing.T) {
	cases := []struct {
		name, params string
		cfg          *Config
		ok           bool
		message      string
		data         string
	}{
		{name: "other method", params: `{"methodId":"claude-login"}`},
		{name: "no methodId", params: `{}`},
		{name: "no payload", params: `{"methodId":"gateway"}`, ok: true},
		{name: "null payload", params: `{"methodId":"gateway-bedrock","_meta":{"gateway":null}}`, ok: true},
		{name: "anthropic", ok: true,
			params: `{"methodId":"gateway","_meta":{"gateway":{"baseUrl":"https://gw.example.com","headers":{"x-key":"k","x-n":2}}}}`,
			cfg: &Config{APIType: "anthropic", BaseURL: "https://gw.example.com",
				Headers: []Header{{"x-key", "k"}, {"x-n", "2"}}}},
		{name: "bedrock, null headers", ok: true,
			params: `{"methodId":"gateway-bedrock","_meta":{"gateway":{"baseUrl":"https://br.example.com","headers":null}}}`,
			cfg:    &Config{APIType: "bedrock", BaseURL: "https://br.example.com"}},
		{name: "invalid baseUrl", ok: true, params: `{"methodId":"gateway","_meta":{"gateway":{"baseUrl":"ftp://x"}}}`,
			message: msgGatewayBaseURL, data: `{"baseUrl":"ftp://x"}`},
		{name: "missing baseUrl", ok: true, params: `{"methodId":"gateway","_meta":{"gateway":{}}}`,
			message: msgGatewayBaseURL, data: `{}`},
		{name: "payload not an object", ok: true, params: `{"methodId":"gateway","_meta":{"gateway":"https://x"}}`,
			message: msgGatewayBaseURL, data: `{}`},
		{name: "headers not an object", ok: true,
			params:  `{"methodId":"gateway","_meta":{"gateway":{"baseUrl":"https://x","headers":"k: v"}}}`,
			message: msgGatewayHeaders, data: `null`},
		{name: "params not an object", params: `[1]`,
			message: "authenticate params must be a JSON object.", data: `null`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, ok, err := Gateway(json.RawMessage(tc.params))
			if ok != tc.ok {
				t.Errorf("ok %v, want %v", ok, tc.ok)
			}
			if !reflect.DeepEqual(cfg, tc.cfg) {
				t.Errorf("cfg %+v, want %+v", cfg, tc.cfg)
			}
			if tc.message == "" {
				if err != nil {
					t.Errorf("error %v", err)
				}
				return
			}
			pe := paramError(t, err)
			if pe.Message != tc.message || dataJSON(t, pe) != tc.data {
				t.Errorf("error %q %s, want %q %s", pe.Message, dataJSON(t, pe), tc.message, tc.data)
			}
		})
	}
}

func TestDefault(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want Config
	}{
		{"nothing", nil, Config{APIType: "anthropic", BaseURL: DefaultAnthropicURL}},
		{"anthropic base", map[string]string{"ANTHROPIC_BASE_URL": "http://proxy"},
			Config{APIType: "anthropic", BaseURL: "http://proxy"}},
		{"empty anthropic base", map[string]string{"ANTHROPIC_BASE_URL": ""},
			Config{APIType: "anthropic", BaseURL: ""}},
		{"bedrock", map[string]string{"CLAUDE_CODE_USE_BEDROCK": "1", "CLAUDE_CODE_USE_VERTEX": "1"},
			Config{APIType: "bedrock", BaseURL: DefaultBedrockURL}},
		{"bedrock base", map[string]string{"CLAUDE_CODE_USE_BEDROCK": "0", "ANTHROPIC_BEDROCK_BASE_URL": "http://b"},
			Config{APIType: "bedrock", BaseURL: "http://b"}},
		{"empty bedrock switch", map[string]string{"CLAUDE_CODE_USE_BEDROCK": "", "CLAUDE_CODE_USE_VERTEX": "true"},
			Config{APIType: "vertex", BaseURL: DefaultVertexURL}},
		{"vertex base set empty", map[string]string{"CLAUDE_CODE_USE_VERTEX": "1", "ANTHROPIC_VERTEX_BASE_URL": ""},
			Config{APIType: "vertex", BaseURL: ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Default(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestSameListing(t *testing.T) {
	a := Config{APIType: "anthropic", BaseURL: "https://g", Headers: []Header{{"x-a", "1"}, {"x-b", "2"}},
		Listed: []string{}, Narrow: true}
	cases := []struct {
		name string
		a, b Config
		want bool
	}{
		{"same, headers reordered", a, Config{APIType: "anthropic", BaseURL: "https://g", Headers: []Header{{"x-b", "2"}, {"x-a", "1"}}}, true},
		{"not listed", Config{APIType: "anthropic", BaseURL: "https://g"}, Config{APIType: "anthropic", BaseURL: "https://g"}, false},
		{"rotated token", a, Config{APIType: "anthropic", BaseURL: "https://g", Headers: []Header{{"x-a", "1"}, {"x-b", "3"}}}, false},
		{"name case differs", a, Config{APIType: "anthropic", BaseURL: "https://g", Headers: []Header{{"X-A", "1"}, {"x-b", "2"}}}, false},
		{"extra header", a, Config{APIType: "anthropic", BaseURL: "https://g", Headers: []Header{{"x-a", "1"}, {"x-b", "2"}, {"x-c", ""}}}, false},
		{"other base", a, Config{APIType: "anthropic", BaseURL: "https://g/", Headers: a.Headers}, false},
		{"other apiType", a, Config{APIType: "bedrock", BaseURL: "https://g", Headers: a.Headers}, false},
	}
	for _, tc := range cases {
		if got := SameListing(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: got %v", tc.name, got)
		}
	}
}
