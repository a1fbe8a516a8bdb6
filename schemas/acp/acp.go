package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/xeipuuv/gojsonschema"

	"github.com/airwire/airwire/internal/lookup"
	"github.com/airwire/airwire/schemas/verdict"
)

// Schema file names inside the ACP v1 schema directory.
const (
	StableFile   = "schema.json"
	UnstableFile = "schema.unstable.json"
)

// docURL is the base under which the ACP document is registered with
// gojsonschema; it is never fetched.
const docURL = "https://airwire.dev/acp/v1/schema.json"

// Side says who handles a method (x-side): SideAgent methods are sent by the
// client (editor) and handled by the agent, SideClient the other way round.
type Side string

// The x-side values of ACP v1.
const (
	SideAgent    Side = "agent"
	SideClient   Side = "client"
	SideProtocol Side = "protocol" // $/cancel_request: either direction
	SideProxy    Side = "proxy"
)

// Method is one row of the method table.
type Method struct {
	Name string
	// Request, Response and Notification are $def names ("" when absent).
	Request, Response, Notification string
	// RequestSide and NotificationSide are the x-side of each form.
	RequestSide, NotificationSide Side
}

// Issue is one schema failure of a message part.
type Issue struct {
	verdict.Violation
	// Def names the $def that failed, or the union branch that was meant,
	// e.g. "SessionUpdate[sessionUpdate=tool_call]".
	Def string
	// Lenient is true when the failing value sits under a property marked
	// x-deserialize-default-on-error: the reference SDKs drop such a value
	// instead of rejecting the message, so callers may grade it a warning.
	Lenient bool
}

// Schema is one loaded ACP schema file.
type Schema struct {
	File    string
	raw     map[string]any
	defs    map[string]any
	methods map[string]*Method
	unions  map[string]*union // by schema pointer "#/$defs/X…"
	// hot maps a $def to its property that holds a discriminated union
	// $def (SessionNotification.update -> SessionUpdate). Such a def is
	// validated first against a variant of the document whose union has only
	// the branch the discriminator picks, which skips failing every other
	// branch (the cost of a oneOf in gojsonschema).
	hot map[string]hotProp
	// variants are the documents already registered, by URL.
	variants map[string]bool

	loader   *gojsonschema.SchemaLoader
	mu       sync.Mutex
	compiled map[string]*gojsonschema.Schema
}

type hotProp struct{ prop, union string }

type union struct {
	def     string         // enclosing $def name
	disc    string         // discriminator property
	byValue map[string]int // const value -> branch index
	open    []int          // branches without a const
	kw      string         // oneOf or anyOf
	values  []string
}

// LoadDir loads schema.unstable.json (unstable=true) or schema.json from dir.
func LoadDir(dir string, unstable bool) (*Schema, error) {
	name := StableFile
	if unstable {
		name = UnstableFile
	}
	return LoadFile(filepath.Join(dir, name))
}

// LoadFile loads one ACP schema file.
func LoadFile(path string) (*Schema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ACP schema: %w", err)
	}
	s, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("ACP schema %s: %w", path, err)
	}
	s.File = path
	return s, nil
}

// Parse loads an ACP schema from its bytes.
func Parse(b []byte) (*Schema, error) {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	if err := CheckKeywords(raw); err != nil {
		return nil, err
	}
	defs, _ := raw["$defs"].(map[string]any)
	if len(defs) == 0 {
		return nil, fmt.Errorf("no $defs")
	}
	s := &Schema{raw: raw, defs: defs, methods: map[string]*Method{}, unions: map[string]*union{}, compiled: map[string]*gojsonschema.Schema{}}
	for name, d := range defs {
		dm, _ := d.(map[string]any)
		m, _ := dm["x-method"].(string)
		side, _ := dm["x-side"].(string)
		if m == "" {
			continue
		}
		row := s.methods[m]
		if row == nil {
			row = &Method{Name: m}
			s.methods[m] = row
		}
		switch {
		case strings.HasSuffix(name, "Request"):
			row.Request, row.RequestSide = name, Side(side)
		case strings.HasSuffix(name, "Response"):
			row.Response = name
		case strings.HasSuffix(name, "Notification"):
			row.Notification, row.NotificationSide = name, Side(side)
		}
	}
	if len(s.methods) == 0 {
		return nil, fmt.Errorf("no x-method annotations")
	}
	s.findUnions("#/$defs", "", defs)
	s.hot = map[string]hotProp{}
	s.variants = map[string]bool{}
	for name, d := range defs {
		props, _ := field(d, "properties").(map[string]any)
		for prop, ps := range props {
			ref, _ := field(ps, "$ref").(string)
			if all, ok := field(ps, "allOf").([]any); ok && len(all) == 1 {
				ref, _ = field(all[0], "$ref").(string)
			}
			if u := s.unions[ref]; u != nil && strings.HasPrefix(ref, "#/$defs/") && u.kw == "oneOf" {
				s.hot[name] = hotProp{prop: prop, union: strings.TrimPrefix(ref, "#/$defs/")}
			}
		}
	}
	s.loader = gojsonschema.NewSchemaLoader()
	if err := s.loader.AddSchema(docURL, gojsonschema.NewBytesLoader(b)); err != nil {
		return nil, err
	}
	return s, nil
}

