package providers

import (
	"reflect"
	"strings"
	"testing"
)

var vertexConfig = Config{
	APIType: "vertex", BaseURL: "https://vertex-gateway.example.com",
	Headers:       []Header{{"x-gateway-team", "airwire"}},
	VertexProject: "airwire-test", VertexRegion: "us-east5",
}

// The environment lists the reset variables first, each override in its
// reset variable's place, and the new variables after them, as the
// reference's object spread orders them.
func TestEnv(t *testing.T) {
	cases := []struct {
		name string
		c    *Config
		want []string
	}{
		{"nil", nil, nil},
		{"vertex", &vertexConfig, []string{
			"ANTHROPIC_BASE_URL=", "ANTHROPIC_BEDROCK_BASE_URL=",
			"ANTHROPIC_VERTEX_BASE_URL=https://vertex-gateway.example.com",
			"CLAUDE_CODE_USE_BEDROCK=0", "CLAUDE_CODE_USE_VERTEX=1",
			"ANTHROPIC_VERTEX_PROJECT_ID=airwire-test", "CLOUD_ML_REGION=us-east5",
			"AWS_REGION=", "ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=", "CLAUDE_CODE_OAUTH_TOKEN=",
			"ANTHROPIC_CUSTOM_HEADERS=x-gateway-team: airwire",
		}},
		{"vertex at the default endpoint", &Config{APIType: "vertex", BaseURL: DefaultVertexURL,
			VertexProject: "p", VertexRegion: "global"}, []string{
			"ANTHROPIC_BASE_URL=", "ANTHROPIC_BEDROCK_BASE_URL=", "ANTHROPIC_VERTEX_BASE_URL=",
			"CLAUDE_CODE_USE_BEDROCK=0", "CLAUDE_CODE_USE_VERTEX=1",
			"ANTHROPIC_VERTEX_PROJECT_ID=p", "CLOUD_ML_REGION=global",
			"AWS_REGION=", "ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=", "CLAUDE_CODE_OAUTH_TOKEN=",
			"ANTHROPIC_CUSTOM_HEADERS=",
		}},
		{"anthropic", &Config{APIType: "anthropic", BaseURL: "https://gw.example.com",
			Headers: []Header{{"x-b", "1"}, {"authorization", "Bearer k"}}}, []string{
			"ANTHROPIC_BASE_URL=https://gw.example.com", "ANTHROPIC_BEDROCK_BASE_URL=", "ANTHROPIC_VERTEX_BASE_URL=",
			"CLAUDE_CODE_USE_BEDROCK=0", "CLAUDE_CODE_USE_VERTEX=0",
			"ANTHROPIC_VERTEX_PROJECT_ID=", "CLOUD_ML_REGION=",
			"AWS_REGION=", "ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=acp-proxy", "CLAUDE_CODE_OAUTH_TOKEN=",
			"ANTHROPIC_CUSTOM_HEADERS=x-b: 1\nauthorization: Bearer k",
		}},
		{"bedrock", &Config{APIType: "bedrock", BaseURL: "https://br.example.com", RegionPrefix: "eu"}, []string{
			"ANTHROPIC_BASE_URL=", "ANTHROPIC_BEDROCK_BASE_URL=https://br.example.com", "ANTHROPIC_VERTEX_BASE_URL=",
			"CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_USE_VERTEX=0",
			"ANTHROPIC_VERTEX_PROJECT_ID=", "CLOUD_ML_REGION=",
			"AWS_REGION=", "ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=", "CLAUDE_CODE_OAUTH_TOKEN=",
			"AWS_BEARER_TOKEN_BEDROCK=acp-proxy", "ANTHROPIC_CUSTOM_HEADERS=",
			"ANTHROPIC_BEDROCK_REGION_PREFIX=eu",
		}},
		{"bedrock without a region", &Config{APIType: "bedrock", BaseURL: "https://br.example.com",
			Headers: []Header{{"x", "y"}}}, []string{
			"ANTHROPIC_BASE_URL=", "ANTHROPIC_BEDROCK_BASE_URL=https://br.example.com", "ANTHROPIC_VERTEX_BASE_URL=",
			"CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_USE_VERTEX=0",
			"ANTHROPIC_VERTEX_PROJECT_ID=", "CLOUD_ML_REGION=",
			"AWS_REGION=", "ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=", "CLAUDE_CODE_OAUTH_TOKEN=",
			"AWS_BEARER_TOKEN_BEDROCK=acp-proxy", "ANTHROPIC_CUSTOM_HEADERS=x: y",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Env(tc.c); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestSettings(t *testing.T) {
	const vertexEnv = `"ANTHROPIC_BASE_URL":"","ANTHROPIC_BEDROCK_BASE_URL":"","ANTHROPIC_VERTEX_BASE_URL":"https://vertex-gateway.example.com","CLAUDE_CODE_USE_BEDROCK":"0","CLAUDE_CODE_USE_VERTEX":"1","ANTHROPIC_VERTEX_PROJECT_ID":"airwire-test","CLOUD_ML_REGION":"us-east5","AWS_REGION":"","ANTHROPIC_API_KEY":"","ANTHROPIC_AUTH_TOKEN":"","CLAUDE_CODE_OAUTH_TOKEN":"","ANTHROPIC_CUSTOM_HEADERS":"x-gateway-team: airwire"`
	amp := vertexConfig
	amp.Headers = []Header{{"x-q", "a&b<c>\u2028"}}
	cases := []struct {
		name, settings string
		c              *Config
		want           string
	}{
		{"no settings", "", &vertexConfig, `{"apiKeyHelper":"","env":{` + vertexEnv + `}}`},
		{"no routing", `{"model": "opus"}`, nil, `{"model": "opus"}`},
		{"merged into settings",
			`{"model":"opus","env":{"FOO":"<bar>","ANTHROPIC_BASE_URL":"http://elsewhere","CLOUD_ML_REGION":"eu"},"apiKeyHelper":"/bin/key","hooks":{"b":[1.0,2e21],"a":null}}`,
			&vertexConfig,
			`{"model":"opus","env":{"FOO":"<bar>","ANTHROPIC_BASE_URL":"","CLOUD_ML_REGION":"us-east5",` +
				strings.NewReplacer(`"ANTHROPIC_BASE_URL":"",`, "", `"CLOUD_ML_REGION":"us-east5",`, "").Replace(vertexEnv) +
				`},"apiKeyHelper":"","hooks":{"b":[1,2e+21],"a":null}}`},
		{"array-index keys first", `{"b":1,"2":"two","env":null,"1":"one"}`, &Config{APIType: "bedrock", BaseURL: "https://b"},
			`{"1":"one","2":"two","b":1,"env":{"ANTHROPIC_BASE_URL":"","ANTHROPIC_BEDROCK_BASE_URL":"https://b","ANTHROPIC_VERTEX_BASE_URL":"","CLAUDE_CODE_USE_BEDROCK":"1","CLAUDE_CODE_USE_VERTEX":"0","ANTHROPIC_VERTEX_PROJECT_ID":"","CLOUD_ML_REGION":"","AWS_REGION":"","ANTHROPIC_API_KEY":"","ANTHROPIC_AUTH_TOKEN":"","CLAUDE_CODE_OAUTH_TOKEN":"","AWS_BEARER_TOKEN_BEDROCK":"acp-proxy","ANTHROPIC_CUSTOM_HEADERS":""},"apiKeyHelper":""}`},
		{"no HTML escaping", "", &amp,
			`{"apiKeyHelper":"","env":{` + strings.Replace(vertexEnv, "x-gateway-team: airwire", "x-q: a&b<c>\u2028", 1) + `}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Settings(tc.settings, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestSettingsRefusesWhatIsNotJSON(t *testing.T) {
	for _, s := range []string{"{", "{} x", "settings.json"} {
		if _, err := Settings(s, &vertexConfig); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}
