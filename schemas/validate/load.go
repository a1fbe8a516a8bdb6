package validate

import (
	"sync"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/air"
)

// schemas is one compiled pair, loaded once.
type schemas struct {
	once sync.Once
	acp  *acp.Schema
	air  *air.Set
	err  error
}

var (
	loadMu sync.Mutex
	loaded map[string]*schemas // made on first use, not by init code at every start
)

// LoadDir returns the ACP v1 schema of dir (the unstable superset, which
// holds session/fork and the other methods the reference adapter serves)
// and the AIR schemas, compiled once per process and directory. dir comes
// from acp.Locator.
//
// A harness validates every message of a run with:
//
//	a, s, err := validate.LoadDir(dir)
//	v := validate.New(a, s)
//	for each client-lane message: findings = append(findings, v.Check(m)...)
func LoadDir(dir string) (*acp.Schema, *air.Set, error) {
	loadMu.Lock()
	if loaded == nil {
		loaded = map[string]*schemas{}
	}
	s := loaded[dir]
	if s == nil {
		s = &schemas{}
		loaded[dir] = s
	}
	loadMu.Unlock()
	s.once.Do(func() {
		if s.acp, s.err = acp.LoadDir(dir, true); s.err == nil {
			s.air, s.err = air.Load()
		}
	})
	return s.acp, s.air, s.err
}

var (
	v2Mu     sync.Mutex
	v2Loaded map[string]*schemas // made on first use
)

// LoadV2Dir returns the ACP v2 draft's schema of dir (its unstable
// superset), compiled once per process and directory. dir is acp.V2Dir of
// the v1 schema directory.
func LoadV2Dir(dir string) (*acp.Schema, error) {
	v2Mu.Lock()
	if v2Loaded == nil {
		v2Loaded = map[string]*schemas{}
	}
	s := v2Loaded[dir]
	if s == nil {
		s = &schemas{}
		v2Loaded[dir] = s
	}
	v2Mu.Unlock()
	s.once.Do(func() { s.acp, s.err = acp.LoadDir(dir, true) })
	return s.acp, s.err
}

// Load is LoadDir for the schema `make deps` installed in the checkout
// (internal/deps), for tests and the Ginkgo suite; the airwire binary finds
// its schema with acp.Locator instead. Without `make deps` the error wraps
// deps.ErrMissing.
func Load() (*acp.Schema, *air.Set, error) {
	p, err := deps.Paths()
	if err != nil {
		return nil, nil, err
	}
	dir, err := p.RequireACPSchemaDir()
	if err != nil {
		return nil, nil, err
	}
	return LoadDir(dir)
}
