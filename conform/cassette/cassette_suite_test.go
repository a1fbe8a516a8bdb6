package cassette_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
)

func TestCassette(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "cassette")
}

// airwireBin is built once, on process 1, and shared with every parallel process.
var airwireBin string

var _ = SynchronizedBeforeSuite(func() []byte {
	aw, err := gexec.Build("github.com/airwire/airwire/cmd/airwire")
	Expect(err).NotTo(HaveOccurred())
	return []byte(aw)
}, func(path []byte) { airwireBin = string(path) })

var _ = SynchronizedAfterSuite(func() {}, func() { gexec.CleanupBuildArtifacts() })
