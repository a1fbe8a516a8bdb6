// Package pathstyle holds the path rules of each platform the agent runs
// on: which separators a path uses, what makes it absolute (a drive letter
// or a UNC share on Windows), how a PATH-style list splits, and whether the
// file system ignores case (Windows, and macOS by default). The rules take
// the platform as a value, so Windows and macOS cases are tested on any
// machine; Native is the running one.
//
// It owns no file system access and never reads the environment: callers
// pass the strings in. It implements no contract section of its own; the
// adapter uses it where the contract speaks of a path ("Tool call
// locations", "List request" cwd keys) and to find the Claude CLI.
package pathstyle
