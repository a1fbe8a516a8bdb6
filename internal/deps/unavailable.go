package deps

import "os"

// TB is the part of testing.TB (and of Ginkgo's GinkgoT()) that Unavailable
// uses.
type TB interface {
	Helper()
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Unavailable ends a test that needs what `make deps` installs and did not
// find: outside CI the test is skipped, so that a checkout without
// `make deps` still runs the rest; under CI (the CI variable set and not
// "false" or "0") it fails, because there a skipped test would hide a broken
// install.
func Unavailable(t TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf(format, args...)
		return
	}
	t.Skipf(format, args...)
}

// InCI reports whether the CI variable says the tests run in CI.
func InCI() bool {
	switch os.Getenv("CI") {
	case "", "0", "false":
		return false
	}
	return true
}
