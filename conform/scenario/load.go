package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/airwire/airwire/internal/lazyre"
)

// ErrInvalid matches every *ValidationError (errors.Is).
var ErrInvalid = errors.New("invalid scenario")

// ValidationError lists everything wrong with one file.
type ValidationError struct {
	Path     string
	Problems []string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("%s: %s", e.Path, strings.Join(e.Problems, "; "))
}

// Is makes errors.Is(err, ErrInvalid) hold.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

// Files returns the scenario files of dir, sorted: every *.yaml file.
func Files(dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	return paths, nil
}

// LoadDir loads every scenario file of dir (Files). It fails on the
// first file that does not decode or validate, and on duplicate names.
func LoadDir(dir string) ([]*Scenario, error) {
	paths, err := Files(dir)
	if err != nil {
		return nil, err
	}
	var out []*Scenario
	var errs []error
	seen := map[string]string{}
	for _, p := range paths {
		sc, err := Load(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, ok := seen[sc.Name]; ok {
			errs = append(errs, &ValidationError{Path: p, Problems: []string{fmt.Sprintf("name %q already used by %s", sc.Name, prev)}})
			continue
		}
		seen[sc.Name] = p
		out = append(out, sc)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// Load reads, decodes and validates one scenario file. Its name must equal
// the file's base name without .yaml.
func Load(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sc, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	if want := strings.TrimSuffix(filepath.Base(path), ".yaml"); sc.Name != want {
		return nil, &ValidationError{Path: path, Problems: []string{fmt.Sprintf("name %q does not match the file name %q", sc.Name, want)}}
	}
	return sc, nil
}

// Parse decodes and validates a scenario; path is only used in errors.
// Unknown keys are errors.
func Parse(path string, data []byte) (*Scenario, error) {
	var sc Scenario
	if err := decodeStrict(data, &sc); err != nil {
		return nil, &ValidationError{Path: path, Problems: []string{err.Error()}}
	}
	sc.Path = path
	if probs := sc.Validate(); len(probs) > 0 {
		return nil, &ValidationError{Path: path, Problems: probs}
	}
	return &sc, nil
}

// LoadCLIScript reads a cli section stored on its own (JSON or YAML), as the
// fake CLI does with AIRWIRE_FAKE_CLI_SCRIPT.
func LoadCLIScript(path string) (*CLIScript, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s CLIScript
	if err := decodeStrict(data, &s); err != nil {
		return nil, &ValidationError{Path: path, Problems: []string{err.Error()}}
	}
	var v validator
	v.cli("cli", &s)
	if len(v.probs) > 0 {
		return nil, &ValidationError{Path: path, Problems: v.probs}
	}
	return &s, nil
}

// WriteCLIScript stores s as JSON at path, for AIRWIRE_FAKE_CLI_SCRIPT.
func WriteCLIScript(path string, s *CLIScript) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func decodeStrict(data []byte, into any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(into); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("empty file")
		}
		return err
	}
	return nil
}

// Validate lists every problem of the scenario; none means it is valid.
func (s *Scenario) Validate() []string {
	var v validator
	v.scenario(s)
	return v.probs
}

type validator struct{ probs []string }

func (v *validator) addf(format string, args ...any) {
	v.probs = append(v.probs, fmt.Sprintf(format, args...))
}

var (
	nameRE     = lazyre.New(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	uuidRE     = lazyre.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	labelBadRE = lazyre.New(`[&|!,()/:]`)
)

func (v *validator) scenario(s *Scenario) {
	if s.Name == "" {
		v.addf("name: missing")
	} else if !nameRE.MatchString(s.Name) {
		v.addf("name: %q must be lowercase words joined by -", s.Name)
	}
	if strings.TrimSpace(s.Description) == "" {
		v.addf("description: missing")
	} else if strings.Contains(strings.TrimSpace(s.Description), "\n") {
		v.addf("description: must be one line")
	}
	if len(s.Covers) == 0 {
		v.addf("covers: list at least one contract section")
	}
	seen := map[string]bool{}
	for i, c := range s.Covers {
		switch {
		case labelBadRE.MatchString(c):
			v.addf("covers[%d]: %q holds a character Ginkgo labels cannot have (&|!,()/:)", i, c)
		case strings.Contains(c, SubsectionSep) && !IsSubsection(c):
			v.addf("covers[%d]: %q is not \"Section > Subsection\" of air-extensions.md", i, c)
		case !strings.Contains(c, SubsectionSep) && !IsSection(c):
			v.addf("covers[%d]: %q is not a section of air-extensions.md", i, c)
		case seen[c]:
			v.addf("covers[%d]: %q listed twice", i, c)
		}
		seen[c] = true
	}
	v.profiles(s)
	v.files(s)
	ids := map[string]bool{}
	if s.Transcript != nil {
		v.transcript("transcript", s.Transcript)
		ids[s.Transcript.SessionID] = true
	}
	for i := range s.Sessions {
		t := &s.Sessions[i]
		v.transcript(fmt.Sprintf("sessions[%d]", i), t)
		if ids[t.SessionID] {
			v.addf("sessions[%d].sessionId: %s is stored twice", i, t.SessionID)
		}
		ids[t.SessionID] = true
	}
	v.client(s)
	v.source(s)
}

// profiles checks the scenario's profiles and capability changes.
func (v *validator) profiles(s *Scenario) {
	seenP := map[Profile]bool{}
	for i, p := range s.Profiles {
		if !KnownProfile(p) {
			v.addf("profiles[%d]: unknown profile %q (%s)", i, p, strings.Join(ProfileNames(), ", "))
		}
		if seenP[p] {
			v.addf("profiles[%d]: %q listed twice", i, p)
		}
		seenP[p] = true
	}
	if c := s.Capabilities; c != nil {
		for i, n := range append(append([]string{}, c.AddAir...), c.WithoutAir...) {
			if n == "" {
				v.addf("capabilities: AIR capability %d is empty", i)
			}
		}
		for i, p := range c.Remove {
			if p == "" || strings.HasPrefix(p, ".") || strings.HasSuffix(p, ".") {
				v.addf("capabilities.remove[%d]: %q is not a dotted path", i, p)
			}
		}
	}
}

// files checks the paths of the files a scenario writes: the workspace's
// (files, generatedFiles) and the config directory's (configFiles).
func (v *validator) files(s *Scenario) {
	for p := range s.Files {
		if p == "" || filepath.IsAbs(p) || strings.HasPrefix(filepath.Clean(p), "..") {
			v.addf("files: %q must be a relative path inside the workspace", p)
		}
	}
	for p, f := range s.GeneratedFiles {
		if p == "" || filepath.IsAbs(p) || strings.HasPrefix(filepath.Clean(p), "..") {
			v.addf("generatedFiles: %q must be a relative path inside the workspace", p)
		}
		if _, dup := s.Files[p]; dup {
			v.addf("generatedFiles: %q is in files too", p)
		}
		if _, err := f.Bytes(); err != nil {
			v.addf("generatedFiles: %s: %v", p, err)
		}
	}
	for p, content := range s.ConfigFiles {
		if p == "" || filepath.IsAbs(p) || strings.HasPrefix(filepath.Clean(p), "..") {
			v.addf("configFiles: %q must be a relative path inside the config directory", p)
		}
		for _, name := range Placeholders([]any{p, content}) {
			if !slices.Contains(ConfigFilePlaceholders, name) {
				v.addf("configFiles: %q uses {{%s}}; allowed: %s", p, name, strings.Join(ConfigFilePlaceholders, ", "))
			}
		}
	}
}

// source checks where the scenario's CLI comes from: a model script (the
// real CLI) or a CLI script (the scripted fake), never both.
func (v *validator) source(s *Scenario) {
	if s.Model == nil {
		if strings.TrimSpace(s.Scripted) == "" {
			v.addf("scripted: a scenario with cli: must say why the real CLI cannot be driven through it offline (or use model:)")
		}
		v.cli("cli", &s.CLI)
		return
	}
	if !reflect.ValueOf(s.CLI).IsZero() {
		v.addf("cli: a scenario with model: runs the real CLI; drop cli: (or drop model: to script the CLI)")
	}
	if s.Scripted != "" {
		v.addf("scripted: only a scenario with cli: is scripted")
	}
	if err := s.Model.Validate(); err != nil {
		v.addf("model: %v", err)
	}
}

func (v *validator) transcript(at string, t *Transcript) {
	if !uuidRE.MatchString(t.SessionID) {
		v.addf("%s.sessionId: %q is not a UUID", at, t.SessionID)
	}
	if t.Modified != "" {
		if _, err := time.Parse(time.RFC3339, t.Modified); err != nil {
			v.addf("%s.modified: %q is not RFC 3339", at, t.Modified)
		}
	}
	if t.Cwd != "" && (filepath.IsAbs(t.Cwd) || strings.HasPrefix(filepath.Clean(t.Cwd), "..")) {
		v.addf("%s.cwd: %q must be relative to the run's cwd", at, t.Cwd)
	}
	for i, r := range t.Rows {
		n := count(r.User != nil, r.Assistant != nil, r.Thinking != nil, r.Tool != nil, r.Raw != nil)
		if n != 1 {
			v.addf("%s.rows[%d]: set exactly one of user, assistant, thinking, tool, raw (got %d)", at, i, n)
		}
		if r.Tool != nil && r.Tool.Name == "" {
			v.addf("%s.rows[%d].tool.name: missing", at, i)
		}
		if r.Raw != nil {
			if _, ok := r.Raw["type"].(string); !ok {
				v.addf("%s.rows[%d].raw: needs a string type", at, i)
			}
		}
	}
}

func (v *validator) client(s *Scenario) {
	c := &s.Client
	switch c.Session.Method {
	case "", SessionNew, SessionNone:
	case SessionLoad, SessionResume:
		if s.Transcript == nil {
			v.addf("client.session.method: %s needs a transcript", c.Session.Method)
		}
	default:
		v.addf("client.session.method: unknown %q (new, load, resume, none)", c.Session.Method)
	}
	saved := map[string]bool{}
	v.placeholders("client.session", c.Session, saved)
	shut := false
	for i, st := range c.Steps {
		at := fmt.Sprintf("client.steps[%d]", i)
		if shut && st.WaitFor == nil {
			v.addf("%s: only waitFor steps may follow a shutdown step", at)
		}
		shut = shut || st.Shutdown
		v.clientStep(at, st, saved)
	}
	v.answers(&c.Answers)
}

// placeholders checks the {{…}} names in val: the run's own, or
// saved.NAME.PATH of an earlier step that saved NAME.
func (v *validator) placeholders(at string, val any, saved map[string]bool) {
	for _, name := range Placeholders(toGeneric(val)) {
		if slices.Contains(ClientPlaceholders, name) {
			continue
		}
		if strings.HasPrefix(name, "saved.") {
			parts := strings.SplitN(name, ".", 3)
			if len(parts) == 3 && saved[parts[1]] {
				continue
			}
			v.addf("%s: {{%s}} refers to no earlier step with save: %s", at, name, strings.Split(strings.TrimPrefix(name, "saved."), ".")[0])
			continue
		}
		v.addf("%s: unknown placeholder {{%s}} (%s, saved.NAME.PATH)", at, name, strings.Join(ClientPlaceholders, ", "))
	}
}

// clientStep checks one client step; the names it saves go into saved.
func (v *validator) clientStep(at string, st ClientStep, saved map[string]bool) {
	n := count(st.Prompt != nil, st.Request != nil, st.Notify != nil, st.WaitFor != nil, st.AwaitAll, st.AwaitPostTurn, st.Shutdown)
	if n != 1 {
		v.addf("%s: set exactly one of prompt, request, notify, waitFor, awaitAll, awaitPostTurn, shutdown (got %d)", at, n)
		return
	}
	switch {
	case st.Prompt != nil:
		v.prompt(at+".prompt", st.Prompt)
		v.placeholders(at+".prompt", st.Prompt, saved)
	case st.Request != nil:
		r := st.Request
		if r.Method == "" {
			v.addf("%s.request.method: missing", at)
		}
		if r.Method == "session/prompt" {
			v.addf("%s.request: use a prompt step for session/prompt", at)
		}
		if r.Repeat < 0 || r.Repeat > MaxRepeat {
			v.addf("%s.request.repeat: %d is not between 0 and %d", at, r.Repeat, MaxRepeat)
		}
		v.placeholders(at+".request", r.Params, saved)
		v.save(at+".request.save", r.Save, saved)
	case st.Notify != nil:
		if st.Notify.Method == "" {
			v.addf("%s.notify.method: missing", at)
		}
		v.placeholders(at+".notify", st.Notify.Params, saved)
	case st.WaitFor != nil:
		w := st.WaitFor
		if count(w.SessionUpdate != "", w.Request != "", w.Notification != "") != 1 {
			v.addf("%s.waitFor: set exactly one of sessionUpdate, request, notification", at)
		}
		if w.Count < 0 {
			v.addf("%s.waitFor.count: must not be negative", at)
		}
		for i, p := range w.Profiles {
			if !KnownProfile(p) {
				v.addf("%s.waitFor.profiles[%d]: unknown profile %q (%s)", at, i, p, strings.Join(ProfileNames(), ", "))
			}
		}
		v.save(at+".waitFor.save", w.Save, saved)
	}
}

// save checks a step's save name and records it.
func (v *validator) save(at, name string, saved map[string]bool) {
	if name == "" {
		return
	}
	if !nameRE.MatchString(name) {
		v.addf("%s: %q must be a lowercase word", at, name)
	}
	saved[name] = true
}

func (v *validator) prompt(at string, p *Prompt) {
	if p.Text == "" && len(p.Images) == 0 && len(p.Resources) == 0 && len(p.Links) == 0 && len(p.Blocks) == 0 {
		v.addf("%s: has no content", at)
	}
	for j, im := range p.Images {
		if im.MimeType == "" || (im.Data == "" && im.URI == "") {
			v.addf("%s.images[%d]: needs mimeType and data or uri", at, j)
		}
	}
	for j, r := range p.Resources {
		if r.URI == "" || (r.Text == "") == (r.Blob == "") {
			v.addf("%s.resources[%d]: needs uri and exactly one of text, blob", at, j)
		}
	}
	for j, l := range p.Links {
		if l.URI == "" || l.Name == "" {
			v.addf("%s.links[%d]: needs uri and name", at, j)
		}
	}
}

func (v *validator) answers(a *Answers) {
	for i, p := range a.Permission {
		at := fmt.Sprintf("client.answers.permission[%d]", i)
		if count(p.OptionID != "", p.Kind != "", p.Cancelled, p.CancelTurn, p.CancelAtOnce, p.CloseAtOnce) != 1 {
			v.addf("%s: set exactly one of optionId, kind, cancelled, cancelTurn, cancelAtOnce, closeAtOnce", at)
		}
		switch p.Kind {
		case "", KindAllowOnce, KindAllowAlways, KindRejectOnce, KindRejectAlways:
		default:
			v.addf("%s.kind: unknown %q (allow_once, allow_always, reject_once, reject_always)", at, p.Kind)
		}
	}
	for i, e := range a.Elicitation {
		at := fmt.Sprintf("client.answers.elicitation[%d]", i)
		switch e.Action {
		case "accept":
		case "decline", "cancel":
			if e.Content != nil {
				v.addf("%s.content: only an accept carries content", at)
			}
		default:
			v.addf("%s.action: %q must be accept, decline or cancel", at, e.Action)
		}
	}
	for p := range a.FS.Read {
		if filepath.IsAbs(p) || strings.HasPrefix(filepath.Clean(p), "..") {
			v.addf("client.answers.fs.read: %q must be relative to cwd", p)
		}
	}
}

func (v *validator) cli(at string, c *CLIScript) {
	for sub, o := range c.Controls {
		if sub == "" {
			v.addf("%s.controls: empty subtype", at)
		}
		if o.Error != "" && (o.Response != nil || o.NoReply) {
			v.addf("%s.controls.%s: error excludes response and noReply", at, sub)
		}
	}
	for i, st := range c.Start {
		if st.Emit == nil && st.System == nil {
			v.addf("%s.start[%d]: only emit and system steps may run before a turn", at, i)
		}
		v.step(fmt.Sprintf("%s.start[%d]", at, i), st)
	}
	for i, t := range c.Turns {
		tat := fmt.Sprintf("%s.turns[%d]", at, i)
		switch t.Process {
		case "", ProcessNew, ProcessResume, ProcessFork:
		default:
			v.addf("%s.process: unknown %q (new, resume, fork)", tat, t.Process)
		}
		results := 0
		for j, st := range t.Steps {
			sat := fmt.Sprintf("%s.steps[%d]", tat, j)
			v.step(sat, st)
			if st.Result != nil {
				results++
				if j != len(t.Steps)-1 {
					v.addf("%s: result must be the turn's last step", sat)
				}
			}
		}
		if results > 1 {
			v.addf("%s: more than one result", tat)
		}
	}
	for _, name := range Placeholders(toGeneric(c)) {
		known := false
		for _, k := range CLIPlaceholders {
			known = known || k == name
		}
		if !known {
			v.addf("%s: unknown placeholder {{%s}} (%s)", at, name, strings.Join(CLIPlaceholders, ", "))
		}
	}
}

func (v *validator) step(at string, s Step) {
	n := count(s.Text != nil, s.Thinking != nil, s.Assistant != nil, s.Tool != nil, s.ToolResult != nil, s.System != nil,
		s.Emit != nil, s.Control != nil, s.Elicitation != nil, s.Hook != nil, s.Result != nil, s.APIError != nil, s.Pause != nil, s.Exit != nil)
	if n != 1 {
		v.addf("%s: set exactly one of text, thinking, assistant, tool, toolResult, system, emit, control, elicitation, hook, result, apiError, pause, exit (got %d)", at, n)
		return
	}
	switch {
	case s.Assistant != nil:
		if len(s.Assistant.Content) == 0 {
			v.addf("%s.assistant.content: empty", at)
		}
		for i, b := range s.Assistant.Content {
			if count(b.Text != nil, b.Thinking != nil, b.ToolUse != nil, b.Raw != nil) != 1 {
				v.addf("%s.assistant.content[%d]: set exactly one of text, thinking, toolUse, raw", at, i)
			}
			if b.ToolUse != nil && (b.ToolUse.ID == "" || b.ToolUse.Name == "") {
				v.addf("%s.assistant.content[%d].toolUse: needs id and name", at, i)
			}
		}
	case s.Tool != nil:
		t := s.Tool
		if t.Name == "" {
			v.addf("%s.tool.name: missing", at)
		}
		if t.Permission != "" && t.Permission != "ask" {
			v.addf("%s.tool.permission: %q must be ask or empty", at, t.Permission)
		}
		if t.Permission == "" && (t.Suggestions != nil || t.BlockedPath != "" || t.DecisionReason != "" || t.PermissionExtra != nil) {
			v.addf("%s.tool: suggestions, blockedPath, decisionReason and permissionExtra need permission: ask", at)
		}
		for i, h := range t.Hooks {
			if h == "" {
				v.addf("%s.tool.hooks[%d]: empty", at, i)
			}
		}
		if t.WriteFile != nil && (t.WriteFile.Path == "" || filepath.IsAbs(t.WriteFile.Path) || strings.HasPrefix(filepath.Clean(t.WriteFile.Path), "..")) {
			v.addf("%s.tool.writeFile.path: must be relative to cwd", at)
		}
	case s.ToolResult != nil:
		if s.ToolResult.ToolUseID == "" {
			v.addf("%s.toolResult.toolUseId: missing", at)
		}
	case s.System != nil:
		if sub, _ := s.System["subtype"].(string); sub == "" {
			v.addf("%s.system: needs a subtype", at)
		}
	case s.Emit != nil:
		if typ, _ := s.Emit["type"].(string); typ == "" {
			v.addf("%s.emit: needs a type", at)
		}
	case s.Control != nil:
		if sub, _ := s.Control["subtype"].(string); sub == "" {
			v.addf("%s.control: needs a subtype", at)
		}
	case s.Hook != nil:
		if s.Hook.Event == "" {
			v.addf("%s.hook.event: missing", at)
		}
	case s.APIError != nil:
		if s.APIError.Status == 0 {
			v.addf("%s.apiError.status: missing", at)
		}
	case s.Pause != nil:
		u := s.Pause.Until
		if u != PauseInterrupt && u != PausePrompt && !(strings.HasPrefix(u, PauseControlPrefix) && len(u) > len(PauseControlPrefix)) {
			v.addf("%s.pause.until: %q must be interrupt, prompt or control:<subtype>", at, u)
		}
		if s.Pause.Next && !strings.HasPrefix(u, PauseControlPrefix) {
			v.addf("%s.pause.next: only a control:<subtype> pause waits for the next request", at)
		}
		if d, err := time.ParseDuration(s.Pause.AtMost); s.Pause.AtMost != "" && (err != nil || d <= 0) {
			v.addf("%s.pause.atMost: %q is not a positive duration such as 2s", at, s.Pause.AtMost)
		}
	}
}

func count(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// toGeneric turns a typed value into maps and slices through JSON.
func toGeneric(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
