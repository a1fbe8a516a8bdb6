package conform_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/scenario"
)

// TestCheckNeverSkipsValidationSilently (issue 11 item 18): when the ACP
// schema cannot be loaded, Check fails before the run starts and names
// --no-validate; only NoValidate turns validation off, and the outcome
// says so.
func TestCheckNeverSkipsValidationSilently(t *testing.T) {
	scs, err := scenario.LoadDir("testdata")
	if err != nil || len(scs) == 0 {
		t.Fatalf("testdata scenarios: %v", err)
	}
	noSchema := t.TempDir()
	started := filepath.Join(t.TempDir(), "started")
	// The agent would leave a file behind if the run started.
	agent := []string{"/bin/sh", "-c", "touch " + started}
	o := conform.Options{Airwire: "/nonexistent/airwire", Agent: agent, Scenario: scs[0], Profile: scenario.ProfilePlain, ACPSchemaDir: noSchema}
	out, err := conform.Check(context.Background(), o, golden.New(t.TempDir()), false)
	if !errors.Is(err, conform.ErrNoValidation) || !strings.Contains(err.Error(), "--no-validate") || !strings.Contains(err.Error(), noSchema) {
		t.Fatalf("err = %v, want ErrNoValidation naming the schema and --no-validate", err)
	}
	if out.ValidationSkipped != "" {
		t.Errorf("ValidationSkipped = %q", out.ValidationSkipped)
	}
	if fileExists(started) {
		t.Error("the run started without a validator")
	}

	o.NoValidate = true
	out, err = conform.Check(context.Background(), o, golden.New(t.TempDir()), false)
	if errors.Is(err, conform.ErrNoValidation) || !strings.Contains(out.ValidationSkipped, "--no-validate") {
		t.Fatalf("with NoValidate: err = %v, ValidationSkipped = %q", err, out.ValidationSkipped)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
