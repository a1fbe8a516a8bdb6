package proxy_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"

	"github.com/airwire/airwire/internal/journal"
)

// Items 1, 2, 7 and 8 of issue 11, through the airwire binary.
var _ = Describe("airwire record, hardened", func() {
	var dir, jpath string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		jpath = filepath.Join(dir, "acp.jsonl")
	})

	It("never clobbers an existing journal: a second recorder on the path gets a fresh name and says so (item 1)", func() {
		first := exec.Command(bins.Airwire, "record", "--journal", jpath, "--", bins.Agent, "echo")
		first.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"first"}` + "\n")
		Expect(first.Run()).To(Succeed())
		before, err := os.ReadFile(jpath)
		Expect(err).NotTo(HaveOccurred())

		var errs [2]bytes.Buffer
		var cmds [2]*exec.Cmd
		for i := range cmds { // two at once, as two agent starts in one editor
			cmds[i] = exec.Command(bins.Airwire, "record", "-q", "--journal", jpath, "--", bins.Agent, "echo")
			cmds[i].Stdin = strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"run-%d"}`+"\n", i))
			cmds[i].Stderr = &errs[i]
			Expect(cmds[i].Start()).To(Succeed())
		}
		var fresh []string
		for i, c := range cmds {
			Expect(c.Wait()).To(Succeed(), errs[i].String())
			Expect(errs[i].String()).To(MatchRegexp(`airwire record: .*acp\.jsonl exists; journal .*acp-\d+\.jsonl`), "-q must not hide where the journal went")
			p := strings.TrimSpace(strings.SplitN(strings.SplitN(errs[i].String(), "; journal ", 2)[1], "\n", 2)[0])
			fresh = append(fresh, p)
			Expect(filepath.Dir(p)).To(Equal(dir), "the fresh journal sits next to the asked one")
			_, entries, err := journal.ReadAll(p)
			Expect(err).NotTo(HaveOccurred())
			// The editor's frame, wherever the agent's spawn put it.
			var sent string
			for _, e := range entries {
				if e.Kind == journal.KindMsg && e.Dir == journal.DirEditor {
					sent = string(e.Msg)
					break
				}
			}
			Expect(sent).To(ContainSubstring(fmt.Sprintf("run-%d", i)))
		}
		Expect(fresh[0]).NotTo(Equal(fresh[1]))
		after, _ := os.ReadFile(jpath)
		Expect(after).To(Equal(before), "the first journal was changed")
	})

	It("refuses a symlink instead of overwriting its target (item 2)", func() {
		precious := filepath.Join(dir, "precious.txt")
		Expect(os.WriteFile(precious, []byte("keep"), 0o644)).To(Succeed())
		Expect(os.Symlink(precious, jpath)).To(Succeed())
		out, err := exec.Command(bins.Airwire, "record", "--journal", jpath, "--", "true").CombinedOutput()
		Expect(err).To(HaveOccurred())
		Expect(err.(*exec.ExitError).ExitCode()).To(Equal(1), string(out))
		Expect(string(out)).To(ContainSubstring("not a new regular file"))
		Expect(string(out)).NotTo(ContainSubstring("Usage:"))
		b, _ := os.ReadFile(precious)
		Expect(string(b)).To(Equal("keep"))
		st, _ := os.Stat(precious)
		Expect(st.Mode().Perm()).To(Equal(os.FileMode(0o644)))
	})

	It("exits 127 for a missing agent and 126 for one that is not executable, as a shell does (item 7)", func() {
		for _, c := range []struct {
			name string
			code int
		}{{"missing", 127}, {"noexec", 126}} {
			agent := filepath.Join(dir, c.name)
			if c.name == "noexec" {
				Expect(os.WriteFile(agent, []byte("#!/bin/sh\n"), 0o644)).To(Succeed())
			}
			j := filepath.Join(dir, c.name+".jsonl")
			out, err := exec.Command(bins.Airwire, "record", "-q", "--journal", j, "--", agent).CombinedOutput()
			Expect(err).To(HaveOccurred())
			Expect(err.(*exec.ExitError).ExitCode()).To(Equal(c.code), string(out))
			Expect(string(out)).To(ContainSubstring("cannot start the agent"))
			_, entries, err := journal.ReadAll(j)
			Expect(err).NotTo(HaveOccurred())
			Expect(entries[len(entries)-1].Exit).To(Equal(&journal.Exit{Code: c.code}))
		}
	})

	It("says at once when the journal cannot be written, keeps the agent's status and the editor's stream (item 7)", func() {
		line := `{"jsonrpc":"2.0","method":"session/update","params":{"t":"` + strings.Repeat("x", 64<<10) + `"}}` + "\n"
		payload := strings.Repeat(line, 16) // 1 MiB, the journal may hold 256 KiB
		src := filepath.Join(dir, "payload")
		Expect(os.WriteFile(src, []byte(payload), 0o600)).To(Succeed())
		agent := fmt.Sprintf("cat '%s'; sleep 1; echo agent-done >&2", src)
		cmd := exec.Command("prlimit", "--fsize=262144", bins.Airwire, "record", "-q", "--journal", jpath, "--", "sh", "-c", agent)
		var out bytes.Buffer
		errOut := gbytes.NewBuffer()
		cmd.Stdout, cmd.Stderr = &out, errOut
		Expect(cmd.Run()).To(Succeed(), "the agent exited 0: so must airwire record\n%s", errOut.Contents())
		Expect(out.String()).To(Equal(payload), "the editor's stream must stay intact")
		stderr := string(errOut.Contents())
		i := strings.Index(stderr, "cannot write the journal")
		Expect(i).To(BeNumerically(">=", 0), stderr)
		Expect(i).To(BeNumerically("<", strings.Index(stderr, "agent-done")), "said only at exit: %s", stderr)
		_, entries, err := journal.ReadAll(jpath)
		Expect(err).NotTo(HaveOccurred())
		last := entries[len(entries)-1]
		Expect(last.Kind).To(Equal(journal.KindNote))
		Expect(last.TextOf()).To(ContainSubstring("cannot write the journal"))
	})

	It("passes the agent's stdout EOF to the editor at once, while the agent runs on (item 8)", func(ctx SpecContext) {
		cmd := exec.Command(bins.Airwire, "record", "-q", "--journal", jpath, "--", "sh", "-c", "echo hi; exec >&-; sleep 3")
		stdout, err := cmd.StdoutPipe()
		Expect(err).NotTo(HaveOccurred())
		start := time.Now()
		Expect(cmd.Start()).To(Succeed())
		DeferCleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		b, err := io.ReadAll(stdout)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal("hi\n"))
		Expect(time.Since(start)).To(BeNumerically("<", 2*time.Second), "EOF came only when the agent exited")
	}, NodeTimeout(20*time.Second))
})
