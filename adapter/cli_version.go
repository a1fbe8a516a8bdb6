package adapter

import (
	"log/slog"
	"sync"

	"github.com/airwire/airwire/adapter/claude"
)

// The CLI's version: the agent reads it from the CLI's answer to initialize
// (claude_code_version), logs it at every start and remembers it per
// executable, so that the next CLI it starts from the same file gets the
// CLAUDE_AGENT_SDK_VERSION of that version (claude.SDKVersionFor; the
// first start sends the goldens' SDKVersion). A CLI outside the supported
// range (claude.MinCLIVersion–claude.MaxCLIVersion) is logged as a warning
// and reported to the editor once per session, after its session/new,
// load, resume or fork answer: contract "Session failure", Delivery — a
// session-scoped warning goes in a session_info_update (an advisory
// notice) for a client that declared sessionFailure, and is a transcript
// line for any other client. A CLI inside the range changes nothing on the
// wire.

// cliVersions remembers the version each CLI executable reported.
type cliVersions struct {
	mu     sync.Mutex
	byPath map[string]string
}

func (c *cliVersions) known(path string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byPath[path]
}

func (c *cliVersions) learn(path, version string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byPath == nil {
		c.byPath = map[string]string{}
	}
	c.byPath[path] = version
}

// noteCLIVersion logs the version a started CLI reported and remembers it;
// a version outside the supported range is kept for the editor's notice.
func (s *Session) noteCLIVersion(log *slog.Logger, path string, init []byte) {
	v := claude.InitCLIVersion(init)
	if v == "" {
		log.Warn("the Claude CLI did not report its version; the agent cannot check it", "supported", claude.SupportedRange())
		return
	}
	s.agent.versions.learn(path, v)
	if claude.CLISupported(v) {
		log.Info("the Claude CLI started", "version", v, "sdk_version", claude.SDKVersionFor(v), "supported", claude.SupportedRange())
		return
	}
	log.Warn("the Claude CLI's version is outside the supported range", "version", v, "supported", claude.SupportedRange())
	s.mu.Lock()
	s.unsupportedCLI = v
	s.mu.Unlock()
}

// cliVersionWarning is the editor's text for an unsupported CLI version.
func cliVersionWarning(version string) string {
	return "Claude Code " + version + " is outside the versions this agent supports (" + claude.SupportedRange() +
		"); it may not work as expected. Install a supported Claude Code version."
}

// warnUnsupportedCLI tells the editor, once per session, that its CLI's
// version is outside the supported range.
func (s *Session) warnUnsupportedCLI() {
	s.mu.Lock()
	v := s.unsupportedCLI
	if v == "" || s.cliWarned {
		s.mu.Unlock()
		return
	}
	s.cliWarned = true
	s.mu.Unlock()
	text := cliVersionWarning(v)
	if !s.tr.failure.on || s.agent.clientCaps().Notices {
		s.notify(textUpdate("agent_message_chunk", "**Warning:** "+text, ""))
		return
	}
	s.tr.mu.Lock()
	r := s.failures.Notice(text, "")
	s.tr.mu.Unlock()
	s.notify(failureUpdate(r))
}
