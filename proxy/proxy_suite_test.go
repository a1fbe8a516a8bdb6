package proxy_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/testroot"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
)

func TestProxy(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "proxy")
}

// bins are built once, on process 1, and shared with every parallel process.
var bins struct{ Airwire, Agent string }

var _ = SynchronizedBeforeSuite(func() []byte {
	aw, err := gexec.Build("github.com/airwire/airwire/cmd/airwire", testroot.BuildFlags()...)
	Expect(err).NotTo(HaveOccurred())
	ag, err := gexec.Build("github.com/airwire/airwire/proxy/testdata/agent", testroot.BuildFlags()...)
	Expect(err).NotTo(HaveOccurred())
	return []byte(aw + "\n" + ag)
}, func(paths []byte) {
	p := strings.Split(string(paths), "\n")
	bins.Airwire, bins.Agent = p[0], p[1]
})

var _ = SynchronizedAfterSuite(func() {}, func() { gexec.CleanupBuildArtifacts() })

// fakeCLIScript writes an executable that runs the test agent as a CLI.
func fakeCLIScript(dir string) string {
	p := filepath.Join(dir, "fake-claude")
	Expect(os.WriteFile(p, []byte("#!/bin/sh\nexec '"+bins.Agent+"' fake-cli \"$@\"\n"), 0o755)).To(Succeed())
	return p
}
