//go:build !airwire_portable

package testroot

// BuildFlags are the `go build` flags that give a binary a test builds
// the same platform twins as the test itself: none here.
func BuildFlags() []string { return nil }
