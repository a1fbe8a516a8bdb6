package claude

import "github.com/airwire/airwire/internal/clisearch"

// The CLI search lives in internal/clisearch, shared with the recording
// proxy's CLI shim; these names keep this package's API. A failure to find
// the CLI is clisearch.ErrNoExecutable (errors.Is), a *NotFoundError that
// says where it looked.

// NotFoundError says where the CLI was looked for (clisearch.NotFoundError).
type NotFoundError = clisearch.NotFoundError

// Locator says where to look for the CLI (clisearch.Locator).
type Locator = clisearch.Locator

// ResolveExecutable returns the absolute path of the CLI to spawn
// (clisearch.ResolveExecutable).
func ResolveExecutable(l Locator) (string, error) { return clisearch.ResolveExecutable(l) }
