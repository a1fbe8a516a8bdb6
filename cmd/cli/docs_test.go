package cli

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/internal/testroot"
)

// TestRootHelpPresentsEveryPart: `airwire help` presents the agent first
// (what an editor launches), then the proxy, the journal readers and the
// suite's verbs.
func TestRootHelpPresentsEveryPart(t *testing.T) {
	root := NewCmdRoot(factory.New("test", factory.WithIO(strings.NewReader(""), io.Discard, io.Discard)), "")
	long := root.Long
	at := -1
	for _, part := range []string{"airwire agent", "airwire record", "airwire journal", "airwire conform", "airwire validate", "airwire report", "airwire diff"} {
		i := strings.Index(long, part)
		if i < 0 {
			t.Errorf("airwire help does not present %s:\n%s", part, long)
		} else if part == "airwire agent" {
			at = i
		}
	}
	if first := strings.Index(long, "(airwire "); at < 0 || first >= 0 && first < at-1 {
		t.Errorf("airwire help does not present the agent first:\n%s", long)
	}
	if strings.Contains(long, "three tools") {
		t.Errorf("airwire help still counts three tools:\n%s", long)
	}
}

// devHistory is wording that belongs in commit messages, not in what a user
// reads: issue numbers and notes on how the product was developed.
var devHistory = regexp.MustCompile(`(?i)\bissue ?#?[0-9]+|closing note|is being completed|stays the reference`)

// TestUserDocsSpeakOfTheProduct: the README, docs/, the deviations and
// every command's help text name no issue and tell no development history.
func TestUserDocsSpeakOfTheProduct(t *testing.T) {
	root := testroot.Root(t)
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"), filepath.Join(root, "goldens", "DEVIATIONS.md"), filepath.Join(root, "goldens", "README.md"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := devHistory.FindString(line); m != "" {
				rel, _ := filepath.Rel(root, p)
				t.Errorf("%s:%d: %q: %s", rel, i+1, m, line)
			}
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		text := c.Short + "\n" + c.Long + "\n" + c.Example
		c.Flags().VisitAll(func(fl *pflag.Flag) { text += "\n" + fl.Usage })
		if m := devHistory.FindString(text); m != "" {
			t.Errorf("%s --help: %q", c.CommandPath(), m)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewCmdRoot(factory.New("test", factory.WithIO(strings.NewReader(""), io.Discard, io.Discard)), ""))
}

// contractURL is the wire contract at the commit airwire follows.
const contractURL = "https://github.com/agentclientprotocol/claude-agent-acp/blob/383bc7dcf0d4d624d2d74405eb3cee6453eb9b11/docs/air-extensions.md"

// TestContractIsLinked: the README and the report docs link the contract
// whose sections the reports and findings name, at a pinned commit.
func TestContractIsLinked(t *testing.T) {
	root := testroot.Root(t)
	for _, rel := range []string{"README.md", "docs/report.md"} {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "]("+contractURL+")") {
			t.Errorf("%s does not link the contract at %s", rel, contractURL)
		}
	}
}

// TestCIWorkflowPinsAirwire: the CI workflow in docs/ci.md installs the
// airwire release its AIRWIRE_VERSION names, never @latest: the goldens
// come with the release, so the verdict must not move between runs.
func TestCIWorkflowPinsAirwire(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testroot.Root(t), "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	installs := 0
	for i, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "go install") && strings.Contains(line, "cmd/airwire@") {
			installs++
			if !strings.Contains(line, "cmd/airwire@$AIRWIRE_VERSION") {
				t.Errorf("docs/ci.md:%d installs an unpinned airwire: %s", i+1, strings.TrimSpace(line))
			}
		}
		if strings.Contains(line, "cmd/airwire@latest") || strings.Contains(line, "AIRWIRE_VERSION:") && strings.Contains(line, "latest") {
			t.Errorf("docs/ci.md:%d pins latest: %s", i+1, strings.TrimSpace(line))
		}
	}
	if installs == 0 || !strings.Contains(string(b), `AIRWIRE_VERSION: "v`) {
		t.Errorf("docs/ci.md sets no AIRWIRE_VERSION or installs no airwire (%d installs)", installs)
	}
}

// TestReadmeRecordsAirwireAgent: the README records airwire's own agent,
// and make deps prints the --claude-path of the CLI it installs (the agent
// does not look in .deps/).
func TestReadmeRecordsAirwireAgent(t *testing.T) {
	root := testroot.Root(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "airwire record --journal ~/acp.jsonl --cli-lane -- airwire agent\n") {
		t.Error("README.md shows no airwire record … -- airwire agent example")
	}
	script, err := os.ReadFile(filepath.Join(root, ".ci", "deps.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), `airwire agent --claude-path '$CLAUDE'`) {
		t.Error(".ci/deps.sh does not print the --claude-path of the CLI it installs")
	}
}
