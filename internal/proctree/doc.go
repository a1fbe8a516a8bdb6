// Package proctree reads the process tree from Linux's /proc: which
// processes a process started. The recorder reaps the orphans it adopted
// with it, and the conformance driver finds the agent its recorder
// started, in a process group of its own, to end it too. Both are Linux
// fast paths; their portable twins do without it (see internal/procgroup),
// so the package holds nothing on other platforms.
package proctree
