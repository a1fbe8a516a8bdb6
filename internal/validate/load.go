package validate

import (
	"sync"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/air"
)

var (
	loadOnce sync.Once
	loadACP  *acp.Schema
	loadAIR  *air.Set
	loadErr  error
)

// Load returns the pinned ACP v1 schema (the unstable superset, which holds
// session/fork and the other methods the reference adapter serves) and the
// AIR schemas, compiled once per process. The ACP directory comes from
// internal/deps; without `make deps` the error wraps deps.ErrMissing.
//
// A harness validates every message of a run with:
//
//	a, s, err := validate.Load()
//	v := validate.New(a, s)
//	for each client-lane message: findings = append(findings, v.Check(m)...)
func Load() (*acp.Schema, *air.Set, error) {
	loadOnce.Do(func() {
		var p deps.Installed
		p, loadErr = deps.Paths()
		if loadErr != nil {
			return
		}
		var dir string
		if dir, loadErr = p.RequireACPSchemaDir(); loadErr != nil {
			return
		}
		if loadACP, loadErr = acp.LoadDir(dir, true); loadErr != nil {
			return
		}
		loadAIR, loadErr = air.Load()
	})
	return loadACP, loadAIR, loadErr
}
