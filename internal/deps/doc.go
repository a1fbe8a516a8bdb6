// Package deps finds the external dependencies that `make deps` installs into
// .deps/: Node, the reference adapter, the reference Claude CLI, the pinned
// official ACP schema and two third-party ACP clients (the TypeScript SDK's
// client side and acpx, which drive airwire play in its tests). It only
// reads .deps/paths.env (or the environment); it never downloads, installs
// or checks anything. Unavailable ends a test whose dependency is missing:
// skipped on a checkout without `make deps`, failed under CI.
//
// It describes the development checkout only: tests, the Ginkgo suite and
// the defaults of `airwire conform` that need `make deps` anyway (the
// reference adapter as the default --agent, the real CLI of --live). The
// binary never depends on it otherwise: the ACP schema comes from
// schemas/acp's Locator, the scenarios and goldens are built in.
package deps
