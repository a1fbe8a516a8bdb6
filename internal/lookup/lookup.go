// Package lookup holds small constant tables (string sets and string maps)
// as static data.
//
// A package-level map literal is built by init code, and every package's
// init code runs at every start of the binary, whatever the verb: it maps
// its page of the binary and allocates. `airwire agent` pays that in
// resident memory before it reads its first request. A Set or Map literal
// of constants is laid out by the linker instead, and costs nothing until
// it is read. The tables are small (tens of entries), so a linear scan
// costs less than hashing the key.
package lookup

import "sync"

// Set is a set of strings.
type Set []string

// Has reports whether s holds k.
func (s Set) Has(k string) bool {
	for _, v := range s {
		if v == k {
			return true
		}
	}
	return false
}

// Map maps strings to strings: each entry is {key, value}; the first entry
// of a key wins.
type Map [][2]string

// Get is the value of k, and whether m holds k.
func (m Map) Get(k string) (string, bool) {
	for _, p := range m {
		if p[0] == k {
			return p[1], true
		}
	}
	return "", false
}

// Value is the value of k, "" when m does not hold it.
func (m Map) Value(k string) string {
	v, _ := m.Get(k)
	return v
}

// Lazy is a value built by Build on the first Get, for a package-level table
// that a literal cannot express as static data (a map, or a table of them):
// `var t = lookup.Lazy[T]{Build: func() T { return … }}` is itself static
// data, so the table costs nothing at start. It is safe for concurrent use.
type Lazy[T any] struct {
	// Build makes the value; it runs once.
	Build func() T
	once  sync.Once
	v     T
}

// Get is the value, built on the first call.
func (l *Lazy[T]) Get() T {
	l.once.Do(func() { l.v = l.Build() })
	return l.v
}
