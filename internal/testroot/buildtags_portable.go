//go:build airwire_portable

package testroot

// BuildFlags are the `go build` flags that give a binary a test builds
// the same platform twins as the test itself: this test runs the portable
// twins, so the binary must too.
func BuildFlags() []string { return []string{"-tags", "airwire_portable"} }
