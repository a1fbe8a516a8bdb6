package conform

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/airwire/airwire/internal/golden"
	"github.com/airwire/airwire/internal/scenario"
)

// ErrLaneMissing means a canonical transcript lacks the client or the CLI
// lane; every golden must hold both.
var ErrLaneMissing = errors.New("canonical transcript lacks a lane")

// GoldenName is the golden of a scenario and profile: <scenario>/<profile>.
func GoldenName(sc *scenario.Scenario, p scenario.Profile) string {
	return sc.Name + "/" + string(p)
}

// Check runs o in a fresh temporary directory (o.Dir is ignored), renders
// the canonical transcript and matches it with its golden in g. It returns
// the transcript, and the run error (*RunError), a lane error or the
// golden's error (*golden.MismatchError, golden.ErrMissing). The directory
// is removed unless keep is true.
func Check(ctx context.Context, o Options, g *golden.Golden, keep bool) ([]byte, string, error) {
	dir, err := os.MkdirTemp("", "aw-")
	if err != nil {
		return nil, "", err
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	o.Dir = dir
	res, err := Run(ctx, o)
	if err != nil {
		return nil, dir, err
	}
	canon, err := Canonical(res)
	if err != nil {
		return nil, dir, err
	}
	if err := CheckLanes(canon); err != nil {
		return canon, dir, err
	}
	return canon, dir, g.Match(GoldenName(o.Scenario, o.Profile), canon)
}

// CheckLanes requires at least one client line and one cli line.
func CheckLanes(canon []byte) error {
	var client, cli bool
	for _, l := range bytes.Split(canon, []byte("\n")) {
		client = client || bytes.HasPrefix(l, []byte("client "))
		cli = cli || bytes.HasPrefix(l, []byte("cli:"))
	}
	if !client || !cli {
		return fmt.Errorf("%w (client %v, cli %v)", ErrLaneMissing, client, cli)
	}
	return nil
}
