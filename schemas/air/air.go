package air

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/xeipuuv/gojsonschema"

	"github.com/airwire/airwire/schemas/verdict"
)

//go:embed *.schema.json
var files embed.FS

// BaseID prefixes every schema $id: BaseID + name + ".schema.json".
const BaseID = "https://airwire.dev/schemas/air/"

// ID returns the $id of the schema called name.
func ID(name string) string { return BaseID + name + ".schema.json" }

// Schema is one compiled AIR schema.
type Schema struct {
	Name    string // file stem, e.g. "permission"
	ID      string // $id
	Section string // contract section, e.g. "Permission presentation"
	// Examples are the schema's own examples, raw.
	Examples []json.RawMessage
	compiled *gojsonschema.Schema
}

// Validate checks one instance (raw JSON) against the schema.
func (s *Schema) Validate(doc json.RawMessage) []verdict.Violation {
	r, err := s.compiled.Validate(gojsonschema.NewBytesLoader(doc))
	if err != nil {
		return []verdict.Violation{verdict.Errorf("", "json", "not JSON: %v", err)}
	}
	return verdict.FromResult(r)
}

// ValidateValue checks an already decoded instance: the result of decoding
// with json.Decoder.UseNumber (numbers as json.Number), as schemas/acp.Decode
// does. It does not copy the value.
func (s *Schema) ValidateValue(v any) []verdict.Violation {
	r, err := s.compiled.Validate(gojsonschema.NewRawLoader(v))
	if err != nil {
		return []verdict.Violation{verdict.Errorf("", "json", "cannot validate: %v", err)}
	}
	return verdict.FromResult(r)
}

// Set is every AIR schema, compiled.
type Set struct {
	byName map[string]*Schema
}

// Get returns the schema called name, or nil.
func (s *Set) Get(name string) *Schema { return s.byName[name] }

// MustGet returns the schema called name and panics if it does not exist:
// a missing schema is a programming error in a caller's table.
func (s *Set) MustGet(name string) *Schema {
	sc := s.byName[name]
	if sc == nil {
		panic("air: no schema " + name)
	}
	return sc
}

// Names lists the schema names in order.
func (s *Set) Names() []string {
	out := make([]string, 0, len(s.byName))
	for n := range s.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

var (
	once    sync.Once
	loaded  *Set
	loadErr error
)

// Load compiles the embedded schemas once per process.
func Load() (*Set, error) {
	once.Do(func() { loaded, loadErr = compile(files) })
	return loaded, loadErr
}

type header struct {
	ID       string            `json:"$id"`
	Schema   string            `json:"$schema"`
	Desc     string            `json:"description"`
	Section  string            `json:"x-contract-section"`
	Examples []json.RawMessage `json:"examples"`
}

func compile(fsys fs.FS) (*Set, error) {
	names, err := fs.Glob(fsys, "*.schema.json")
	if err != nil {
		return nil, err
	}
	sl := gojsonschema.NewSchemaLoader()
	sl.Draft = gojsonschema.Draft7
	sl.AutoDetect = false
	set := &Set{byName: map[string]*Schema{}}
	for _, fn := range names {
		b, err := fs.ReadFile(fsys, fn)
		if err != nil {
			return nil, err
		}
		var h header
		if err := json.Unmarshal(b, &h); err != nil {
			return nil, fmt.Errorf("air schema %s: %w", fn, err)
		}
		name := strings.TrimSuffix(fn, ".schema.json")
		switch {
		case h.ID != ID(name):
			return nil, fmt.Errorf("air schema %s: $id is %q, want %q", fn, h.ID, ID(name))
		case h.Section == "" || !strings.Contains(h.Desc, `section "`+h.Section+`"`):
			return nil, fmt.Errorf("air schema %s: description must cite its contract section", fn)
		case len(h.Examples) == 0:
			return nil, fmt.Errorf("air schema %s: no examples", fn)
		}
		if err := sl.AddSchemas(gojsonschema.NewBytesLoader(b)); err != nil {
			return nil, fmt.Errorf("air schema %s: %w", fn, err)
		}
		set.byName[name] = &Schema{Name: name, ID: h.ID, Section: h.Section, Examples: h.Examples}
	}
	for _, s := range set.byName {
		c, err := sl.Compile(gojsonschema.NewReferenceLoader(s.ID))
		if err != nil {
			return nil, fmt.Errorf("air schema %s: %w", s.Name, err)
		}
		s.compiled = c
	}
	return set, nil
}