// Methods lists the method table sorted by name.
func (s *Schema) Methods() []Method {
	out := make([]Method, 0, len(s.methods))
	for _, m := range s.methods {
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Method returns the table row of name.
func (s *Schema) Method(name string) (Method, bool) {
	m, ok := s.methods[name]
	if !ok {
		return Method{}, false
	}
	return *m, true
}

// HasDef reports whether the schema has the $def name.
func (s *Schema) HasDef(name string) bool { _, ok := s.defs[name]; return ok }

// forbidden lists keywords that gojsonschema (draft-04/06/07) ignores but
// that change the meaning of a 2019-09/2020-12 schema.
var forbidden = []string{"prefixItems", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "dependentRequired", "dependentSchemas", "unevaluatedItems"}

// schemaMaps are keywords whose value maps names to schemas: their keys are
// names, not keywords.
var schemaMaps = lookup.Set{
	"properties", "$defs", "definitions", "patternProperties",
}

// CheckKeywords fails when a schema uses a keyword that gojsonschema would
// ignore silently: see forbidden, and unevaluatedProperties other than true.
func CheckKeywords(doc any) error {
	var errs []string
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch t := v.(type) {
		case map[string]any:
			for k, c := range t {
				p := path + "/" + k
				for _, f := range forbidden {
					if k == f {
						errs = append(errs, p)
					}
				}
				if k == "unevaluatedProperties" {
					if b, ok := c.(bool); !ok || !b {
						errs = append(errs, p+" (not true)")
					}
				}
				if schemaMaps.Has(k) {
					if m, ok := c.(map[string]any); ok {
						for name, sub := range m {
							walk(sub, p+"/"+name)
						}
					}
					continue
				}
				if k == "enum" || k == "const" || k == "examples" || k == "default" || k == "required" {
					continue
				}
				walk(c, p)
			}
		case []any:
			for i, c := range t {
				walk(c, path+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(doc, "#")
	if len(errs) > 0 {
		sort.Strings(errs)
		return fmt.Errorf("schema uses keywords gojsonschema would ignore: %s", strings.Join(errs, ", "))
	}
	return nil
}

// findUnions records every oneOf/anyOf whose branches are told apart by a
// const on one property.
func (s *Schema) findUnions(ptr, def string, v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			p := ptr + "/" + escape(k)
			d := def
			if ptr == "#/$defs" {
				d = k
			}
			if (k == "oneOf" || k == "anyOf") && d != "" {
				if u := unionOf(d, k, c); u != nil {
					s.unions[ptr] = u
				}
			}
			s.findUnions(p, d, c)
		}
	case []any:
		for i, c := range t {
			s.findUnions(ptr+"/"+strconv.Itoa(i), def, c)
		}
	}
}

func unionOf(def, kw string, v any) *union {
	branches, _ := v.([]any)
	u := &union{def: def, kw: kw, byValue: map[string]int{}}
	for i, b := range branches {
		bm, _ := b.(map[string]any)
		props, _ := bm["properties"].(map[string]any)
		found := false
		for p, ps := range props {
			pm, _ := ps.(map[string]any)
			c, ok := pm["const"].(string)
			if !ok {
				continue
			}
			if u.disc != "" && u.disc != p {
				return nil
			}
			u.disc = p
			u.byValue[c] = i
			u.values = append(u.values, c)
			found = true
		}
		if !found {
			u.open = append(u.open, i)
		}
	}
	if u.disc == "" {
		return nil
	}
	return u
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func (s *Schema) compile(ptr string) (*gojsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.compiled[ptr]; ok {
		return c, nil
	}
	c, err := s.loader.Compile(gojsonschema.NewReferenceLoader(docURL + ptr))
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", ptr, err)
	}
	s.compiled[ptr] = c
	return c, nil
}

// Decode parses raw JSON the way the validator needs it (numbers kept as
// json.Number).
func Decode(raw json.RawMessage) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// ValidateDef validates a decoded instance (from Decode) against $def name.
func (s *Schema) ValidateDef(name string, inst any) ([]Issue, error) {
	if !s.HasDef(name) {
		return nil, fmt.Errorf("ACP schema has no $def %s", name)
	}
	if ok, err := s.fastValid(name, inst); ok || err != nil {
		return nil, err
	}
	return s.validateAt("#/$defs/"+escape(name), name, inst, "", 0)
}

// fastValid reports whether inst is valid against a variant of the document
// in which the union of a hot def keeps only the branch that inst's
// discriminator picks. False means "unknown": the caller runs the full check.
func (s *Schema) fastValid(name string, inst any) (bool, error) {
	h, ok := s.hot[name]
	if !ok {
		return false, nil
	}
	u := s.unions["#/$defs/"+escape(h.union)]
	val, _ := field(field(inst, h.prop), u.disc).(string)
	i, ok := u.byValue[val]
	if !ok {
		return false, nil
	}
	c, err := s.compileVariant(h.union, val, i, "#/$defs/"+escape(name))
	if err != nil {
		return false, err
	}
	r, err := c.Validate(gojsonschema.NewRawLoader(inst))
	if err != nil {
		return false, err
	}
	return r.Valid(), nil
}

func (s *Schema) compileVariant(union, value string, branch int, ptr string) (*gojsonschema.Schema, error) {
	url := "https://airwire.dev/acp/v1/variant/" + escape(union) + "/" + escape(value) + ".json"
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.compiled[url+ptr]; ok {
		return c, nil
	}
	if !s.variants[url] {
		defs := make(map[string]any, len(s.defs))
		for k, v := range s.defs {
			defs[k] = v
		}
		orig, _ := s.defs[union].(map[string]any)
		one := make(map[string]any, len(orig))
		for k, v := range orig {
			one[k] = v
		}
		branches, _ := orig["oneOf"].([]any)
		one["oneOf"] = []any{branches[branch]}
		defs[union] = one
		doc := make(map[string]any, len(s.raw))
		for k, v := range s.raw {
			doc[k] = v
		}
		doc["$defs"] = defs
		if err := s.loader.AddSchema(url, gojsonschema.NewGoLoader(doc)); err != nil {
			return nil, err
		}
		s.variants[url] = true
	}
	c, err := s.loader.Compile(gojsonschema.NewReferenceLoader(url + ptr))
	if err != nil {
		return nil, fmt.Errorf("compile %s%s: %w", url, ptr, err)
	}
	s.compiled[url+ptr] = c
	return c, nil
}

func field(v any, k string) any {
	m, _ := v.(map[string]any)
	return m[k]
}

func (s *Schema) validateAt(ptr, def string, inst any, base string, depth int) ([]Issue, error) {
	c, err := s.compile(ptr)
	if err != nil {
		return nil, err
	}
	r, err := c.Validate(gojsonschema.NewRawLoader(inst))
	if err != nil {
		return nil, err
	}
	if r.Valid() {
		return nil, nil
	}
	var locs []unionLoc
	var lenient []string
	if depth < 16 {
		s.navigate(ptr, inst, "", &locs, &lenient, 0)
	}
	var out []Issue
	for _, v := range verdict.FromResult(r) {
		if under(v.Pointer, locs) {
			continue
		}
		soft := underAny(v.Pointer, lenient)
		v.Pointer = base + v.Pointer
		out = append(out, Issue{Violation: v, Def: def, Lenient: soft})
	}
	for _, l := range locs {
		name := fmt.Sprintf("%s[%s=%s]", l.u.def, l.u.disc, l.value)
		switch {
		case l.branch == "" && l.missing:
			out = append(out, Issue{Def: l.u.def, Violation: verdict.Errorf(base+l.path+"/"+escape(l.u.disc), "required",
				"%s needs its discriminator %q", l.u.def, l.u.disc)})
		case l.branch == "":
			out = append(out, Issue{Def: l.u.def, Violation: verdict.Errorf(base+l.path+"/"+escape(l.u.disc), "enum",
				"unknown %s %q for %s; known: %s", l.u.disc, l.value, l.u.def, strings.Join(l.u.values, ", "))})
		default:
			sub, err := s.validateAt(l.branch, name, l.inst, base+l.path, depth+1)
			if err != nil {
				return nil, err
			}
			if underAny(l.path, lenient) {
				for i := range sub {
					sub[i].Lenient = true
				}
			}
			out = append(out, sub...)
		}
	}
	return out, nil
}

func underAny(p string, prefixes []string) bool {
	for _, l := range prefixes {
		if p == l || strings.HasPrefix(p, l+"/") {
			return true
		}
	}
	return false
}

func under(p string, locs []unionLoc) bool {
	for _, l := range locs {
		if p == l.path || strings.HasPrefix(p, l.path+"/") {
			return true
		}
	}
	return false
}

type unionLoc struct {
	path    string // instance pointer, relative
	u       *union
	value   string
	branch  string // schema pointer of the chosen branch, "" when none
	missing bool
	inst    any
}

// navigate walks inst along the schema at ptr and records the outermost
// discriminated unions it meets, with the branch the discriminator picks.
func (s *Schema) navigate(ptr string, inst any, path string, out *[]unionLoc, lenient *[]string, depth int) {
	if depth > 48 {
		return
	}
	node, ok := s.lookup(ptr).(map[string]any)
	if !ok {
		return
	}
	if node["x-deserialize-default-on-error"] == true {
		*lenient = append(*lenient, path)
	}
	if u := s.unions[ptr]; u != nil {
		for _, l := range *out {
			if l.path == path {
				return
			}
		}
		loc := unionLoc{path: path, u: u, inst: inst}
		obj, isObj := inst.(map[string]any)
		val, has := "", false
		if isObj {
			val, has = obj[u.disc].(string)
		}
		loc.value = val
		switch i, known := u.byValue[val]; {
		case !isObj:
			return // a type error, reported by the caller's own result
		case has && known:
			loc.branch = ptr + "/" + u.kw + "/" + strconv.Itoa(i)
		case len(u.open) == 1:
			loc.branch = ptr + "/" + u.kw + "/" + strconv.Itoa(u.open[0])
		case len(u.open) > 1:
			return // an open union: nothing to dispatch on
		default:
			loc.missing = !has
		}
		*out = append(*out, loc)
		return
	}
	if ref, ok := node["$ref"].(string); ok && strings.HasPrefix(ref, "#/") {
		s.navigate(ref, inst, path, out, lenient, depth+1)
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if arr, ok := node[kw].([]any); ok {
			for i := range arr {
				s.navigate(ptr+"/"+kw+"/"+strconv.Itoa(i), inst, path, out, lenient, depth+1)
			}
		}
	}
	switch t := inst.(type) {
	case map[string]any:
		props, _ := node["properties"].(map[string]any)
		_, hasAdd := node["additionalProperties"].(map[string]any)
		for k, v := range t {
			if _, ok := props[k]; ok {
				s.navigate(ptr+"/properties/"+escape(k), v, path+"/"+escape(k), out, lenient, depth+1)
			} else if hasAdd {
				s.navigate(ptr+"/additionalProperties", v, path+"/"+escape(k), out, lenient, depth+1)
			}
		}
	case []any:
		if _, ok := node["items"].(map[string]any); ok {
			for i, v := range t {
				s.navigate(ptr+"/items", v, path+"/"+strconv.Itoa(i), out, lenient, depth+1)
			}
		}
	}
}

func (s *Schema) lookup(ptr string) any {
	var cur any = s.raw
	for _, seg := range strings.Split(strings.TrimPrefix(ptr, "#/"), "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch t := cur.(type) {
		case map[string]any:
			cur = t[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(t) {
				return nil
			}
			cur = t[i]
		default:
			return nil
		}
	}
	return cur
}

// Params validates the decoded params of a request (notification=false) or
// notification of method against its $def.
func (s *Schema) Params(method string, notification bool, params any) ([]Issue, error) {
	m, ok := s.methods[method]
	if !ok {
		return nil, fmt.Errorf("unknown ACP method %q", method)
	}
	def := m.Request
	if notification {
		def = m.Notification
	}
	if def == "" {
		kind := "request"
		if notification {
			kind = "notification"
		}
		return []Issue{{Def: method, Violation: verdict.Errorf("", "method", "%s is not a %s in the ACP schema", method, kind)}}, nil
	}
	return s.ValidateDef(def, params)
}

// Result validates the decoded result of a response to a request of method.
func (s *Schema) Result(method string, result any) ([]Issue, error) {
	m, ok := s.methods[method]
	if !ok {
		return nil, fmt.Errorf("unknown ACP method %q", method)
	}
	if m.Response == "" {
		return []Issue{{Def: method, Violation: verdict.Errorf("", "method", "%s has no response in the ACP schema", method)}}, nil
	}
	return s.ValidateDef(m.Response, result)
}

// Error validates a decoded JSON-RPC error object.
func (s *Schema) Error(errObj any) ([]Issue, error) { return s.ValidateDef("Error", errObj) }
