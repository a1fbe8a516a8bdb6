package providers

import (
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/airwire/airwire/adapter/jsstr"
)

const (
	msgBaseURL        = "baseUrl must be a non-empty absolute http(s) URL."
	msgVertex         = "vertex apiType requires non-empty `_meta.claudeCode.vertex.projectId` and `_meta.claudeCode.vertex.region`."
	msgHeaders        = "headers must be an object of header names to string values."
	msgGatewayBaseURL = "`_meta.gateway.baseUrl` must be a non-empty absolute http(s) URL."
	msgGatewayHeaders = "`_meta.gateway.headers` must be an object of header names to values."
)

// ParseSet validates providers/set params (raw JSON), checking in the
// reference's order: the provider id, the apiType, the base URL, then the
// headers and Vertex's project and region. Errors are *ParamError.
func ParseSet(params json.RawMessage) (Config, error) {
	p, err := paramsObject(params, "providers/set")
	if err != nil {
		return Config{}, err
	}
	id, ok := field(p, "providerId")
	if s, _ := id.(string); s != ID {
		return Config{}, &ParamError{
			Message: `Unknown provider ID "` + interpolate(id, ok) + `"; expected "` + ID + `".`,
			Data:    valueData("providerId", id, ok, nil),
		}
	}
	apiType, ok := field(p, "apiType")
	if !isSupported(apiType) {
		return Config{}, &ParamError{
			Message: `Unsupported apiType "` + interpolate(apiType, ok) + `" for provider "` + ID + `".`,
			Data:    valueData("apiType", apiType, ok, map[string]any{"supported": append([]string(nil), Supported...)}),
		}
	}
	base, ok := field(p, "baseUrl")
	baseURL, _ := base.(string)
	if !ValidBaseURL(baseURL) {
		return Config{}, &ParamError{Message: msgBaseURL, Data: valueData("baseUrl", base, ok, nil)}
	}
	c := Config{APIType: apiType.(string), BaseURL: baseURL}
	if c.Headers, err = setHeaders(p); err != nil {
		return Config{}, err
	}
	if c.APIType == "vertex" {
		if c.VertexProject, c.VertexRegion, err = vertexTarget(p); err != nil {
			return Config{}, err
		}
	}
	return c, nil
}

// setHeaders are providers/set's headers. The ACP schema the reference
// validates with takes only an object of strings, or none.
func setHeaders(p *jsObject) ([]Header, error) {
	v, _ := field(p, "headers")
	if v == nil {
		return nil, nil
	}
	o, ok := v.(*jsObject)
	if !ok {
		return nil, &ParamError{Message: msgHeaders}
	}
	for _, k := range o.keys {
		if _, ok := o.vals[k].(string); !ok {
			return nil, &ParamError{Message: msgHeaders}
		}
	}
	return entries(o), nil
}

// vertexTarget is the project and region a vertex apiType needs, which
// the standard payload cannot carry: they arrive in
// `_meta.claudeCode.vertex`, kept as sent once they are not blank.
func vertexTarget(p *jsObject) (project, region string, err error) {
	cc, _ := field(meta(p), "claudeCode")
	vertex, _ := field(cc, "vertex")
	pv, _ := field(vertex, "projectId")
	rv, _ := field(vertex, "region")
	project, pok := pv.(string)
	region, rok := rv.(string)
	if !pok || !rok || jsstr.Trim(project) == "" || jsstr.Trim(region) == "" {
		return "", "", &ParamError{Message: msgVertex}
	}
	return project, region, nil
}

// entries is Object.entries of a header object or array, each value as a
// template string prints it.
func entries(v any) []Header {
	var hs []Header
	switch t := v.(type) {
	case *jsObject:
		for _, k := range t.ordered() {
			hs = append(hs, Header{Name: k, Value: jsString(t.vals[k])})
		}
	case []any:
		for i, e := range t {
			hs = append(hs, Header{Name: strconv.Itoa(i), Value: jsString(e)})
		}
	}
	return hs
}

// Gateway reads an `authenticate` request's params for the gateway
// methods: ok is false for any other method (and for params that are not
// an object, with a *ParamError). A request without `_meta.gateway` is a
// login that installs nothing and still succeeds (cfg nil): clients probe
// the method that way. A payload that is present must be usable.
// "gateway-bedrock" routes to Bedrock, "gateway" to the Anthropic API.
func Gateway(params json.RawMessage) (cfg *Config, ok bool, err error) {
	p, err := paramsObject(params, "authenticate")
	if err != nil {
		return nil, false, err
	}
	method, _ := field(p, "methodId")
	if method != "gateway" && method != "gateway-bedrock" {
		return nil, false, nil
	}
	gw, present := field(meta(p), "gateway")
	if !present || gw == nil {
		return nil, true, nil
	}
	base, baseOK := field(gw, "baseUrl")
	baseURL, _ := base.(string)
	if !isObjectLike(gw) || !ValidBaseURL(baseURL) {
		return nil, true, &ParamError{Message: msgGatewayBaseURL, Data: valueData("baseUrl", base, baseOK, nil)}
	}
	headers, hOK := field(gw, "headers")
	if hOK && !isObjectLike(headers) && headers != nil {
		return nil, true, &ParamError{Message: msgGatewayHeaders}
	}
	apiType := "anthropic"
	if method == "gateway-bedrock" {
		apiType = "bedrock"
	}
	return &Config{APIType: apiType, BaseURL: baseURL, Headers: entries(headers)}, true, nil
}

// isObjectLike is JavaScript's typeof "object" for a present, non-null
// value: an object or an array.
func isObjectLike(v any) bool {
	switch v.(type) {
	case *jsObject, []any:
		return true
	}
	return false
}

// ValidBaseURL reports whether s is a non-empty absolute http(s) URL.
func ValidBaseURL(s string) bool {
	if jsstr.Trim(s) == "" {
		return false
	}
	_, err := parseHTTPURL(s)
	return err == nil
}

var errNotHTTP = errors.New("not an absolute http(s) URL")

// parseHTTPURL parses an http(s) URL the way the WHATWG URL parser that
// the reference uses reads one, closely enough for a base URL: it drops
// surrounding spaces and control characters and any tab or newline, and
// reads a backslash before the query as a slash, and takes any run of
// slashes after the scheme as the start of the host, which must not be
// empty.
func parseHTTPURL(s string) (*url.URL, error) {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	scheme, rest, found := strings.Cut(s, ":")
	scheme = strings.ToLower(scheme)
	if !found || (scheme != "http" && scheme != "https") {
		return nil, errNotHTTP
	}
	u, err := url.Parse(scheme + "://" + strings.TrimLeft(slashes(rest), "/"))
	if err != nil {
		return nil, err
	}
	if u.Hostname() == "" {
		return nil, errNotHTTP
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n > 65535 {
			return nil, errNotHTTP
		}
	}
	return u, nil
}

// slashes turns the backslashes before a URL's query or fragment into
// slashes, as the WHATWG parser reads them in an http(s) URL.
func slashes(s string) string {
	end := strings.IndexAny(s, "?#")
	if end < 0 {
		end = len(s)
	}
	return strings.ReplaceAll(s[:end], `\`, "/") + s[end:]
}
