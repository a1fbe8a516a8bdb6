// Package deps finds the external dependencies that `make deps` installs into
// .deps/: Node, the reference adapter, the reference Claude CLI and the pinned
// official ACP schema. It only reads .deps/paths.env (or the environment);
// it never downloads, installs or checks anything.
package deps
